// Test helpers for the gateway: a stub upstream on port 0 that records what it receives, the
// gateway itself on port 0 pointed at it, and a plain HTTP client that neither follows
// redirects nor decompresses (we assert on exactly what the browser would get).
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Agent, request as undiciRequest } from 'undici';
import { afterAll, beforeAll, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildGateway, type BuildOptions, type GatewayBuildConfig } from '../../gateway/app';
import { DEFAULTS } from '../../gateway/config';
import type { StartData } from '../../shared/types/start-data';
import { parseHtml } from '../helpers/xml';

export const FIXTURE_DIST = fileURLToPath(new URL('./fixtures/web-dist', import.meta.url));

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export type StubHandler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void | Promise<void>;

export interface Stub {
  url: string;
  requests: RecordedRequest[];
  /** replace the handler of a running stub */
  handle(handler: StubHandler): void;
  close(): Promise<void>;
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/**
 * A stub backend. The request body is read in full before the handler runs, unless
 * `streamingPaths` names the path: then the handler gets the raw request and an empty body.
 */
export async function startStub(handler: StubHandler, opts: { streamingPaths?: string[] } = {}): Promise<Stub> {
  let current = handler;
  const requests: RecordedRequest[] = [];
  const server = createServer(async (req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    let body = Buffer.alloc(0);
    if (!opts.streamingPaths?.includes(path)) {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      body = Buffer.concat(chunks);
    }
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    try {
      await current(req, res, body);
    } catch (error) {
      if (!res.headersSent) json(res, 599, { stubError: String(error) });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface TestGateway {
  url: string;
  origin: string;
  app: FastifyInstance;
  logs: string[];
  close(): Promise<void>;
}

export function testConfig(backendUrl: string, overrides: Partial<GatewayBuildConfig> = {}): GatewayBuildConfig {
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir: '/nonexistent',
    publicOrigin: undefined,
    trustProxy: false,
    tokenCookie: 'token',
    upstreamTimeoutMs: 5_000,
    bodyTimeoutMs: DEFAULTS.bodyTimeoutMs,
    logLevel: 'info',
    logFormat: 'json',
    webDist: FIXTURE_DIST,
    authRateLimit: { max: 1000, windowMs: 60_000 },
    ipv6Prefix: DEFAULTS.ipv6Prefix,
    startDataTtlMs: DEFAULTS.startDataTtlMs,
    routeDataTimeoutMs: DEFAULTS.routeDataTimeoutMs,
    routeDataTtlMs: DEFAULTS.routeDataTtlMs,
    sessionCacheTtlMs: DEFAULTS.sessionCacheTtlMs,
    sessionCacheMax: DEFAULTS.sessionCacheMax,
    ...overrides,
    backendUrl: overrides.backendUrl ?? backendUrl,
  };
}

/** The environment of a gateway started as a process: PATH and HOME of ours, a free port, the fixture SPA. */
export const gatewayProcessEnv = (env: Record<string, string>): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  HOST: '127.0.0.1',
  PORT: '0',
  WEB_DIST: FIXTURE_DIST,
  LOG_LEVEL: 'warn',
  ...env,
});

/** `beforeListen`: what a test adds to the built gateway (a hook) before it listens. */
export async function startGateway(
  backendUrl: string,
  overrides: Partial<GatewayBuildConfig> = {},
  build: Omit<BuildOptions, 'logStream'> = {},
  beforeListen?: (app: FastifyInstance) => void,
): Promise<TestGateway> {
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(chunk.toString('utf8'));
      callback();
    },
  });
  const app = buildGateway(testConfig(backendUrl, overrides), { ...build, logStream });
  beforeListen?.(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return { url, origin: url, app, logs, close: () => app.close() };
}

/** A stub upstream and a gateway in front of it for the tests of one file (or describe), started in beforeAll. */
export function useGatewayOverStub(
  handler: StubHandler,
  overrides: Partial<GatewayBuildConfig> = {},
): { stub: Stub; gw: TestGateway } {
  const site = {} as { stub: Stub; gw: TestGateway };
  beforeAll(async () => {
    site.stub = await startStub(handler);
    site.gw = await startGateway(site.stub.url, overrides);
  });
  afterAll(async () => {
    await site.gw?.close();
    await site.stub?.close();
  });
  return site;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
  json<T = Record<string, unknown>>(): T;
  setCookies: string[];
}

export interface SendOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer | NodeJS.ReadableStream | AsyncIterable<Uint8Array>;
}

/**
 * send()'s own connections. undici's request() takes the process's global dispatcher, which is
 * Node's built-in (older) undici when a fetch() ran before undici was first loaded, as happens
 * in a worker that ran another file first: that one refuses `Connection: keep-alive, authorization`.
 */
const client = new Agent();

