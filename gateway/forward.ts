// Reads (GET, HEAD) forwarded to the backend on undici's dispatch API: no URL objects, no
// stream for an answer that arrives whole, one header object built per request. Writes go
// through reply-from (plugins/upstream.ts), which streams request bodies and moves tokens; both
// ways apply the header rules below. A CPU profile under load put reply-from's per-request
// work (URL parsing and checks, stream plumbing, header copies) at a third of the gateway's
// time for a proxied GET; docs/performance.md §1.1 has the figures.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import { errors as undiciErrors, type Dispatcher } from 'undici';
import { GatewayError, MESSAGES, errorBody } from './errors';
import { SAFE_METHODS, isJsonType, isUnder, pathOf } from './http';
import { EXPECTED_FAILURE_HEADER } from './in-process-dispatcher';
import { recordUpstreamFailure } from './plugins/backend-client';
import { AS_VISITOR_HEADER, recordsTheCaller } from '../shared/writes';

/** Hop-by-hop headers (RFC 9110 §7.6.1) and the ones undici sets or refuses itself. */
const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'http2-settings',
  'host',
]);

/**
 * Headers a client could use to pass itself off as someone else to the backend; the SPA's
 * AS_VISITOR_HEADER, which the gateway reads (bearerFromCookie) and a MOREDOC backend has no use
 * for; and Expect, which undici refuses (UND_ERR_NOT_SUPPORTED): Node has already answered
 * `100 Continue` to the client, and the body is streamed to the backend as it comes.
 */
const DROPPED_REQUEST_HEADERS: ReadonlySet<string> = new Set([
  'cookie',
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-real-ip',
  'x-request-id',
  AS_VISITOR_HEADER,
  'expect',
]);

/** Characters Node refuses in a header value; an upstream may still send them (http-proxy strips them too). */
const INVALID_HEADER_VALUE = /[^\t\x20-\x7e\x80-\xff]/g;

/** The header names a `Connection` header lists: hop-by-hop as well (RFC 9110 §7.6.1). */
function connectionOptions(value: string | string[] | undefined): string[] {
  // What nearly every client and server sends, each request.
  if (value === undefined || value === 'keep-alive' || value === 'close') return [];
  return (Array.isArray(value) ? value.join(',') : value)
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
}

/**
 * Does the client's cookie stand in for an Authorization header on this request? Not on a call that records under
 * its caller made from another site (a link to a search), or that the SPA makes for a page opened from another site
 * (AS_VISITOR_HEADER): that goes as a visitor's.
 */
export function bearerFromCookie(request: FastifyRequest): boolean {
  return (
    request.headers.authorization === undefined &&
    request.sessionToken !== undefined &&
    !(
      recordsTheCaller(request.method, pathOf(request.url)) &&
      (request.fromAnotherSite || request.headers[AS_VISITOR_HEADER] !== undefined)
    )
  );
}

/** The Authorization header the backend gets (see backendRequestHeaders). */
export function backendAuthorization(request: FastifyRequest): string | undefined {
  if (bearerFromCookie(request)) return `Bearer ${request.sessionToken}`;
  const own = request.headers.authorization;
  return own === undefined || connectionOptions(request.headers.connection).includes('authorization') ? undefined : own;
}

/**
 * The headers the backend gets: the client's, minus hop-by-hop ones, the cookie and whatever
 * could impersonate a client or a proxy; plus the client address the gateway trusts (MOREDOC
 * takes the first X-Forwarded-For entry, so it is replaced, not appended to), the request id,
 * and the token cookie as a Bearer header unless the client sent its own Authorization.
 * Headers named in `Connection` go before the gateway's own are added, so a client cannot
 * strip them. `identity`: ask for an uncompressed answer (the gateway reads it).
 */
