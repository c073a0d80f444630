// The proxy to the backend: /api/v1/* and the non-API routes of docs/moredoc.md §9. Reads (GET,
// HEAD) go the light way of gateway/forward.ts; writes through @fastify/reply-from, whose
// request bodies stream and whose JSON answers may carry a token. The cookie becomes a Bearer
// header on the way in, a token in a JSON answer becomes the cookie on the way out.
import fp from 'fastify-plugin';
import httpProxy from '@fastify/http-proxy';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import { errors as undiciErrors } from 'undici';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { WatchedBody, isBodyTimeout } from '../body-timeout';
import { GatewayError, MESSAGES } from '../errors';
import { backendRequestHeaders, bearerFromCookie, clientResponseHeaders, forwardRead, sendFault } from '../forward';
import { SAFE_METHODS, canonicalUrl, isJsonType, isUnder, pathOf } from '../http';
import type { ViewFiles } from '../../shared/view-files';
import { serveViewFile } from '../view-files';
import { recordUpstreamFailure } from './backend-client';

export const API_PREFIX = '/api/v1';
/** Non-API paths the backend serves (docs/moredoc.md §9), by prefix; GET/HEAD only. */
export const BACKEND_PREFIXES = ['/view/page', '/view/cover', '/download', '/uploads', '/sitemap'];
export const BACKEND_FILES = ['/sitemap.xml', '/favicon.ico'];
export const LOGOUT_PATH = '/api/v1/user/logout';
/** The uploads: their bodies are multipart forms (the file in the field `file`). */
export const UPLOAD_PREFIX = `${API_PREFIX}/upload`;
/** The payment providers' notifications: whatever the provider sends (Alipay a form, WeChat Pay JSON). */
export const PAYMENT_NOTIFY_PREFIX = `${API_PREFIX}/pay/notify`;
export { SIGN_IN_PATHS } from '../../shared/sign-in-paths';

/**
 * An API call's URL in the form the backend routes it (gateway/http.ts canonicalUrl), any
 * other URL unchanged. The gateway routes, counts, checks and forwards API calls in this
 * form, so that `/api/v1/user/%6cogin` or `/api/v1/user/./login` is the login everywhere.
 */
export function canonicalApiUrl(url: string): string {
  const canonical = canonicalUrl(url);
  return canonical !== url && isUnder(pathOf(canonical), API_PREFIX) ? canonical : url;
}

// A token answer is a few kilobytes, an error answer less; beyond this the answer is passed on untouched.
const MAX_INSPECTED_BODY = 4 * 1024 * 1024;

/** State-changing API calls are the ones that can hand out a token (login, register, OAuth). */
function inspectsAnswer(request: FastifyRequest): boolean {
  return !SAFE_METHODS.has(request.method) && isUnder(pathOf(request.url), API_PREFIX);
}

function isLogout(request: FastifyRequest): boolean {
  return request.method === 'DELETE' && pathOf(request.url) === LOGOUT_PATH;
}

function rewriteRequestHeaders(request: FastifyRequest): IncomingHttpHeaders {
  return backendRequestHeaders(request, inspectsAnswer(request));
}

function rewriteResponseHeaders(headers: IncomingHttpHeaders, request: FastifyRequest): IncomingHttpHeaders {
  return clientResponseHeaders(headers, request);
}

function decode(body: Buffer, encoding: unknown): Buffer {
  switch (String(encoding ?? 'identity').toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(body);
    case 'br':
      return brotliDecompressSync(body);
    case 'deflate':
      return inflateSync(body);
    default:
      return body;
  }
}

/**
 * The whole of a JSON answer, or undefined when it has been answered already: streamed on past
 * MAX_INSPECTED_BODY, or a 502 (504) when the backend broke it off, which a client cannot read.
 */
