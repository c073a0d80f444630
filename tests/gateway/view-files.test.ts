// Pages and covers served in process (gateway/view-files.ts) answer exactly what the same
// request gets when the gateway asks the embedded backend over HTTP: status, headers and
// bytes, for each rights decision, representation, validator and encoding. The in-process
// gateway points at a port where nothing listens, so an answer that went over HTTP would be
// a 502.
import { readdirSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, useBackend, type Member } from '../helpers/backend';
import { pricedFivePages, type CreatedDocument } from '../helpers/document-api';
import { sendRaw, startCounted, startGateway, type CountedGateway, type TestGateway } from './helpers';
import { recordedConversions } from '../helpers/recorded-conversions';

const backend = useBackend({ build: { converter: recordedConversions } });
let author: Member;
let stranger: Member;
let doc: CreatedDocument;
/** serves pages in process; its backend URL leads nowhere */
let inProcess: TestGateway;
/** serves pages in process, and asks over HTTP what it leaves to the backend's router */
let inProcessLive: TestGateway;
/** forwards every page over HTTP, as with BACKEND_URL */
let proxied: TestGateway;
/** serves pages in process, and counts what reaches Fastify rather than the lane in front of it */
let counted: CountedGateway;

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

async function get(
  base: string,
  path: string,
  headers: Record<string, string> = {},
  method: 'GET' | 'HEAD' = 'GET',
): Promise<Answer> {
  const res = await request(`${base}${path}`, { method, headers });
  return { status: res.statusCode, headers: res.headers, body: Buffer.from(await res.body.arrayBuffer()) };
}

/** What must match: every header but the ones that differ per answer by nature. */
function comparable(answer: Answer) {
  const { date: _date, 'x-request-id': _id, ...headers } = answer.headers;
  return { status: answer.status, headers, body: answer.body.toString('base64') };
}

/** Asks both gateways; expects the same answer and returns it. */
async function same(path: string, headers: Record<string, string> = {}, viaInProcess = inProcess): Promise<Answer> {
  const [mine, theirs] = await Promise.all([get(viaInProcess.url, path, headers), get(proxied.url, path, headers)]);
  expect(comparable(mine), path).toEqual(comparable(theirs));
  return mine;
}

const cookieOf = (member: Member) => ({ cookie: `token=${member.token}` });
const pagePath = (n: number | string, ext = '.svg') => `/view/page/${doc.hash}/${n}${ext}`;

beforeAll(async () => {
  // Two free pages of five.
  ({ author, stranger, doc } = await pricedFivePages(backend));
  inProcess = await startGateway(await closedPortUrl(), {}, { viewFiles: backend.viewFiles });
  inProcessLive = await startGateway(backend.url, {}, { viewFiles: backend.viewFiles });
  proxied = await startGateway(backend.url);
  counted = await startCounted(await closedPortUrl(), {}, { viewFiles: backend.viewFiles });
});
afterAll(async () => {
  await Promise.all([inProcess?.close(), inProcessLive?.close(), proxied?.close(), counted?.close()]);
});