export function backendRequestHeaders(request: FastifyRequest, identity = false): Record<string, string | string[]> {
  const incoming = request.headers;
  const listed = connectionOptions(incoming.connection);
  const out: Record<string, string | string[]> = {};
  for (const name in incoming) {
    const value = incoming[name];
    if (
      value === undefined ||
      HOP_BY_HOP.has(name) ||
      DROPPED_REQUEST_HEADERS.has(name) ||
      (listed.length > 0 && listed.includes(name))
    )
      continue;
    out[name] = value;
  }
  out['x-forwarded-for'] = request.ip;
  out['x-real-ip'] = request.ip;
  out['x-request-id'] = request.id;
  const authorization = backendAuthorization(request);
  if (authorization !== undefined) out.authorization = authorization;
  if (identity) out['accept-encoding'] = 'identity';
  return out;
}

/**
 * The backend's answer headers as the client gets them: hop-by-hop ones dropped (Node writes
 * its own), CORS headers dropped (one origin: the backend's CORS answers must not open our
 * API to other sites), values Node would refuse cleaned. The embedded backend's reason for a
 * failure on purpose (in-process-dispatcher.ts) goes to the request's access line, not on.
 */
export function clientResponseHeaders(headers: IncomingHttpHeaders, request: FastifyRequest): IncomingHttpHeaders {
  const listed = connectionOptions(headers.connection);
  const out: IncomingHttpHeaders = {};
  for (const name in headers) {
    const value = headers[name];
    if (name === EXPECTED_FAILURE_HEADER) {
      if (typeof value === 'string') request.expectedFailure = decodedReason(value);
      continue;
    }
    if (
      value === undefined ||
      HOP_BY_HOP.has(name) ||
      name.startsWith('access-control-') ||
      (listed.length > 0 && listed.includes(name))
    )
      continue;
    if (typeof value === 'string')
      out[name] = INVALID_HEADER_VALUE.test(value) ? value.replace(INVALID_HEADER_VALUE, '') : value;
    else out[name] = value.map((item) => item.replace(INVALID_HEADER_VALUE, ''));
    INVALID_HEADER_VALUE.lastIndex = 0;
  }
  return out;
}

