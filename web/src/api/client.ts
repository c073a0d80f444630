// The one HTTP client of the SPA (docs/product.md §7/§8): JSON by default, 30 s timeout, arrays in the
// query string as repeated keys, a bearer header only when a token is held (in the browser
// the gateway holds it in an httpOnly cookie, so none is), and every non-200 answer
// normalised to `{status, data:{code, message}}` without throwing. A 401 sends the visitor
// to the login page, or asks a member to sign in again over the screen.
import { isFailure, normalizeFailure, type ApiFailure } from '../../../shared/api-failure';
import { REQUEST_TIMEOUT_MS } from '../../../shared/constants';
import { SESSION_END_HEADER, sessionEndOf, type SessionEnd } from '../../../shared/session-end';
import { AS_VISITOR_HEADER, isWriteCall, recordsTheCaller } from '../../../shared/writes';
import { takeEarlyResponse } from './early-responses';

export { REQUEST_TIMEOUT_MS };

/**
 * An upload that sends nothing more for this long, bytes still to send, is given up as
 * cut off: a connection lost without a reset (a phone out of coverage) leaves the request open for
 * many minutes, its row in 上传中 under a bar that does not move.
 */
export const UPLOAD_STALL_MS = 60_000;

/**
 * How long an upload whose last byte is sent waits for its answer: the server checks and stores
 * the file first (its hash, its type, a copy of it), longer for a large file on a busy server. The
 * site answers on its own past its wait for the backend (the gateway's upstream timeout); this
 * catches a connection lost meanwhile, without holding the row as long as a lost one would.
 */
export const UPLOAD_ANSWER_MS = 5 * 60_000;

/** XMLHttpRequest's readyState once the answer's headers are in, and while its body comes. */
const HEADERS_RECEIVED = 2;
const LOADING = 3;

type Scalar = string | number | boolean;
export type QueryValue = Scalar | null | undefined | readonly Scalar[];
export type Query = Record<string, QueryValue>;

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';

export interface RequestOptions {
  query?: Query;
  /** Sent as JSON, or as-is when it is FormData (multipart uploads). */
  body?: unknown;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Let the caller handle a 401 itself instead of going to the login page (start-up probe). */
  skipUnauthorizedRedirect?: boolean;
  /**
   * Another status by which this call says that the caller has no session, handled as a 401 is
   * (MOREDOC's GetUser answers 400 ID错误 to a caller without one).
   */
  noSessionStatus?: number;
}

export type ApiResult<T> = { ok: true; status: 200; data: T } | ({ ok: false } & ApiFailure);

/**
 * The call a 401 answered: `write` when it changes state (shared/writes.ts), as a click of the reader's (下载) does;
 * `path` its API path (what the login page then says the visitor came for); `ended` why the server refused the
 * session the call carried, when it says (docs/decisions/079).
 */
export interface UnauthorizedCall {
  write: boolean;
  path?: string;
  ended?: SessionEnd;
}

export interface ApiClientConfig {
  /** Prefix of every path; '' means the page's own origin. */
  baseUrl?: string;
  /** Returns the token when this client holds one (never in the browser build). */
  getToken?: () => string | undefined;
  /**
   * Runs on a 401 (or a call's `noSessionStatus`); answers true when the screen stays and asks
   * to sign in again over it (docs/decisions/059), which then says all the failure has to say.
   */
  onUnauthorized?: (call: UnauthorizedCall) => boolean | void;
  fetch?: typeof fetch;
  /**
   * True while the calls that record their caller (the searches) go as a visitor's: on a page another site opened,
   * until the reader moves on (docs/decisions/121).
   */
  recordsAsVisitor?: () => boolean;
  /** Makes the request object of uploads (fetch reports no upload progress). */
  createXhr?: () => XMLHttpRequest;
  timeoutMs?: number;
}

