// A complete request, then the client half-closes its side (shutdown(SHUT_WR), `nc -N`):
// the answer still comes, whole, and nothing is logged as a fault (issue 18 §2.5).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { json, startGateway, startStub, type Stub, type TestGateway } from './helpers';
import { startFakeBackend, type FakeBackend } from './fake-backend';

interface RawAnswer {
  status: number;
  headers: Map<string, string>;
  body: Buffer;
}

/** Writes `request` on a fresh connection, half-closes it, and reads until the server closes. */
function halfClosed(url: string, request: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => {
      socket.write(request);
      socket.end();
    });
    socket.setTimeout(5_000, () => socket.destroy(new Error('no answer within 5 s')));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks);
      const split = raw.indexOf('\r\n\r\n');
      if (split === -1) return reject(new Error(`no complete answer: ${JSON.stringify(raw.toString('latin1'))}`));
      const [statusLine = '', ...lines] = raw.subarray(0, split).toString('latin1').split('\r\n');
      const headers = new Map(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: raw.subarray(split + 4) });
    });
  });
}

const get = (path: string, extra = '') =>
  `GET ${path} HTTP/1.1\r\nHost: site.test\r\nAccept: text/html\r\n${extra}\r\n`;

let backend: FakeBackend;
let files: Stub;
let gw: TestGateway;
let filesGw: TestGateway;
beforeAll(async () => {
  backend = await startFakeBackend();
  files = await startStub((_req, res) => {
    res.writeHead(200, { 'content-type': 'image/svg+xml', 'content-length': '20000' });
    res.end(Buffer.alloc(20_000, 'x'));
  });
  gw = await startGateway(backend.url);
  filesGw = await startGateway(files.url);
});
afterAll(async () => {
  await Promise.all([gw.close(), filesGw.close()]);
  await Promise.all([backend.close(), files.close()]);
});

describe('half-closed requests', () => {
  it('get the whole answer on proxied API calls, pages, files and the gateway’s own routes', async () => {
    const cases: Array<[TestGateway, string, number]> = [
      [gw, get('/api/v1/settings'), 200],
      [gw, get('/library'), 200],
      [gw, get('/member'), 302],
      [gw, get('/admin/dashboard', `Cookie: token=${backend.adminToken}\r\n`), 200],
      [gw, get('/healthz'), 200],
      [filesGw, get('/view/page/0123456789abcdef0123456789abcdef/1.svg'), 200],
    ];
    for (const [target, request, status] of cases) {
      const answer = await halfClosed(target.url, request);
      expect(answer.status, request).toBe(status);
      expect(answer.body.length, request).toBe(Number(answer.headers.get('content-length')));
    }
  });

  it('get an answer to a write too', async () => {
    const body = '{"title":"半关闭"}';
    const request = `POST /api/v1/navigation HTTP/1.1\r\nHost: site.test\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const answer = await halfClosed(gw.url, request);
    expect(answer.status).toBe(200);
    expect(backend.navigation.map((n) => n.title)).toContain('半关闭');
  });

  it('are logged as the requests they are: one access line each, no fault', async () => {
    const before = gw.logs.length;
    await halfClosed(gw.url, get('/api/v1/settings'));
    await halfClosed(gw.url, get('/library'));
    await new Promise((r) => setTimeout(r, 50));
    const lines = gw.logs.slice(before).map((l) => JSON.parse(l) as { level: number; msg: string; status?: number });
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
    expect(lines.map((l) => [l.msg, l.status])).toEqual([
      ['request', 200],
      ['request', 200],
    ]);
  });
});

describe('a client that closes the connection before its answer', () => {
  it('leaves no fault in the log', async () => {
    const slow = await startStub(async (_req, res) => {
      await new Promise((r) => setTimeout(r, 200));
      json(res, 200, {});
    });
    const target = await startGateway(slow.url);
    try {
      const { port } = new URL(target.url);
      await new Promise<void>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.write(get('/api/v1/settings'));
          setTimeout(() => socket.destroy(), 50);
        });
        socket.on('close', () => resolve());
      });
      await new Promise((r) => setTimeout(r, 400));
      const lines = target.logs.map((l) => JSON.parse(l) as { level: number });
      expect(lines.filter((l) => l.level >= 40)).toEqual([]);
    } finally {
      await target.close();
      await slow.close();
    }
  });
});