async function wholeAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  stream: Readable,
): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      const buffer = chunk as Buffer;
      size += buffer.length;
      chunks.push(buffer);
      if (size > MAX_INSPECTED_BODY) {
        request.log.warn({ size }, 'answer too large to hold whole; passed on');
        reply.send(
          Readable.from(
            (async function* rest() {
              yield* chunks;
              yield* stream;
            })(),
          ),
        );
        return undefined;
      }
    }
  } catch (error) {
    sendFault(reply, recordUpstreamFailure(request, error));
    return undefined;
  }
  return Buffer.concat(chunks);
}

/** Buffers a 200 JSON answer; if it carries `token`, moves it into the cookie. */
async function moveTokenToCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  stream: Readable,
  headers: IncomingHttpHeaders,
) {
  const whole = await wholeAnswer(request, reply, stream);
  if (whole === undefined) return;

  let raw: Buffer;
  let body: unknown;
  try {
    raw = decode(whole, headers['content-encoding']);
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    // Not what it claims to be: pass the bytes on as they came.
    reply.send(whole);
    return;
  }
  reply.removeHeader('content-encoding');
  reply.removeHeader('content-length');
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !('token' in body)) {
    reply.send(raw);
    return;
  }
  const { token, ...rest } = body as Record<string, unknown>;
  try {
    if (typeof token === 'string' && token !== '') reply.setTokenCookie(token);
    else reply.header('cache-control', 'no-store');
  } catch (error) {
    request.log.error({ err: error, tokenLength: typeof token === 'string' ? token.length : 0 }, 'token not stored');
    sendFault(reply, error instanceof GatewayError ? error : new GatewayError(502, MESSAGES.tokenTooLarge));
    return;
  }
  reply.send(rest);
}

function onResponse(
  request: FastifyRequest,
  reply: FastifyReply,
  res: { statusCode: number; headers: IncomingHttpHeaders; stream: Readable },
) {
  if (isLogout(request) || (res.statusCode === 401 && bearerFromCookie(request))) reply.clearTokenCookie();
  if (inspectsAnswer(request) && isJsonType(res.headers['content-type'])) {
    if (res.statusCode !== 200) {
      // An error answer too is held whole: one broken off is a 502, not a cut the SPA takes for no answer.
      void wholeAnswer(request, reply, res.stream).then((whole) => {
        if (whole) reply.send(whole);
      });
      return;
    }
    moveTokenToCookie(request, reply, res.stream, res.headers).catch((error: unknown) => {
      request.log.error({ err: error }, 'token answer failed');
      sendFault(reply, new GatewayError(502, MESSAGES.badGateway));
    });
    return;
  }
  reply.send(res.stream);
}

/** How long a connection whose body was cut short stays half-closed for the client to stop sending. */
const LINGER_MS = 2000;

/**
 * The backend may answer an upload before it has read the body (too large, not allowed) and
 * close its connection. undici then destroys the body it was sending: were that the client's
 * request itself, its socket would go with it and the client would get no answer at all. So
 * the body travels through a stream of its own, and the client's socket, once the answer is
 * out, closes the way the backend's did: half-closed first, what still arrives discarded, so
 * the client reads the answer instead of a reset connection (a lingering close). That stream
 * also watches the body: one that stalls fails it (body-timeout.ts), and onError answers 408.
 * A client that leaves before its body is all sent (an upload cut off) ends that stream at once:
 * pipe() does not pass the end on, and the backend kept the upload (its open temp file, its
 * part of the body, the connection) until the body timeout, 30 s of every upload abandoned.
 */
const detachBody = (bodyTimeoutMs: number) =>
  function detachBody(request: FastifyRequest, _reply: FastifyReply, done: () => void): void {
    if (request.body instanceof Readable) {
      const body = new WatchedBody(bodyTimeoutMs, isUnder(pathOf(request.url), UPLOAD_PREFIX));
      request.raw.pipe(body);
      request.raw.once('close', () => {
        if (!request.raw.complete && !body.destroyed) body.destroy(new undiciErrors.RequestAbortedError());
      });
      request.body = body;
      const socket = request.raw.socket;
      socket.destroySoon = function lingeringClose(this: typeof socket) {
        this.end();
        const timer = setTimeout(() => this.destroy(), LINGER_MS);
        timer.unref();
        this.once('close', () => clearTimeout(timer));
      };
    }
    done();
  };

