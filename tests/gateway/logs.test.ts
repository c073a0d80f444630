// The gateway's log: one short access line per request at info, faults at warn so that
// LOG_LEVEL=warn keeps them, refusals explained by the guard that made them, and no
// credential from a query string or a download link (issue 18 §2.8).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { PassThrough } from 'node:stream';
import { loggerOptions, textLogStream } from '../../gateway/logging';
import { loggableUrl } from '../../gateway/plugins/access-log';
import {
  json,
  makeJwt,
  sameOrigin,
  send,
  sendRaw,
  startGateway,
  startStub,
  type Stub,
  type TestGateway,
} from './helpers';

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  method?: string;
  url?: string;
  status?: number;
  ms?: number;
  bytes?: number;
  ip?: string;
  refused?: string;
  upstream?: string;
}

const WARN = 40;

function linesOf(gw: TestGateway, from = 0): LogLine[] {
  return gw.logs.slice(from).map((l) => JSON.parse(l) as LogLine);
}

/** The log lines of one request, once its answer has been logged. */
async function linesFor(gw: TestGateway, requestId: unknown): Promise<LogLine[]> {
  await new Promise((r) => setTimeout(r, 30));
  return linesOf(gw).filter((l) => l.reqId === requestId);
}

let stub: Stub;
let gw: TestGateway;
let quiet: TestGateway;
beforeAll(async () => {
  stub = await startStub((req, res) => {
    if (req.url?.startsWith('/api/v1/broken')) return json(res, 500, { code: 13, message: '内部错误' });
    json(res, 200, { ok: true });
  });
  gw = await startGateway(stub.url, { authRateLimit: { max: 1, windowMs: 60_000 } });
  quiet = await startGateway(stub.url, { logLevel: 'warn' });
});
afterAll(async () => {
  await Promise.all([gw.close(), quiet.close()]);
  await stub.close();
});