function decodedReason(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** A backend fault as the JSON answer, with the headers of a half-set answer cleared. */
export function sendFault(reply: FastifyReply, fault: GatewayError): void {
  if (reply.sent) return;
  for (const name of ['content-length', 'content-encoding', 'etag', 'last-modified', 'content-disposition'])
    reply.removeHeader(name);
  reply
    .code(fault.statusCode)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(errorBody(fault.statusCode, fault.message));
}

/**
 * The path the backend gets, or undefined when it would leave the route's prefix: one that
 * decodes to a `..` segment (the rule @fastify/reply-from applied), or that does not decode.
 */
export function forwardablePath(url: string): string | undefined {
  const path = pathOf(url);
  let decoded = path;
  if (path.includes('%')) {
    try {
      decoded = decodeURIComponent(path);
    } catch {
      return undefined;
    }
  }
  if (decoded.includes('..') && (decoded === '..' || decoded.includes('/..') || decoded.includes('../')))
    return undefined;
  return url;
}

export interface ForwardOptions {
  pool: Dispatcher;
  timeoutMs: number;
  /** The prefix of the API, whose JSON answers are held whole (WHOLE_JSON_BYTES); files stream. */
  apiPrefix: string;
}

/**
 * An API call's JSON answer up to this size is held until it is whole, so that one the backend
 * cuts short (its connection closed mid-body) is answered 502 rather than cut off: half a JSON
 * body is no answer the SPA can read, and it took the cut for a network gone (无法连接服务器).
 */
const WHOLE_JSON_BYTES = 4 * 1024 * 1024;

/**
 * One read forwarded. An answer that arrives whole with its headers (the usual case for JSON
 * and small files: one read from the socket) is sent as one buffer, and so is an API call's
 * JSON answer up to WHOLE_JSON_BYTES however it arrives; any other streams as it comes, with
 * backpressure from the client's socket. Once a streamed answer has started, it is the
 * backend's: a failure after that cuts the client off, as with any streaming proxy; before it,
 * the client gets a 502 or 504 JSON answer.
 */
class ReadForwarder implements Dispatcher.DispatchHandler {
  private status = 0;
  private headers: IncomingHttpHeaders | undefined;
  private expectedLength = -1;
  private holdsWhole = false;
  private received = 0;
  private chunks: Buffer[] = [];
  private stream: Readable | undefined;
  private finished = false;

  constructor(
    private readonly request: FastifyRequest,
    private readonly reply: FastifyReply,
    private readonly apiCall: boolean,
  ) {}

  onRequestStart(): void {}

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    if (statusCode < 200) return;
    // The client left while the backend was answering: free the connection.
    if (this.request.raw.destroyed) {
      this.finished = true;
      controller.abort(new undiciErrors.RequestAbortedError());
      return;
    }
    this.status = statusCode;
    this.headers = headers;
    const length = headers['content-length'];
    this.expectedLength = typeof length === 'string' && length !== '' ? Number(length) : -1;
    this.holdsWhole = this.apiCall && isJsonType(headers['content-type']) && this.expectedLength <= WHOLE_JSON_BYTES;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.finished) return;
    this.received += chunk.length;
    if (this.stream) {
      if (!this.stream.push(chunk)) controller.pause();
      return;
    }
    this.chunks.push(chunk);
    if (this.holdsWhole && this.received <= WHOLE_JSON_BYTES) return;
    // Not all there yet: start sending what came.
    if (this.expectedLength < 0 || this.received < this.expectedLength) this.startStream(controller);
  }

  onResponseEnd(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.stream) {
      this.stream.push(null);
      return;
    }
    this.sendHead();
    const [first] = this.chunks;
    this.reply.send(this.chunks.length > 1 ? Buffer.concat(this.chunks) : first);
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    // Done already, or the gateway itself aborted because the client left.
    if (this.finished) return;
    this.finished = true;
    const fault = recordUpstreamFailure(this.request, error);
    if (this.stream) {
      this.stream.destroy(fault);
      return;
    }
    // A client that gave up needs no answer; the access log has the abort.
    if (this.request.raw.destroyed) return;
    sendFault(this.reply, fault);
  }

  private sendHead(): void {
    const reply = this.reply;
    reply.code(this.status).headers(clientResponseHeaders(this.headers!, this.request));
    if (this.status === 401 && bearerFromCookie(this.request)) reply.clearTokenCookie();
  }

  private startStream(controller: Dispatcher.DispatchController): void {
    const stream = new Readable({
      read: () => controller.resume(),
      destroy: (error, callback) => {
        // The client went away (or the backend failed): stop reading the backend.
        if (!this.finished) {
          this.finished = true;
          controller.abort(error ?? new undiciErrors.RequestAbortedError());
        }
        callback(error);
      },
    });
    this.stream = stream;
    for (const chunk of this.chunks) stream.push(chunk);
    this.chunks = [];
    this.sendHead();
    this.reply.send(stream);
  }
}

/** Forwards a GET or HEAD to the backend as it is (path and query unchanged) and sends its answer. */
export function forwardRead(request: FastifyRequest, reply: FastifyReply, options: ForwardOptions): FastifyReply {
  const path = forwardablePath(request.url);
  if (path === undefined)
    return reply.code(400).header('cache-control', 'no-store').send(errorBody(400, MESSAGES.badRequest));
  if (!SAFE_METHODS.has(request.method)) throw new Error(`forwardRead is for reads, not ${request.method}`);
  try {
    options.pool.dispatch(
      {
        path,
        method: request.method as Dispatcher.HttpMethod,
        headers: backendRequestHeaders(request),
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      },
      new ReadForwarder(request, reply, isUnder(pathOf(path), options.apiPrefix)),
    );
  } catch (error) {
    // undici refused the request itself (a header or path it does not take).
    if (error instanceof undiciErrors.InvalidArgumentError)
      return reply.code(400).header('cache-control', 'no-store').send(errorBody(400, MESSAGES.badRequest));
    throw new GatewayError(502, MESSAGES.badGateway, { cause: error });
  }
  return reply;
}
