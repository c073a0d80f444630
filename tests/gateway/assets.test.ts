import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import assets, { ASSET_CACHE_CONTROL, loadAssetTable, negotiateEncoding } from '../../gateway/plugins/assets';
import { compressAssets } from '../../scripts/compress-assets';
import { FIXTURE_DIST, send, sendRaw, startGateway, type Answer, type TestGateway } from './helpers';

// A build of our own: a chunk with .br and .gz, a stylesheet too small to compress, an image.
const APP = 'app-1a2b3c.js';
const APP_SOURCE = `export const greeting = '你好，文库';\n${'console.log("chunk line");\n'.repeat(200)}`;
const SMALL = 'small-9f8e7d.css';
const SMALL_SOURCE = 'body{margin:0}';
const IMAGE = 'logo-4d5e6f.png';
const IMAGE_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

let webDist: string;
let gw: TestGateway;

async function writeBuild(dir: string): Promise<void> {
  await mkdir(join(dir, 'assets'), { recursive: true });
  await copyFile(join(FIXTURE_DIST, 'index.html'), join(dir, 'index.html'));
  await writeFile(join(dir, 'assets', APP), APP_SOURCE);
  await writeFile(join(dir, 'assets', SMALL), SMALL_SOURCE);
  await writeFile(join(dir, 'assets', IMAGE), IMAGE_BYTES);
  await writeFile(join(dir, 'assets', '.hidden'), 'not for you');
  await compressAssets(join(dir, 'assets'));
}

beforeAll(async () => {
  webDist = await mkdtemp(join(tmpdir(), 'moredoc-assets-'));
  await writeBuild(webDist);
  gw = await startGateway('http://127.0.0.1:1', { webDist });
});
afterAll(async () => {
  await gw.close();
  await rm(webDist, { recursive: true, force: true });
});

const get = (name: string, headers: Record<string, string> = {}, method = 'GET') =>
  send(`${gw.url}/assets/${name}`, { method, headers });

function decoded(res: Answer): string {
  const coding = res.headers['content-encoding'];
  const body = coding === 'br' ? brotliDecompressSync(res.body) : coding === 'gzip' ? gunzipSync(res.body) : res.body;
  return body.toString('utf8');
}

