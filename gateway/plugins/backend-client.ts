// One way to the backend, shared by the proxy and by the gateway's own calls (start data,
// permissions, readiness): a connection pool to a remote backend (BACKEND_URL; TLS verified),
// or the embedded backend's dispatcher in this process (gateway/in-process-dispatcher.ts).
// Nothing is retried. A call that gets no answer is recorded on the request it was made for
// (`request.upstreamFailure`).
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { Pool, type Dispatcher } from 'undici';
import { GatewayError, MESSAGES } from '../errors';

export interface BackendCallOptions {
  token?: string | undefined;
  /** the request the call is made for: its client address and id go along, a failure is recorded on it */
  request?: FastifyRequest;
  timeoutMs?: number;
}

export interface BackendAnswer<T> {
  status: number;
  /** parsed JSON, or undefined when the answer was not JSON */
  body: T | undefined;
  /** the length of the body as read (its text), for the bound of what keeps it */
  bytes?: number;
}

export interface BackendClient {
  readonly origin: string;
  /** a Pool over HTTP, or the embedded backend in this process */
  readonly pool: Dispatcher;
  readonly timeoutMs: number;
  getJson<T>(path: string, options?: BackendCallOptions): Promise<BackendAnswer<T>>;
}

/** Why a call to the backend got no answer: timeout, refused, reset, aborted (the client left first) or other. */
export type UpstreamErrorKind = 'timeout' | 'refused' | 'reset' | 'aborted' | 'other';

export interface UpstreamFailure {
  kind: UpstreamErrorKind;
  /** what the gateway answers for it: 504 for a timeout, else 502 */
  statusCode: 502 | 504;
  /** the error's code and message, or its cause's (undici wraps socket and TLS errors), for the log */
  reason: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    backend: BackendClient;
  }
  interface FastifyRequest {
    /** the first backend call made for this request that got no answer, if any */
    upstreamFailure?: UpstreamFailure;
  }
}

export interface BackendClientOptions {
  /** a remote backend's origin; unused with `dispatcher` */
  backendUrl: string | undefined;
  /** the embedded backend in this process (gateway/embedded-backend.ts) */
  dispatcher?: Dispatcher | undefined;
  timeoutMs: number;
}

/** The origin named for the embedded backend, which has none (reply-from wants one). */
export const IN_PROCESS_ORIGIN = 'http://embedded-backend';

const ERROR_KINDS: ReadonlyArray<[UpstreamErrorKind, ReadonlySet<string>]> = [
  [
    'timeout',
    new Set([
      'UND_ERR_HEADERS_TIMEOUT',
      'UND_ERR_BODY_TIMEOUT',
      'UND_ERR_CONNECT_TIMEOUT',
      'FST_REPLY_FROM_GATEWAY_TIMEOUT',
      'ETIMEDOUT',
    ]),
  ],
  ['refused', new Set(['ECONNREFUSED'])],
  ['reset', new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'])],
  ['aborted', new Set(['UND_ERR_ABORTED', 'ABORT_ERR'])],
];

/** The kind of an undici or reply-from failure, from its code or its cause's (undici wraps socket errors). */
export function upstreamErrorKind(error: unknown): UpstreamErrorKind {
  const code = String((error as { code?: unknown })?.code ?? '');
  const causeCode = String((error as { cause?: { code?: unknown } })?.cause?.code ?? '');
  const name = (error as Error)?.name;
  if (name === 'TimeoutError') return 'timeout';
  for (const [kind, codes] of ERROR_KINDS) if (codes.has(code) || codes.has(causeCode)) return kind;
  return name === 'AbortError' ? 'aborted' : 'other';
}

/** `CODE: message` of the error's innermost cause. */
function reasonOf(error: unknown): string {
  let inner = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined;
  while (inner?.cause !== undefined && inner.cause !== null && typeof inner.cause === 'object')
    inner = inner.cause as typeof inner;
  const code = typeof inner?.code === 'string' ? `${inner.code}: ` : '';
  return `${code}${typeof inner?.message === 'string' ? inner.message : String(error)}`;
}

export function upstreamFailureOf(error: unknown): UpstreamFailure {
  const kind = upstreamErrorKind(error);
  return { kind, statusCode: kind === 'timeout' ? 504 : 502, reason: reasonOf(error) };
}

/** Upstream faults: a timeout is 504, anything else (refused, reset, TLS, DNS) is 502. */
export function upstreamFault(error: unknown): GatewayError {
  return upstreamFailureOf(error).statusCode === 504
    ? new GatewayError(504, MESSAGES.gatewayTimeout, { cause: error })
    : new GatewayError(502, MESSAGES.badGateway, { cause: error });
}

/** Records the failure on the request (the first one wins) and gives the error to answer with. */
export function recordUpstreamFailure(request: FastifyRequest, error: unknown): GatewayError {
  request.upstreamFailure ??= upstreamFailureOf(error);
  return upstreamFault(error);
}

export default fp<BackendClientOptions>(
  async function backendClient(fastify, opts) {
    if (!opts.dispatcher && !opts.backendUrl)
      throw new Error('backend-client: a backend URL or an in-process backend is needed');
    const origin = opts.dispatcher ? IN_PROCESS_ORIGIN : new URL(opts.backendUrl!).origin;
    const pool =
      opts.dispatcher ??
      new Pool(origin, {
        connections: 128,
        headersTimeout: opts.timeoutMs,
        bodyTimeout: opts.timeoutMs,
        keepAliveTimeout: 4_000,
        connect: { rejectUnauthorized: true },
      });

    async function getJson<T>(path: string, options: BackendCallOptions = {}): Promise<BackendAnswer<T>> {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      const request = options.request;
      if (request) {
        headers['x-forwarded-for'] = request.ip;
        headers['x-real-ip'] = request.ip;
        headers['x-request-id'] = request.id;
        // What the backend records of its caller (a search the first screen makes: the admin's
        // search records) names the visitor's browser, as the SPA's own call would.
        const userAgent = request.headers['user-agent'];
        if (userAgent) headers['user-agent'] = userAgent;
      }
      const timeout = options.timeoutMs ?? opts.timeoutMs;
      try {
        const res = await pool.request({ path, method: 'GET', headers, headersTimeout: timeout, bodyTimeout: timeout });
        const text = await res.body.text();
        const type = String(res.headers['content-type'] ?? '');
        let body: T | undefined;
        if (type.includes('json')) {
          try {
            body = JSON.parse(text) as T;
          } catch {
            body = undefined;
          }
        }
        return { status: res.statusCode, body, bytes: text.length };
      } catch (error) {
        throw request ? recordUpstreamFailure(request, error) : upstreamFault(error);
      }
    }

    fastify.decorate('backend', { origin, pool, timeoutMs: opts.timeoutMs, getJson });
    fastify.decorateRequest('upstreamFailure', undefined);
    fastify.addHook('onClose', async () => {
      await pool.close();
    });
  },
  { name: 'backend-client' },
);