export interface UploadOptions {
  /** Bytes of the request body sent so far, of `total`. */
  onProgress?: (loaded: number, total: number) => void;
  /** The whole body is sent: the server is handling it, the answer to come. */
  onSent?: () => void;
  signal?: AbortSignal;
}

export interface ApiClient {
  request<T>(method: HttpMethod, path: string, options?: RequestOptions): Promise<ApiResult<T>>;
  get<T>(path: string, query?: Query, options?: RequestOptions): Promise<ApiResult<T>>;
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResult<T>>;
  put<T>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResult<T>>;
  delete<T>(path: string, query?: Query, options?: RequestOptions): Promise<ApiResult<T>>;
  /**
   * A multipart POST that reports its progress; no time limit while bytes move (UPLOAD_STALL_MS
   * without one), then UPLOAD_ANSWER_MS for the answer once the last byte is sent.
   */
  upload<T>(path: string, form: FormData, options?: UploadOptions): Promise<ApiResult<T>>;
  configure(patch: Partial<ApiClientConfig>): void;
}

/** `{id: [1, 2], wd: 'x'}` → `id=1&id=2&wd=x`; null and undefined are left out. */
export function buildQueryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value as readonly Scalar[]) params.append(key, String(item));
    } else {
      params.append(key, String(value));
    }
  }
  return params.toString();
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function readBody(response: Response): Promise<unknown> {
  return parseBody(await response.text());
}

/**
 * The failures whose screen asks to sign in again over it (by their `data`, which a failure keeps
 * when it becomes an ApiError).
 */
const signInAgainFailures = new WeakSet<ApiFailure['data']>();

