// The embedded backend answered in this process, without a socket: an undici Dispatcher whose
// requests go straight to the backend's Fastify router (`routing(req, res)`), on a request and
// a response object of their own. Everything of the gateway that talks to a backend (the reads
// of forward.ts, the writes through reply-from, the calls of backend-client.ts) dispatches
// through an undici Dispatcher, so the same code, with the same rules, serves a remote backend
// (a Pool over HTTP) and the embedded one (this): only the transport differs. Bodies stream
// both ways with backpressure, nothing is serialised to HTTP or parsed again. The peer address
// the backend sees is the client address the gateway forwards (X-Forwarded-For, which it
// always sets itself), so the embedded backend trusts no proxy header. Why the backend
// answered a failure on purpose (its `request.expectedFailure`) comes with the answer's
// headers as EXPECTED_FAILURE_HEADER, for the gateway's access line, which takes it out of
// what the client gets (gateway/forward.ts).
import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Readable, Writable } from 'node:stream';
import { Dispatcher, errors as undiciErrors } from 'undici';
import { EXPECTED_FAILURE } from '../backend/platform/access-log';

/**
 * The backend's reason for a failure on purpose, URI-encoded (a header carries latin1 only):
 * added by the dispatcher, never by the backend, and never sent on to the client.
 */
export const EXPECTED_FAILURE_HEADER = 'x-backend-expected-failure';

/** What the dispatcher needs of the backend: Fastify's router entry (`fastify.routing`), once ready. */
export interface InProcessServer {
  routing(req: IncomingMessage, res: ServerResponse): void;
}

type Handler = Dispatcher.DispatchHandler;

/** The new-style handler API, for a handler written in either style (undici's own request() uses the old one). */
function handlerOf(
  handler: Handler,
): Required<
  Pick<Handler, 'onRequestStart' | 'onResponseStart' | 'onResponseData' | 'onResponseEnd' | 'onResponseError'>
> {
  if (handler.onRequestStart) return handler as never;
  return {
    onRequestStart: (controller) => handler.onConnect?.((reason) => controller.abort(reason as Error)),
    onResponseStart: (controller, status, headers, statusText) => {
      const raw: Buffer[] = [];
      for (const name in headers) {
        const value = headers[name];
        for (const item of Array.isArray(value) ? value : [value])
          raw.push(Buffer.from(name, 'latin1'), Buffer.from(String(item), 'latin1'));
      }
      if (handler.onHeaders?.(status, raw, () => controller.resume(), statusText ?? '') === false) controller.pause();
    },
    onResponseData: (controller, chunk) => {
      if (handler.onData?.(chunk) === false) controller.pause();
    },
    onResponseEnd: () => handler.onComplete?.([]),
    onResponseError: (_controller, error) => handler.onError?.(error),
  };
}

/** The lower-cased headers a Node server would have parsed: repeated values joined, `undefined` left out. */
function incomingHeaders(given: Dispatcher.DispatchOptions['headers']): IncomingHttpHeaders {
  const headers: Record<string, string> = {};
  const add = (name: string, value: unknown) => {
    if (value === undefined || value === null) return;
    const key = name.toLowerCase();
    const text = Array.isArray(value) ? value.join(', ') : String(value);
    headers[key] = headers[key] === undefined ? text : `${headers[key]}${key === 'cookie' ? '; ' : ', '}${text}`;
  };
  if (Array.isArray(given)) {
    for (let i = 0; i + 1 < given.length; i += 2) add(String(given[i]), given[i + 1]);
  } else if (given && typeof (given as Partial<Iterable<unknown>>)[Symbol.iterator] === 'function') {
    for (const [name, value] of given as Iterable<[string, string | string[] | undefined]>) add(name, value);
  } else if (given) {
    for (const name in given as Record<string, unknown>) add(name, (given as Record<string, unknown>)[name]);
  }
  return headers;
}

/** The socket of an exchange: the peer address, and what the backend may call on a socket. */
class ExchangeSocket extends EventEmitter {
  readonly encrypted = false;
  destroyed = false;
  readonly remotePort = 0;

  constructor(
    readonly remoteAddress: string,
    private readonly onDestroy: () => void,
  ) {
    super();
  }

  destroy(): this {
    if (!this.destroyed) {
      this.destroyed = true;
      this.onDestroy();
    }
    return this;
  }

  end(): this {
    return this;
  }

  destroySoon(): void {}

  setTimeout(): this {
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }
}