describe('access lines', () => {
  it('logs one line per request at info: method, URL, status, time, bytes, client address', async () => {
    const res = await send(`${gw.url}/api/v1/settings?page=2`);
    const lines = await linesFor(gw, res.headers['x-request-id']);
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({
      level: 30,
      msg: 'request',
      method: 'GET',
      url: '/api/v1/settings?page=2',
      status: 200,
      ip: '127.0.0.1',
    });
    expect(line!.ms).toBeGreaterThanOrEqual(0);
    expect(line!.bytes).toBeGreaterThan(Number(res.headers['content-length']));
    // Fastify's own pair (incoming request / request completed, ~700 bytes each) is off
    expect(gw.logs.join('')).not.toMatch(/incoming request|request completed/);
    expect(JSON.stringify(line).length).toBeLessThan(300);
  });

  it('drops the values of secret query parameters and the token of a download link', async () => {
    const res = await send(
      `${gw.url}/api/v1/user/login?token=t0k3n&access_token=at&code=c0dex&password=pw&sign=s1g&api_key=k3y&page=2&wd=%E6%96%87%E6%A1%A3`,
    );
    const download = await send(
      `${gw.url}/download/eyJhbGciOiJIUzI1NiJ9.eyJqdGkiOiIxIn0.c2ln?user_id=1&document_id=2&filename=a.pdf`,
    );
    const [login] = await linesFor(gw, res.headers['x-request-id']);
    expect(login!.url).toBe(
      '/api/v1/user/login?token=[redacted]&access_token=[redacted]&code=[redacted]&password=[redacted]&sign=[redacted]&api_key=[redacted]&page=2&wd=%E6%96%87%E6%A1%A3',
    );
    const [file] = await linesFor(gw, download.headers['x-request-id']);
    expect(file!.url).toBe('/download/[redacted]?user_id=1&document_id=2&filename=a.pdf');
    // Not hex-only: a request id (a UUID) may hold any hex run, as 'c0de' once did.
    for (const secret of ['t0k3n', 'c0dex', 's1g', 'k3y', 'eyJhbGciOiJIUzI1NiJ9'])
      expect(gw.logs.join('')).not.toContain(secret);
  });

  it('logs the URL as it was sent, also when it was routed in canonical form', async () => {
    const res = await sendRaw(gw.url, '/api/v1/%73ettings?token=x');
    const [line] = await linesFor(gw, res.headers['x-request-id']);
    expect(line!.url).toBe('/api/v1/%73ettings?token=[redacted]');
  });

  it('says which guard refused a request, in the same one line at info', async () => {
    const cookie = `token=${makeJwt()}`;
    const csrf = await send(`${gw.url}/api/v1/user/profile`, {
      method: 'PUT',
      headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/json' },
      body: '{}',
    });
    const notJson = await send(`${gw.url}/api/v1/user/profile`, {
      method: 'PUT',
      headers: sameOrigin(gw.url, { 'content-type': 'text/plain' }),
      body: '{}',
    });
    const login = () =>
      send(`${gw.url}/api/v1/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
    await login();
    const limited = await login();
    expect([csrf.status, notJson.status, limited.status]).toEqual([403, 415, 429]);
    const refusals = await Promise.all([csrf, notJson, limited].map((r) => linesFor(gw, r.headers['x-request-id'])));
    expect(refusals.map((lines) => lines.map((l) => [l.level, l.status, l.refused]))).toEqual([
      [[30, 403, 'csrf:foreign-origin']],
      [[30, 415, 'csrf:not-json']],
      [[30, 429, 'rate-limit']],
    ]);
  });
});

describe('faults', () => {
  it('are logged at warn, with the kind of backend failure', async () => {
    const down = await startGateway('http://127.0.0.1:1', { logLevel: 'warn' });
    try {
      const res = await send(`${down.url}/api/v1/settings`);
      expect(res.status).toBe(502);
      const lines = await linesFor(down, res.headers['x-request-id']);
      expect(lines.find((l) => l.msg === 'request')).toMatchObject({ level: WARN, status: 502, upstream: 'refused' });
    } finally {
      await down.close();
    }
  });

  it('keep their line at LOG_LEVEL=warn, when the answers that went well have none', async () => {
    const from = quiet.logs.length;
    expect((await send(`${quiet.url}/api/v1/settings`)).status).toBe(200);
    expect(
      (
        await send(`${quiet.url}/api/v1/user/login`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: 'x',
        })
      ).status,
    ).toBe(415);
    const broken = await send(`${quiet.url}/api/v1/broken`);
    expect(broken.status).toBe(500);
    await new Promise((r) => setTimeout(r, 30));
    expect(linesOf(quiet, from).map((l) => [l.level, l.msg, l.status, l.url])).toEqual([
      [WARN, 'request', 500, '/api/v1/broken'],
    ]);
  });
});

describe('loggableUrl', () => {
  it('keeps names, order and harmless values; replaces only credential values', () => {
    expect(loggableUrl('/a')).toBe('/a');
    expect(loggableUrl('/a?')).toBe('/a?');
    expect(loggableUrl('/a?keyword=x&zipcode=1&captcha_code=9&Token=t&flag')).toBe(
      '/a?keyword=x&zipcode=1&captcha_code=[redacted]&Token=[redacted]&flag',
    );
    expect(loggableUrl('/a?%74oken=t')).toBe('/a?%74oken=[redacted]');
    expect(loggableUrl('/download')).toBe('/download');
    expect(loggableUrl('/downloads/x')).toBe('/downloads/x');
  });
});

describe('LOG_FORMAT=text', () => {
  it("keeps the reason of a fault, whether an Error or a sentence, on the fault's line", async () => {
    const out = new PassThrough();
    const written: string[] = [];
    out.on('data', (chunk: Buffer) => written.push(chunk.toString('utf8')));
    const app = Fastify({ logger: loggerOptions('info', textLogStream(out)) });
    await app.ready();
    app.log.warn(
      { url: 'http://localhost/', err: 'late: over 800 ms' },
      'the first screen of a page could not be rendered',
    );
    app.log.warn({ err: new Error('socket hang up') }, 'a call failed');
    await app.close();
    const lines = written.join('').split('\n');
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^\d\d:\d\d:\d\d WARN {2}the first screen of a page could not be rendered url=http:\/\/localhost\/ err=late: over 800 ms$/,
      ),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^\d\d:\d\d:\d\d WARN {2}a call failed$/));
    expect(lines).toContainEqual(expect.stringMatching(/^Error: socket hang up$/));
  });
});
