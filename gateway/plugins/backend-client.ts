// One connection pool to the backend, shared by the proxy and by the gateway's own calls
// (start data, permissions, readiness). TLS is verified; nothing is retried.
import fp from 'fastify-plugin';
import { Pool } from 'undici';
import { GatewayError, MESSAGES } from '../errors';

export interface BackendCallOptions {
  token?: string | undefined;
  clientIp?: string;
  requestId?: string;
  timeoutMs?: number;
}

export interface BackendAnswer<T> {
  status: number;
  /** parsed JSON, or undefined when the answer was not JSON */
  body: T | undefined;
}

export interface BackendClient {
  readonly origin: string;
  readonly pool: Pool;
  readonly timeoutMs: number;
  getJson<T>(path: string, options?: BackendCallOptions): Promise<BackendAnswer<T>>;
}

declare module 'fastify' {
  interface FastifyInstance {
    backend: BackendClient;
  }
}

export interface BackendClientOptions {
  backendUrl: string;
  timeoutMs: number;
}

const TIMEOUT_CODES = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'FST_REPLY_FROM_GATEWAY_TIMEOUT',
]);

/** Upstream faults: a timeout is 504, anything else (refused, reset, TLS, DNS) is 502. */
export function upstreamFault(error: unknown): GatewayError {
  let code: unknown = (error as { code?: unknown })?.code;
  const cause = (error as { cause?: { code?: unknown } })?.cause;
  if (!TIMEOUT_CODES.has(String(code)) && cause?.code !== undefined) code = cause.code;
  const timedOut = TIMEOUT_CODES.has(String(code)) || (error as Error)?.name === 'TimeoutError';
  return timedOut
    ? new GatewayError(504, MESSAGES.gatewayTimeout, { cause: error })
    : new GatewayError(502, MESSAGES.badGateway, { cause: error });
}

export default fp<BackendClientOptions>(
  async function backendClient(fastify, opts) {
    const origin = new URL(opts.backendUrl).origin;
    const pool = new Pool(origin, {
      connections: 128,
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
      keepAliveTimeout: 4_000,
      connect: { rejectUnauthorized: true },
    });

    async function getJson<T>(path: string, options: BackendCallOptions = {}): Promise<BackendAnswer<T>> {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      if (options.clientIp) {
        headers['x-forwarded-for'] = options.clientIp;
        headers['x-real-ip'] = options.clientIp;
      }
      if (options.requestId) headers['x-request-id'] = options.requestId;
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
        return { status: res.statusCode, body };
      } catch (error) {
        throw upstreamFault(error);
      }
    }

    fastify.decorate('backend', { origin, pool, timeoutMs: opts.timeoutMs, getJson });
    fastify.addHook('onClose', async () => {
      await pool.close();
    });
  },
  { name: 'backend-client' },
);