export function createApiClient(initial: ApiClientConfig = {}): ApiClient {
  const config: ApiClientConfig = { ...initial };

  async function request<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<ApiResult<T>> {
    const qs = buildQueryString(options.query);
    const url = `${config.baseUrl ?? ''}${path}${qs ? `?${qs}` : ''}`;
    const headers: Record<string, string> = { Accept: 'application/json' };
    let body: BodyInit | undefined;
    if (options.body instanceof FormData) {
      body = options.body; // the browser sets the multipart boundary
    } else if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const token = config.getToken?.();
    if (token) headers.Authorization = `Bearer ${token}`;
    if (recordsTheCaller(method, path) && config.recordsAsVisitor?.()) headers[AS_VISITOR_HEADER] = '1';

    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(), options.timeoutMs ?? config.timeoutMs ?? REQUEST_TIMEOUT_MS);
    const onCallerAbort = () => controller.abort();
    options.signal?.addEventListener('abort', onCallerAbort, { once: true });

    let response: Response;
    let data: unknown;
    let answered = false;
    try {
      const early = method === 'GET' ? takeEarlyResponse(url) : undefined;
      response = await (early ?? (config.fetch ?? fetch)(url, { method, headers, body, signal: controller.signal }));
      answered = true;
      data = await readBody(response);
    } catch {
      // An answer broken off mid-body (the connection closed) is the server's failure, said as a
      // 502 without a message is; past the time limit or called off, it is one that never came.
      if (answered && !controller.signal.aborted) return { ok: false, ...normalizeFailure({ status: 502 }) };
      return { ok: false, ...normalizeFailure(undefined) };
    } finally {
      clearTimeout(timeout);
      options.signal?.removeEventListener('abort', onCallerAbort);
    }

    const call = {
      write: isWriteCall(method, path),
      path,
      ended: sessionEndOf(response.headers.get(SESSION_END_HEADER)),
    };
    return settle<T>(response.status, data, call, options);
  }

  function settle<T>(
    status: number,
    data: unknown,
    call: UnauthorizedCall,
    options: Pick<RequestOptions, 'skipUnauthorizedRedirect' | 'noSessionStatus'> = {},
  ): ApiResult<T> {
    if (!isFailure(status)) return { ok: true, status: 200, data: (data ?? {}) as T };
    const noSession = status === 401 || status === options.noSessionStatus;
    const failure = normalizeFailure({ status, data });
    if (noSession && !options.skipUnauthorizedRedirect && config.onUnauthorized?.(call) === true) {
      signInAgainFailures.add(failure.data);
    }
    return { ok: false, ...failure };
  }

  function upload<T>(path: string, form: FormData, options: UploadOptions = {}): Promise<ApiResult<T>> {
    return new Promise((resolve) => {
      const xhr = config.createXhr?.() ?? new XMLHttpRequest();
      let stall: ReturnType<typeof setTimeout> | undefined;
      let sent = false;
      let answering = false;
      const watch = (limit = UPLOAD_STALL_MS) => {
        clearTimeout(stall);
        stall = setTimeout(() => xhr.abort(), limit);
      };
      // Broken off once the answer began, the file arrived and the server failed while answering: said
      // as a 502 without a message is, as `request` says it. The browser is DONE by the error event
      // whatever came, so the headers are known only by the states seen before it.
      const failed = (broken: boolean) => {
        clearTimeout(stall);
        resolve({ ok: false, ...normalizeFailure(broken && answering ? { status: 502 } : undefined) });
      };
      xhr.open('POST', `${config.baseUrl ?? ''}${path}`);
      xhr.setRequestHeader('Accept', 'application/json');
      const token = config.getToken?.();
      if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
      xhr.upload.onprogress = (event) => {
        if (!sent) watch();
        if (event.lengthComputable) options.onProgress?.(event.loaded, event.total);
      };
      // The last byte sent: what is left is the server's work, not bytes that stopped moving.
      xhr.upload.onload = () => {
        sent = true;
        watch(UPLOAD_ANSWER_MS);
        options.onSent?.();
      };
      xhr.onload = () => {
        clearTimeout(stall);
        resolve(
          settle<T>(xhr.status, parseBody(xhr.responseText), {
            write: true,
            path,
            ended: sessionEndOf(xhr.getResponseHeader(SESSION_END_HEADER)),
          }),
        );
      };
      xhr.onreadystatechange = () => {
        if (xhr.readyState === HEADERS_RECEIVED || xhr.readyState === LOADING) answering = true;
      };
      xhr.onerror = () => failed(true);
      xhr.onabort = () => failed(false);
      options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(form);
      watch();
    });
  }

  return {
    request,
    get: (path, query, options) => request('GET', path, { ...options, query }),
    post: (path, body, options) => request('POST', path, { ...options, body }),
    put: (path, body, options) => request('PUT', path, { ...options, body }),
    delete: (path, query, options) => request('DELETE', path, { ...options, query }),
    upload,
    configure(patch) {
      Object.assign(config, patch);
    },
  };
}

/** The client every API module uses; start-up wires its 401 handler. */
export const api = createApiClient();

/** A failed call as an Error, so react-query can show its error state. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: number;
  constructor(readonly failure: ApiFailure) {
    super(failure.data.message);
    this.name = 'ApiError';
    this.status = failure.status;
    this.code = failure.data.code;
  }
}

/** For query functions: the data of a success, or an ApiError to reject with. */
export function unwrap<T>(result: ApiResult<T>): T {
  if (result.ok) return result.data;
  throw new ApiError({ status: result.status, data: result.data });
}

/**
 * Whether a failed call (its result or ApiError) is answered by the sign-in-again dialog, so that
 * no failure toast stands beside it: the server's 请重新登录或刷新页面重试 would have the member
 * refresh and lose what the dialog keeps.
 */
export function answeredBySigningInAgain(failure: unknown): boolean {
  const data = failure instanceof ApiError ? failure.failure.data : (failure as Partial<ApiFailure> | undefined)?.data;
  return typeof data === 'object' && data !== null && signInAgainFailures.has(data);
}

/** The user-facing message of anything a query or mutation failed with. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.failure.data.message || fallback;
  return fallback;
}