function onError(reply: FastifyReply, { error }: { error: Error }) {
  const request = reply.request;
  if (isLogout(request)) reply.clearTokenCookie();
  if (isBodyTimeout(error)) {
    // The client's fault, not the backend's: what it still sends is not waited for.
    reply.header('connection', 'close');
    sendFault(reply, new GatewayError(408, MESSAGES.bodyTimeout));
    return;
  }
  const fault = recordUpstreamFailure(request, error);
  // reply-from has logged the error at warn, and the access line says what it became.
  request.log.debug({ err: error, status: fault.statusCode }, 'upstream failed');
  sendFault(reply, fault);
}

export interface UpstreamOptions {
  timeoutMs: number;
  /** how long a request body may stall (BODY_TIMEOUT_MS): all of it, or an upload between two chunks */
  bodyTimeoutMs: number;
  /** the embedded backend's page and cover answers in this process (gateway/view-files.ts) */
  viewFiles?: ViewFiles<Readable> | undefined;
}

/** The routes whose answers the embedded backend can give in process. */
export const VIEW_FILE_PREFIXES = ['/view/page', '/view/cover'];

export default fp<UpstreamOptions>(
  async function upstream(fastify, opts) {
    const { origin, pool } = fastify.backend;
    const replyOptions = {
      rewriteRequestHeaders,
      rewriteHeaders: rewriteResponseHeaders,
      onResponse,
      onError,
      timeout: opts.timeoutMs,
      // No retries: neither on errors nor on 503 (reply-from retries GETs on 503 by default).
      retryDelay: () => null,
    };
    const common = {
      upstream: origin,
      undici: pool,
      disableRequestLogging: true,
      // reply-from's `as any` typings do not know our narrower hook signatures
      replyOptions: replyOptions as never,
    };

    // Writes (and CORS preflights) through reply-from. Their bodies are forwarded as the
    // bytes that came: Fastify's own parsers (JSON, text/plain) go, so that only
    // @fastify/http-proxy's pass-through ones remain. A decoded and re-encoded text/plain body
    // kept its original Content-Length, and undici refused the mismatch (a 502).
    await fastify.register(async function writes(scope) {
      scope.removeAllContentTypeParsers();
      await scope.register(httpProxy, {
        ...common,
        prefix: API_PREFIX,
        rewritePrefix: API_PREFIX,
        preHandler: detachBody(opts.bodyTimeoutMs),
        httpMethods: ['DELETE', 'OPTIONS', 'PATCH', 'POST', 'PUT'],
      });
    });

    const forward = { pool, timeoutMs: opts.timeoutMs, apiPrefix: API_PREFIX };
    const read = (request: FastifyRequest, reply: FastifyReply) => forwardRead(request, reply, forward);
    const { viewFiles } = opts;
    const viewFile =
      viewFiles &&
      ((request: FastifyRequest, reply: FastifyReply) =>
        serveViewFile(request, reply, viewFiles, () => read(request, reply)));
    const under = (prefix: string) => [prefix, `${prefix}/`, `${prefix}/*`];
    for (const url of [...under(API_PREFIX), ...BACKEND_PREFIXES.flatMap(under), ...BACKEND_FILES]) {
      const handler = viewFile && VIEW_FILE_PREFIXES.some((prefix) => isUnder(url, prefix)) ? viewFile : read;
      fastify.route({ method: ['GET', 'HEAD'], url, handler });
    }
  },
  { name: 'upstream', dependencies: ['backend-client', 'token-cookie'] },
);