export async function send(url: string, opts: SendOptions = {}): Promise<Answer> {
  const res = await undiciRequest(url, {
    dispatcher: client,
    method: (opts.method ?? 'GET') as 'GET',
    headers: opts.headers,
    body: opts.body as string | Buffer | undefined,
  });
  const body = Buffer.from(await res.body.arrayBuffer());
  const text = body.toString('utf8');
  const raw = res.headers['set-cookie'];
  return {
    status: res.statusCode,
    headers: res.headers,
    body,
    text,
    json: <T>() => JSON.parse(text) as T,
    setCookies: raw === undefined ? [] : Array.isArray(raw) ? raw : [raw],
  };
}

/**
 * A request whose path is sent byte for byte (fetch and undici normalise `..`, `%2e` and
 * `//` before sending, which would hide exactly the bypasses we test).
 */
export function sendRaw(
  baseUrl: string,
  rawPath: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { hostname, port, path: rawPath, method: opts.method ?? 'GET', headers: opts.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const text = body.toString('utf8');
          const raw = res.headers['set-cookie'];
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            text,
            json: <T>() => JSON.parse(text) as T,
            setCookies: raw ?? [],
          });
        });
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** An unsigned JWT with MOREDOC's claim names; the gateway only reads `exp`. */
export function makeJwt(claims: Record<string, unknown> = {}): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const payload = {
    UserId: 2,
    UUID: 'c0ffee',
    HaveAccess: false,
    iat: now,
    exp: now + 3600,
    iss: 'moredoc',
    ...claims,
  };
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(payload)}.c2lnbmF0dXJl`;
}

/** Same-origin request headers, as a browser's fetch() sends them. */
export function sameOrigin(gatewayUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return { origin: gatewayUrl, 'sec-fetch-site': 'same-origin', ...extra };
}

export function cookieAttributes(setCookie: string): Map<string, string> {
  const [pair, ...attrs] = setCookie.split(';').map((s) => s.trim());
  const map = new Map<string, string>();
  const eq = pair!.indexOf('=');
  map.set('$name', pair!.slice(0, eq));
  map.set('$value', pair!.slice(eq + 1));
  for (const attr of attrs) {
    const i = attr.indexOf('=');
    map.set((i === -1 ? attr : attr.slice(0, i)).toLowerCase(), i === -1 ? '' : attr.slice(i + 1));
  }
  return map;
}

/** Every key of a JSON value, at any depth. */
export function allKeys(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) allKeys(v, into);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      into.push(k);
      allKeys(v, into);
    }
  }
  return into;
}

/** The headers of a search engine's crawler asking for a page. */
export const CRAWLER = {
  accept: 'text/html',
  'user-agent': 'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)',
};

/** The headers of a person's phone browser asking for a page. */
export const PERSON = {
  accept: 'text/html',
  'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
};

/** A page as `headers` get it (a crawler's by default), with its HTML parsed. */
export async function fetchPage(baseUrl: string, path: string, headers: Record<string, string> = CRAWLER) {
  const res = await send(`${baseUrl}${path}`, { headers });
  return { res, doc: parseHtml(res.text) };
}

/** The JSON-LD objects of a page, in order. */
export const jsonLdOf = (doc: Document) =>
  [...doc.querySelectorAll('script[type="application/ld+json"]')].map(
    (s) => JSON.parse(s.textContent ?? '') as Record<string, unknown>,
  );

/** The start data the gateway wrote into a page. */
export const startDataOf = (html: string) =>
  JSON.parse(/id="start-data">(.*?)<\/script>/s.exec(html)![1]!) as StartData;

/** A gateway that counts the requests that reached Fastify (not the lane in front of it). */
export interface CountedGateway extends TestGateway {
  /** requests that reached Fastify */
  reachedFastify(): number;
}

/** Lifetimes of kept data: longer than any test, which moves the clock (`clockAhead`) to see them end. */
export const COUNTED_TTL_MS = 60_000;

export async function startCounted(
  backendUrl: string,
  overrides: Partial<GatewayBuildConfig> = {},
  build: Omit<BuildOptions, 'logStream'> = {},
): Promise<CountedGateway> {
  let reached = 0;
  const gateway = await startGateway(
    backendUrl,
    { startDataTtlMs: COUNTED_TTL_MS, routeDataTtlMs: COUNTED_TTL_MS, ...overrides },
    build,
    (app) => {
      app.addHook('onRequest', (_request, _reply, done) => {
        reached++;
        done();
      });
    },
  );
  return { ...gateway, reachedFastify: () => reached };
}

/** Moves Date (what the gateway's lifetimes read; not the timers) `ms` ahead, until vi.useRealTimers(). */
export function clockAhead(ms: number): void {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + ms, shouldAdvanceTime: true });
}

/** The headers as a browser would compare two answers: all but those made per answer. */
export function sameParts(answer: Answer): Record<string, unknown> {
  const { date: _date, 'x-request-id': _id, ...rest } = answer.headers;
  return rest;
}

/** The access lines in a gateway's log. */
export function accessLines(
  logs: string[],
): { reqId: string; url: string; status: number; bytes: number; ip: string; msg: string }[] {
  return logs
    .flatMap((chunk) => chunk.split('\n'))
    .filter(Boolean)
    .map((line) => JSON.parse(line) as never)
    .filter((line: { msg?: string }) => line.msg === 'request');
}
