// docs/product.md §8: every non-200 answer is a failure, normalised to one shape without throwing.

export interface ApiFailure {
  status: number;
  data: { code: number; message: string };
}

export interface FailureInput {
  status?: number;
  statusText?: string;
  data?: unknown;
}

export function isFailure(status: number): boolean {
  return status !== 200;
}

/** The message of a failure that had no answer at all (network error, timeout, the server gone mid-request). */
export const NO_RESPONSE_MESSAGE = 'Unknown Error';

function field(data: unknown, key: string): unknown {
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[key] : undefined;
}

/**
 * `input` is what came back; undefined means there was no response at all (network error,
 * timeout). Message: the server's, else "status statusText", else "Unknown Error".
 */
export function normalizeFailure(input?: FailureInput): ApiFailure {
  const status = input?.status || 500;
  const serverCode = field(input?.data, 'code');
  const serverMessage = field(input?.data, 'message');
  let message: string;
  if (typeof serverMessage === 'string' && serverMessage !== '') message = serverMessage;
  else if (input?.status) message = `${input.status} ${input.statusText ?? ''}`.trim();
  else message = NO_RESPONSE_MESSAGE;
  return { status, data: { code: typeof serverCode === 'number' ? serverCode : 500, message } };
}