/** The request as the backend reads it: an IncomingMessage's fields, its body from the dispatch's `body`. */
class ExchangeRequest extends Readable {
  readonly httpVersion = '1.1';
  readonly httpVersionMajor = 1;
  readonly httpVersionMinor = 1;
  readonly rawHeaders: string[] = [];
  complete = false;
  aborted = false;
  /** set by the backend (backend/platform/access-log.ts) */
  [EXPECTED_FAILURE]?: string;
  private source: Readable | undefined;

  constructor(
    readonly method: string,
    readonly url: string,
    readonly headers: IncomingHttpHeaders,
    readonly socket: ExchangeSocket,
    body: Dispatcher.DispatchOptions['body'],
  ) {
    super();
    if (body === undefined || body === null) {
      this.complete = true;
      this.push(null);
    } else if (typeof body === 'string' || body instanceof Uint8Array) {
      const bytes = typeof body === 'string' ? Buffer.from(body) : body;
      headers['content-length'] ??= String(bytes.length);
      this.complete = true;
      this.push(bytes);
      this.push(null);
    } else {
      const source = body instanceof Readable ? body : Readable.from(body as unknown as AsyncIterable<Uint8Array>);
      this.source = source;
      // As a Node server sees a body of unknown length.
      if (headers['content-length'] === undefined) headers['transfer-encoding'] = 'chunked';
      source.on('data', (chunk: Buffer) => {
        if (!this.push(chunk)) source.pause();
      });
      source.once('end', () => {
        this.complete = true;
        this.push(null);
      });
      source.once('error', (error) => this.destroy(error));
      source.pause();
    }
  }

  override _read(): void {
    this.source?.resume();
  }

  /** The answer went out without reading all of the body: stop taking it, as a server that closes does. */
  stopReading(error: () => Error): void {
    if (this.source && !this.complete) this.source.destroy(error());
  }

  /**
   * As Node's IncomingMessage: a request whose body failed or was cut short emits the error
   * only to a listener. A route that answered without reading the body (a refused upload)
   * listens no more, and an error nobody listens for would end the process.
   */
  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    callback(this.listenerCount('error') > 0 ? error : null);
  }

  get connection(): ExchangeSocket {
    return this.socket;
  }
}

/**
 * The response as the backend writes it: headers kept as given (no head is serialised), each
 * chunk handed to the dispatch handler, with its backpressure.
 */
class ExchangeResponse extends Writable {
  statusCode = 200;
  statusMessage = '';
  readonly sendDate = false;
  private fields: Record<string, number | string | readonly string[]> = Object.create(null);
  private started = false;
  private waiting: (() => void) | undefined;

  constructor(
    readonly req: ExchangeRequest,
    private readonly exchange: Exchange,
  ) {
    super();
  }

  get socket(): ExchangeSocket {
    return this.req.socket;
  }

  get headersSent(): boolean {
    return this.started;
  }

  setHeader(name: string, value: number | string | readonly string[]): this {
    this.fields[name.toLowerCase()] = value;
    return this;
  }

  getHeader(name: string): number | string | readonly string[] | undefined {
    return this.fields[name.toLowerCase()];
  }

  getHeaders(): Record<string, number | string | readonly string[]> {
    return { ...this.fields };
  }

  getHeaderNames(): string[] {
    return Object.keys(this.fields);
  }

  hasHeader(name: string): boolean {
    return name.toLowerCase() in this.fields;
  }

  removeHeader(name: string): void {
    delete this.fields[name.toLowerCase()];
  }

  writeHead(
    status: number,
    reason?: string | Record<string, number | string | readonly string[]>,
    headers?: Record<string, number | string | readonly string[]>,
  ): this {
    const fields = typeof reason === 'object' ? reason : headers;
    if (typeof reason === 'string') this.statusMessage = reason;
    this.statusCode = status;
    if (fields) for (const name in fields) this.setHeader(name, fields[name]!);
    this.start();
    return this;
  }

  flushHeaders(): void {
    this.start();
  }

  writeContinue(): void {}

  setTimeout(): this {
    return this;
  }

  addTrailers(): void {}

  /** Called by the handler's controller: take the next chunk. */
  resume(): void {
    const next = this.waiting;
    this.waiting = undefined;
    next?.();
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    const headers: IncomingHttpHeaders = {};
    for (const name in this.fields) {
      const value = this.fields[name]!;
      headers[name] = typeof value === 'number' ? String(value) : (value as string | string[]);
    }
    const reason = this.req[EXPECTED_FAILURE];
    if (reason !== undefined) headers[EXPECTED_FAILURE_HEADER] = encodeURIComponent(reason);
    this.exchange.respond(this.statusCode, headers, this.statusMessage);
  }