describe('the same answers in process as over HTTP', () => {
  it('a free page, gzip SVG as stored, to a visitor', async () => {
    const page = await same(pagePath(1, '.gzip.svg'), { 'accept-encoding': 'gzip' });
    expect(page.status).toBe(200);
    expect(page.headers).toMatchObject({
      'content-encoding': 'gzip',
      'cache-control': 'public, max-age=604800',
      'content-type': 'image/svg+xml',
    });
    expect(gunzipSync(page.body).toString('utf8')).toContain('<svg');
    // The gateway's own headers are on both.
    expect(page.headers['x-frame-options']).toBe('DENY');
  });

  it('the same page inflated for a client without gzip, whatever extension was asked for', async () => {
    for (const ext of ['.svg', '.png', '.webp']) {
      const page = await same(pagePath(2, ext), { 'accept-encoding': 'identity' });
      expect(page.status).toBe(200);
      expect(page.headers['content-encoding']).toBeUndefined();
      expect(page.body.toString('utf8')).toContain('<svg');
    }
  });

  it('closes the page file of an inflated page its reader gives up on, without waiting for the garbage collector', async () => {
    // The files of this document this process holds open (Linux: /proc/self/fd).
    const openPageFiles = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).includes(doc.hash);
        } catch {
          return false; // closed meanwhile
        }
      }).length;
    const before = openPageFiles();
    const answer = await backend.viewFiles(pagePath(2), {
      authorization: undefined,
      acceptEncoding: 'identity',
      ifNoneMatch: undefined,
    });
    expect(answer?.status).toBe(200);
    expect(openPageFiles()).toBe(before + 1);
    // As the page's first screen does when its page 1 comes too late: the body is dropped unread.
    (answer?.body as Readable).destroy();
    await expect.poll(openPageFiles).toBeLessThanOrEqual(before);
  });

  it('a page past the free preview: 403 to visitors and strangers, the page to its owner by cookie or by token', async () => {
    const refused = await same(pagePath(3));
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body.toString()).message).toBe('该页超出免费预览范围，请下载文档或开通 VIP 会员后阅读');
    expect((await same(pagePath(3), cookieOf(stranger))).status).toBe(403);
    const owner = await same(pagePath(3), { ...cookieOf(author), 'accept-encoding': 'gzip' });
    expect(owner.status).toBe(200);
    expect(owner.headers['cache-control']).toBe('private, max-age=3600');
    expect((await same(pagePath(4), { authorization: `Bearer ${author.token}` })).status).toBe(200);
    // A client's own Authorization wins over the cookie, in process too.
    expect((await same(pagePath(4), { ...cookieOf(author), authorization: `Bearer ${stranger.token}` })).status).toBe(
      403,
    );
  });

  it('a page that does not exist, and a hash no document has: 404', async () => {
    expect((await same(pagePath(6), cookieOf(author))).status).toBe(404);
    expect((await same(`/view/page/${'0'.repeat(32)}/1.svg`)).status).toBe(404);
    expect((await same(`/view/page/${doc.hash}/text.txt`)).status).toBe(404);
  });

  it('a hidden document: 404 to strangers, every page to its owner', async () => {
    const hide = await api(backend.url, 'PUT', '/api/v1/document/check', {
      token: backend.adminToken,
      body: { id: [doc.id], status: 4 },
    });
    expect(hide.status).toBe(200);
    try {
      expect((await same(pagePath(1))).status).toBe(404);
      expect((await same(`/view/cover/${doc.hash}`, cookieOf(stranger))).status).toBe(404);
      const owner = await same(pagePath(1), cookieOf(author));
      expect(owner.status).toBe(200);
      expect(owner.headers['cache-control']).toBe('private, max-age=3600');
    } finally {
      await api(backend.url, 'PUT', '/api/v1/document/check', {
        token: backend.adminToken,
        body: { id: [doc.id], status: 2 },
      });
    }
  });

  it('the cover, by both of its paths', async () => {
    const cover = await same(`/view/cover/${doc.hash}`);
    expect(cover.status).toBe(200);
    expect(cover.headers['content-type']).toBe('image/png');
    expect(cover.body.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect((await same(`/view/page/${doc.hash}/cover.png`)).status).toBe(200);
  });

  it('ETag and 304, for the stored and the inflated representation', async () => {
    for (const encoding of ['gzip', 'identity']) {
      const first = await same(pagePath(1), { 'accept-encoding': encoding });
      const etag = String(first.headers.etag);
      const again = await same(pagePath(1), { 'accept-encoding': encoding, 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect((await same(pagePath(1), { 'accept-encoding': encoding, 'if-none-match': '"other"' })).status).toBe(200);
    }
  });

  it('paths that leave the route: 400 on both ways', async () => {
    for (const path of [
      `/view/page/${doc.hash}/..%2F..%2Fmoredoc.db`,
      `/view/cover/${doc.hash}%2F..%2Fmanifest.json`,
    ]) {
      const [mine, theirs] = await Promise.all([sendRaw(inProcess.url, path), sendRaw(proxied.url, path)]);
      expect(mine.status, path).toBe(400);
      expect(theirs.status, path).toBe(400);
    }
  });
});

describe('what the backend leaves to its router goes over HTTP', () => {
  it("a malformed hash, an escaped name, a trailing slash and HEAD get the backend's own answers", async () => {
    const bad = await same('/view/page/abc/1.svg', {}, inProcessLive);
    expect(bad.status).toBe(404);
    expect(JSON.parse(bad.body.toString())).toEqual({ code: 400, message: 'hash值必须32位' });
    expect((await same(`/view/page/${doc.hash}/%31.svg`, { 'accept-encoding': 'gzip' }, inProcessLive)).status).toBe(
      200,
    );
    expect((await same(`/view/cover/${doc.hash}/`, {}, inProcessLive)).status).toBe(404);
    const [mine, theirs] = await Promise.all([
      get(inProcessLive.url, pagePath(1), {}, 'HEAD'),
      get(proxied.url, pagePath(1), {}, 'HEAD'),
    ]);
    expect(comparable(mine)).toEqual(comparable(theirs));
    expect(mine.status).toBe(200);
  });

  it('and the gateway without a live backend says so (502), so the answers above came in process', async () => {
    expect((await get(inProcess.url, '/view/page/abc/1.svg')).status).toBe(502);
  });
});

describe("a visitor's free pages and covers are kept (gateway/plugins/public-reads.ts)", () => {
  const gzip = { 'accept-encoding': 'gzip' };

  it('and answered again in front of Fastify: the same status, headers and bytes as over HTTP', async () => {
    for (const path of [pagePath(2, '.gzip.svg'), `/view/cover/${doc.hash}`]) {
      const first = await get(counted.url, path, gzip);
      const reached = counted.reachedFastify();
      const again = await get(counted.url, path, gzip);
      const third = await get(counted.url, path, gzip);
      expect(counted.reachedFastify(), path).toBe(reached);
      expect(again.status, path).toBe(200);
      expect(comparable(again), path).toEqual(comparable(first));
      expect(comparable(third), path).toEqual(comparable(await get(proxied.url, path, gzip)));
      expect(again.headers['x-request-id']).not.toBe(third.headers['x-request-id']);
    }
  });

  it.each<[string, () => Promise<[string, Record<string, string>]>]>([
    ['a page past the free preview (403)', async () => [pagePath(4, '.gzip.svg'), gzip]],
    ['a page read with a session', async () => [pagePath(1, '.gzip.svg'), { ...gzip, ...cookieOf(author) }]],
    ['a page inflated for a client without gzip (streamed)', async () => [pagePath(1, '.svg'), {}]],
    ['a range of a page', async () => [pagePath(1, '.gzip.svg'), { ...gzip, range: 'bytes=0-99' }]],
    [
      'a conditional request (304)',
      async () => {
        const etag = String((await get(counted.url, pagePath(1, '.gzip.svg'), gzip)).headers.etag);
        return [pagePath(1, '.gzip.svg'), { ...gzip, 'if-none-match': etag }];
      },
    ],
  ])('but not %s: it reaches Fastify every time', async (_name, ask) => {
    const [path, headers] = await ask();
    const statuses = [(await get(counted.url, path, headers)).status];
    const reached = counted.reachedFastify();
    statuses.push((await get(counted.url, path, headers)).status, (await get(counted.url, path, headers)).status);
    expect(counted.reachedFastify()).toBe(reached + 2);
    expect(new Set(statuses).size).toBe(1);
  });
});
