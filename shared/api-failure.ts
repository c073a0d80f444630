// docs/product.md §8: every non-200 answer is a failure, normalised to one shape without throwing.

export interface ApiFailure {
  status: number;
  data: { code: number; message: string };
}

export interface FailureInput {
  status?: number;
  data?: unknown;
}

/**
 * The answer to a sign-in call past its limit (the gateway's and the backend's): how long to
 * wait, the seconds its `retry-after` header gives, rather than a 稍后 the visitor must guess.
 */
export function tooManyTriesMessage(seconds: number): string {
  return `操作过于频繁，请 ${seconds} 秒后再试`;
}

export function isFailure(status: number): boolean {
  return status !== 200;
}

function field(data: unknown, key: string): unknown {
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[key] : undefined;
}

/**
 * What a failure says when nothing answered: the site is down or the network gone. The member
 * reads it under the failed action's title (修改失败, 加载失败…), so it is Chinese (decision 052).
 */
export const NO_ANSWER_MESSAGE = '无法连接服务器，请检查网络后重试';

/**
 * What a failure says when the server is unavailable and says nothing itself (a 502, 503 or 504
 * without a message: a proxy's page in front of a backend away), and the page the gateway
 * serves while the backend cannot give a page what it needs.
 */
export const SERVICE_UNAVAILABLE_MESSAGE = '服务暂时不可用，请稍后再试';

/** Whether the failure is one where nothing answered (as normalizeFailure makes it), not the server's. */
export function nothingAnswered(failure: ApiFailure): boolean {
  return failure.status === 500 && failure.data.code === 500 && failure.data.message === NO_ANSWER_MESSAGE;
}

/**
 * What a failure says when its answer carries no message of its own (a proxy's or a server's
 * HTML page, an empty body), by status: the statuses a member meets, in the words the gateway
 * answers them with itself (gateway/errors.ts takes these). Any other says
 * statusFailureMessage's 请求失败（HTTP n）.
 */
export const STATUS_MESSAGES = {
  400: '请求无效',
  401: '未登录或登录已过期，请重新登录',
  403: '没有权限执行此操作',
  404: '请求的资源不存在',
  408: '请求超时，请检查网络后重试',
  413: '文件大小超出限制',
  429: '操作过于频繁，请稍后再试',
  500: '服务器内部错误，请稍后再试',
  502: SERVICE_UNAVAILABLE_MESSAGE,
  503: SERVICE_UNAVAILABLE_MESSAGE,
  504: SERVICE_UNAVAILABLE_MESSAGE,
} as const satisfies Record<number, string>;

/** The Chinese a failure of `status` says when the answer has no message (the HTTP reason phrase is English: never shown). */
export function statusFailureMessage(status: number): string {
  return (STATUS_MESSAGES as Partial<Record<number, string>>)[status] ?? `请求失败（HTTP ${status}）`;
}

/**
 * `input` is what came back; undefined means there was no response at all (network error,
 * timeout). Message: the server's, else statusFailureMessage for its status (服务暂时不可用 for a
 * 502, 503 or 504), else NO_ANSWER_MESSAGE.
 */
export function normalizeFailure(input?: FailureInput): ApiFailure {
  const status = input?.status || 500;
  const serverCode = field(input?.data, 'code');
  const serverMessage = field(input?.data, 'message');
  let message: string;
  if (typeof serverMessage === 'string' && serverMessage !== '') message = serverMessage;
  else if (input?.status) message = statusFailureMessage(input.status);
  else message = NO_ANSWER_MESSAGE;
  return { status, data: { code: typeof serverCode === 'number' ? serverCode : 500, message } };
}