  private hasBody(): boolean {
    return this.req.method !== 'HEAD' && this.statusCode !== 204 && this.statusCode !== 304;
  }

  override _write(chunk: Buffer | string, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.start();
    if (!this.hasBody() || chunk.length === 0) return callback();
    if (this.exchange.data(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk)) callback();
    else this.waiting = callback;
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.start();
    this.exchange.end();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.waiting = undefined;
    if (!this.exchange.settled)
      this.exchange.fail(error ?? new undiciErrors.SocketError('the backend closed the exchange before it answered'));
    // The failure goes to the gateway's handler; an 'error' event would go nowhere.
    callback();
  }
}

/** One request and its answer: the handler's controller, the time limits, the end. */
class Exchange implements Dispatcher.DispatchController {
  aborted = false;
  paused = false;
  reason: Error | null = null;
  private done = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly headersTimeout: number;
  private readonly bodyTimeout: number;
  readonly request: ExchangeRequest;
  readonly response: ExchangeResponse;

  constructor(
    options: Dispatcher.DispatchOptions,
    private readonly handler: ReturnType<typeof handlerOf>,
  ) {
    const headers = incomingHeaders(options.headers);
    const forwarded = headers['x-forwarded-for'];
    const peer = typeof forwarded === 'string' && forwarded !== '' ? forwarded.split(',', 1)[0]!.trim() : '127.0.0.1';
    const socket = new ExchangeSocket(peer, () =>
      this.abort(new undiciErrors.SocketError('the backend closed the exchange')),
    );
    this.request = new ExchangeRequest(options.method, options.path, headers, socket, options.body);
    this.response = new ExchangeResponse(this.request, this);
    this.headersTimeout = options.headersTimeout ?? 300_000;
    this.bodyTimeout = options.bodyTimeout ?? 300_000;
  }

  /** Answered, failed or aborted: nothing more goes to the handler. */
  get settled(): boolean {
    return this.done;
  }

  start(server: InProcessServer): void {
    this.handler.onRequestStart(this, {});
    if (this.done) return;
    this.arm(this.headersTimeout, () => new undiciErrors.HeadersTimeoutError());
    server.routing(this.request as unknown as IncomingMessage, this.response as unknown as ServerResponse);
  }

  private arm(ms: number, error: () => Error): void {
    clearTimeout(this.timer);
    if (ms <= 0) return;
    this.timer = setTimeout(() => this.abort(error()), ms);
    this.timer.unref();
  }

  respond(status: number, headers: IncomingHttpHeaders, statusText: string): void {
    if (this.done) return;
    this.arm(this.bodyTimeout, () => new undiciErrors.BodyTimeoutError());
    this.handler.onResponseStart(this, status, headers, statusText);
  }

  /** A chunk of the answer; false when the handler paused (the response waits for resume). */
  data(chunk: Buffer): boolean {
    if (this.done) return true;
    this.arm(this.bodyTimeout, () => new undiciErrors.BodyTimeoutError());
    this.handler.onResponseData(this, chunk);
    return !this.paused;
  }

  end(): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    this.request.stopReading(
      () => new undiciErrors.RequestAbortedError('the backend answered before reading the whole body'),
    );
    this.handler.onResponseEnd(this, {});
  }

  fail(error: Error): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    this.request.stopReading(() => error);
    this.handler.onResponseError(this, error);
  }

  abort(reason: Error): void {
    if (this.aborted || this.done) return;
    this.aborted = true;
    this.reason = reason;
    // The backend stops: its reads of the body fail, what it writes goes nowhere.
    this.request.aborted = true;
    this.request.destroy();
    this.fail(reason);
    this.response.destroy();
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.response.resume();
  }
}

export class InProcessDispatcher extends Dispatcher {
  private closed = false;

  constructor(private readonly server: InProcessServer) {
    super();
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Handler): boolean {
    const exchange = new Exchange(options, handlerOf(handler));
    if (this.closed) {
      exchange.fail(new undiciErrors.ClientClosedError());
      return false;
    }
    try {
      exchange.start(this.server);
    } catch (error) {
      exchange.fail(error as Error);
    }
    return true;
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    this.closed = true;
    if (callback) return void queueMicrotask(callback);
    return Promise.resolve();
  }

  override destroy(): Promise<void>;
  override destroy(error: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(error: Error | null, callback: () => void): void;
  override destroy(a?: Error | null | (() => void), b?: () => void): Promise<void> | void {
    this.closed = true;
    const callback = typeof a === 'function' ? a : b;
    if (callback) return void queueMicrotask(callback);
    return Promise.resolve();
  }
}