describe('Accept-Encoding negotiation', () => {
  const both = ['br', 'gzip'] as const;
  const cases: Array<[string | undefined, string | undefined]> = [
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['x-gzip', 'gzip'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.4, gzip;q=0.8', 'gzip'],
    ['gzip;q=0.5, br;q=0.5', 'br'],
    ['gzip;q=0.5, identity', undefined],
    ['gzip;q=0.5, identity;q=0.5', 'gzip'],
    ['*', 'br'],
    ['*;q=0.3, br;q=0', 'gzip'],
    ['*;q=0', undefined],
    ['gzip;q=0', undefined],
    ['deflate', undefined],
    ['gzip;q=garbage, br;q=2', undefined],
    [' gzip ; q=0.9 ,br;q=0.1', 'gzip'],
  ];
  for (const [header, expected] of cases) {
    it(`${JSON.stringify(header)} → ${expected ?? 'identity'}`, () => {
      expect(negotiateEncoding(header, both)).toBe(expected);
    });
  }

  it('offers only the variants the file has', () => {
    expect(negotiateEncoding('br, gzip', ['gzip'])).toBe('gzip');
    expect(negotiateEncoding('br', ['gzip'])).toBeUndefined();
    expect(negotiateEncoding('br, gzip', [])).toBeUndefined();
  });
});

describe('the asset table', () => {
  it('holds each file of the build once, with its .br and .gz, and counts their bytes', async () => {
    const table = await loadAssetTable(join(webDist, 'assets'));
    expect([...table.assets.keys()].sort()).toEqual([APP, IMAGE, SMALL].sort());
    expect(table.assets.get(APP)!.codings).toEqual(['br', 'gzip']);
    expect(table.assets.get(SMALL)!.codings).toEqual([]);
    const app = table.assets.get(APP)!;
    const bytes = [...table.assets.values()].reduce(
      (sum, a) => sum + a.plain!.body.length + (a.encoded.br?.body.length ?? 0) + (a.encoded.gzip?.body.length ?? 0),
      0,
    );
    expect(table.bytes).toBe(bytes);
    expect(app.encoded.gzip!.body.length).toBeLessThan(app.plain!.body.length);
    expect(table.onDisk).toBe(0);
  });

  it('keeps within its memory budget, smallest files first, and leaves the rest on disk', async () => {
    const table = await loadAssetTable(join(webDist, 'assets'), 1_000);
    expect(table.bytes).toBeLessThanOrEqual(1_000);
    expect(table.assets.get(SMALL)!.plain).toBeDefined();
    expect(table.assets.get(IMAGE)!.plain).toBeDefined();
    expect(table.assets.get(APP)!.plain).toBeUndefined();
    expect(table.onDisk).toBe(1);
  });

  it('is empty for a build without an assets folder', async () => {
    const table = await loadAssetTable(join(webDist, 'no-such-folder'));
    expect(table.assets.size).toBe(0);
  });
});

describe('/assets/* from memory', () => {
  it('answers brotli, gzip or the plain file by Accept-Encoding, with the same headers otherwise', async () => {
    const answers = {
      br: await get(APP, { 'accept-encoding': 'gzip, deflate, br' }),
      gzip: await get(APP, { 'accept-encoding': 'gzip' }),
      identity: await get(APP),
    };
    for (const [coding, res] of Object.entries(answers)) {
      expect(res.status, coding).toBe(200);
      expect(res.headers['content-encoding'], coding).toBe(coding === 'identity' ? undefined : coding);
      expect(res.headers['content-type'], coding).toBe('application/javascript; charset=utf-8');
      expect(res.headers['content-length'], coding).toBe(String(res.body.length));
      expect(res.headers['cache-control'], coding).toBe(ASSET_CACHE_CONTROL);
      expect(res.headers.vary, coding).toBe('accept-encoding');
      expect(res.headers['accept-ranges'], coding).toBe('bytes');
      expect(res.headers.etag, coding).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
      expect(Date.parse(String(res.headers['last-modified'])), coding).not.toBeNaN();
      expect(decoded(res), coding).toBe(APP_SOURCE);
    }
    expect(answers.br.body.length).toBeLessThan(answers.gzip.body.length);
    expect(new Set(Object.values(answers).map((r) => r.headers.etag)).size).toBe(3);
  });

  it('follows q-values: a refused coding is not sent, a preferred plain file is', async () => {
    expect((await get(APP, { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip');
    const plain = await get(APP, { 'accept-encoding': 'gzip;q=0.5, identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toBe(APP_SOURCE);
  });

  it('answers a file without compressed variants plainly, still varying on Accept-Encoding', async () => {
    const css = await get(SMALL, { 'accept-encoding': 'br, gzip' });
    expect(css.headers['content-encoding']).toBeUndefined();
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers.vary).toBe('accept-encoding');
    expect(css.text).toBe(SMALL_SOURCE);
    const png = await get(IMAGE, { 'accept-encoding': 'br, gzip' });
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.body.equals(IMAGE_BYTES)).toBe(true);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const head = await get(APP, { 'accept-encoding': 'gzip' }, 'HEAD');
    const full = await get(APP, { 'accept-encoding': 'gzip' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const name of ['content-length', 'content-type', 'content-encoding', 'etag', 'cache-control', 'vary']) {
      expect(head.headers[name], name).toBe(full.headers[name]);
    }
  });

  it('sends validators that a revalidation accepts (304), for each variant', async () => {
    for (const acceptEncoding of ['br', 'gzip', 'identity']) {
      const first = await get(APP, { 'accept-encoding': acceptEncoding });
      const again = await get(APP, { 'accept-encoding': acceptEncoding, 'if-none-match': String(first.headers.etag) });
      expect(again.status, acceptEncoding).toBe(304);
      expect(again.body.length, acceptEncoding).toBe(0);
      const since = await get(APP, {
        'accept-encoding': acceptEncoding,
        'if-modified-since': String(first.headers['last-modified']),
      });
      expect(since.status, acceptEncoding).toBe(304);
    }
  });

  it('answers a range request with 206 and the range', async () => {
    const res = await get(APP, { range: 'bytes=0-5' });
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 0-5/${Buffer.byteLength(APP_SOURCE)}`);
    expect(res.text).toBe(APP_SOURCE.slice(0, 6));
  });

  it('answers anything that is not a file of the build with a JSON 404, never a file or the page', async () => {
    for (const name of ['missing-123.js', `${APP}.gz`, `${APP}.br`, '', '.hidden', `${APP}/x`, 'APP-1A2B3C.JS']) {
      const res = await get(name, { accept: 'text/html' });
      expect(res.status, name).toBe(404);
      expect(res.headers['content-type'], name).toBe('application/json; charset=utf-8');
      expect(res.headers['cache-control'], name).toBe('no-store');
    }
    for (const path of [
      `/assets/..%2f${APP}`,
      '/assets/..%2f..%2fpackage.json',
      '/assets/%2e%2e/index.html',
      '/assets/..%5cindex.html',
    ]) {
      const res = await sendRaw(gw.url, path);
      expect(res.status, path).toBe(404);
      expect(res.text, path).not.toContain('<!--app-head-->');
    }
    const post = await send(`${gw.url}/assets/${APP}`, { method: 'POST', body: '' });
    expect(post.status).toBe(404);
  });

  it('serves the build it started with, whatever happens to the folder afterwards', async () => {
    const dist = await mkdtemp(join(tmpdir(), 'moredoc-assets-'));
    await writeBuild(dist);
    const own = await startGateway('http://127.0.0.1:1', { webDist: dist });
    try {
      await writeFile(join(dist, 'assets', APP), 'changed on disk');
      await rm(join(dist, 'assets', `${APP}.gz`));
      const res = await send(`${own.url}/assets/${APP}`, { headers: { 'accept-encoding': 'gzip' } });
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(decoded(res)).toBe(APP_SOURCE);
    } finally {
      await own.close();
      await rm(dist, { recursive: true, force: true });
    }
  });
});

describe('/assets/* beyond the memory budget', () => {
  let app: FastifyInstance;
  let url: string;

  beforeAll(async () => {
    // The SPA plugin's @fastify/static registration, and no room in memory at all.
    app = Fastify();
    await app.register(fastifyStatic, {
      root: webDist,
      serve: false,
      preCompressed: true,
      index: false,
      dotfiles: 'deny',
    });
    await app.register(assets, { dir: join(webDist, 'assets'), memoryBudget: 0 });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app.close();
  });

  it('serves the files from disk with the same negotiation and headers', async () => {
    for (const [acceptEncoding, coding] of [
      ['br, gzip', 'br'],
      ['gzip', 'gzip'],
      ['identity', undefined],
    ] as const) {
      const fromDisk = await send(`${url}/assets/${APP}`, { headers: { 'accept-encoding': acceptEncoding } });
      const fromMemory = await get(APP, { 'accept-encoding': acceptEncoding });
      expect(fromDisk.status).toBe(200);
      expect(fromDisk.headers['content-encoding']).toBe(coding);
      for (const name of [
        'content-type',
        'content-length',
        'cache-control',
        'vary',
        'etag',
        'last-modified',
        'accept-ranges',
      ]) {
        expect(fromDisk.headers[name], `${acceptEncoding}: ${name}`).toBe(fromMemory.headers[name]);
      }
      expect(decoded(fromDisk)).toBe(APP_SOURCE);
    }
  });
});
