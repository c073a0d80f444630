import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { StartData } from '../../shared/types/start-data';
import { FIXTURE_DIST, sameOrigin, send, sendRaw, startGateway, type TestGateway } from './helpers';
import { startFakeBackend, type FakeBackend } from './fake-backend';

const ASSET = '/assets/app-3f9a1c.js';
const assetSource = readFileSync(join(FIXTURE_DIST, 'assets/app-3f9a1c.js'), 'utf8');
const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

let backend: FakeBackend;
let gw: TestGateway;

beforeAll(async () => {
  backend = await startFakeBackend();
  gw = await startGateway(backend.url, { startDataTtlMs: 60_000 });
});
afterAll(async () => {
  await gw.close();
  await backend.close();
});
afterEach(() => {
  backend.calls.clear();
});

function startDataOf(html: string): StartData {
  const match = /<script type="application\/json" id="start-data">(.*?)<\/script>/s.exec(html);
  if (!match) throw new Error('no start data in the page');
  return JSON.parse(match[1]!) as StartData;
}

describe('assets', () => {
  it('serves hashed assets immutable, pre-compressed with brotli, varying on Accept-Encoding', async () => {
    const res = await send(`${gw.url}${ASSET}`, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('br');
    expect(String(res.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(brotliDecompressSync(res.body).toString('utf8')).toBe(assetSource);
  });

  it('falls back to the .gz file, then to the plain file', async () => {
    const gz = await send(`${gw.url}${ASSET}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString('utf8')).toBe(assetSource);

    const plain = await send(`${gw.url}${ASSET}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toBe(assetSource);
    expect(String(plain.headers.vary).toLowerCase()).toContain('accept-encoding');
  });

  it('answers a missing asset with a JSON 404, never the page', async () => {
    const res = await send(`${gw.url}/assets/missing-123.js`, { headers: HTML });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('does not serve index.html or files outside through traversal in /assets', async () => {
    for (const path of [
      '/assets/../index.html',
      '/assets/%2e%2e/index.html',
      '/assets/..%2f..%2fpackage.json',
      '/assets/..%5cindex.html',
    ]) {
      const res = await sendRaw(gw.url, path);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.text, path).not.toContain('<!--app-head-->');
      expect(res.text, path).not.toContain('"name"');
    }
  });

  it('serves the top-level files of the build with a short cache', async () => {
    const res = await send(`${gw.url}/humans.txt`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('User-agent');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
  });
});

describe('index.html', () => {
  it('answers every page navigation with index.html, no-cache, head and start data filled in', async () => {
    for (const path of ['/', '/library', '/library/1', '/article/3/detail/9', '/article/detail/about']) {
      const res = await send(`${gw.url}${path}`, { headers: HTML });
      expect(res.status, path).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.text).not.toContain('<!--app-head-->');
      expect(res.text).not.toContain('<!--app-start-data-->');
    }
  });

  it('answers a path that is no route with the page and status 404, so the SPA shows its 404 and crawlers skip it', async () => {
    for (const path of ['/nope', '/library/abc', '/article/news.html', '/index.html']) {
      const res = await send(`${gw.url}${path}`, { headers: HTML });
      expect(res.status, path).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(startDataOf(res.text).settings).toBeDefined();
    }
  });

  it('sends the page compressed as the browser accepts it (brotli, then gzip), the same html inside, varying on Accept-Encoding', async () => {
    for (const path of ['/', '/library/1', '/nope']) {
      const plain = await send(`${gw.url}${path}`, { headers: { ...HTML, 'accept-encoding': 'identity' } });
      expect(plain.headers['content-encoding'], path).toBeUndefined();
      expect(plain.text, path).toContain('id="start-data"');

      const br = await send(`${gw.url}${path}`, { headers: { ...HTML, 'accept-encoding': 'gzip, deflate, br, zstd' } });
      expect(br.status, path).toBe(plain.status);
      expect(br.headers['content-encoding'], path).toBe('br');
      expect(br.headers.vary, path).toBe('Accept-Encoding, Cookie');
      expect(brotliDecompressSync(br.body).toString('utf8'), path).toBe(plain.text);
      expect(br.body.length, path).toBeLessThan(plain.body.length / 2);

      const gz = await send(`${gw.url}${path}`, { headers: { ...HTML, 'accept-encoding': 'gzip;q=1, br;q=0' } });
      expect(gz.headers['content-encoding'], path).toBe('gzip');
      expect(gunzipSync(gz.body).toString('utf8'), path).toBe(plain.text);
    }
  });

  it("puts the site's title, description, keywords and favicon in <head>, HTML-escaped", async () => {
    const res = await send(`${gw.url}/`, { headers: HTML });
    const head = res.text.slice(0, res.text.indexOf('</head>'));
    expect(head).toContain('<title>MOREDOC · 魔豆文库</title>');
    expect(head).toContain('<meta name="description" content="文档分享 &#60;平台&#62; &#38; &#34;资料&#34;">');
    expect(head).toContain('<meta name="keywords" content="文档,资料">');
    expect(head).toContain('<link rel="icon" href="/uploads/a/b/c/d/e/favicon.png">');
  });

  it('inlines settings, navigation and all categories as JSON with < escaped', async () => {
    const res = await send(`${gw.url}/`, { headers: HTML });
    const script = /<script type="application\/json" id="start-data">(.*?)<\/script>/s.exec(res.text)![1]!;
    expect(script).not.toContain('<');
    expect(script).toContain('\\u003c/script\\u003e');
    const data = startDataOf(res.text);
    expect(data).toEqual({
      settings: backend.settings,
      navigation: backend.navigation,
      categories: backend.categories,
      routeData: expect.any(Array),
    });
    expect(data.categories.map((c) => c.type)).toEqual([0, 1]);
    expect(data.user).toBeUndefined();
    expect(data.permissions).toBeUndefined();
    // the start data comes before the module script is run, inside <body>
    expect(res.text.indexOf('id="start-data"')).toBeGreaterThan(res.text.indexOf('<body>'));
  });

  it('adds user and permissions for a logged-in visitor, private to them', async () => {
    const res = await send(`${gw.url}/library`, { headers: { ...HTML, cookie: `token=${backend.adminToken}` } });
    const data = startDataOf(res.text);
    expect(data.user).toEqual(backend.accounts.get(backend.adminToken)!.user);
    expect(data.permissions).toEqual(backend.accounts.get(backend.adminToken)!.permissions);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.text).not.toContain(backend.adminToken);
  });

  it('reuses the public part instead of asking the backend on every page', async () => {
    await send(`${gw.url}/`, { headers: HTML });
    await send(`${gw.url}/vip`, { headers: HTML });
    await send(`${gw.url}/library`, { headers: HTML });
    expect(backend.calls.get('/api/v1/settings') ?? 0).toBeLessThanOrEqual(1);
  });

  it('refreshes head and start data after an admin config change passes through', async () => {
    await send(`${gw.url}/`, { headers: HTML });
    const write = await send(`${gw.url}/api/v1/config`, {
      method: 'PUT',
      headers: sameOrigin(gw.url, { cookie: `token=${backend.adminToken}`, 'content-type': 'application/json' }),
      body: JSON.stringify({ config: [{ id: 2, category: 'system', name: 'title', value: '新的标题 $& $1' }] }),
    });
    expect(write.status).toBe(200);
    const res = await send(`${gw.url}/`, { headers: HTML });
    expect(res.text).toContain('<title>新的标题 $&#38; $1</title>');
    expect(startDataOf(res.text).settings.system?.title).toBe('新的标题 $& $1');
  });

  it('refreshes after navigation and category changes too', async () => {
    await send(`${gw.url}/`, { headers: HTML });
    const headers = sameOrigin(gw.url, { cookie: `token=${backend.adminToken}`, 'content-type': 'application/json' });
    await send(`${gw.url}/api/v1/navigation`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: '新导航', enable: true }),
    });
    expect(startDataOf((await send(`${gw.url}/`, { headers: HTML })).text).navigation.map((n) => n.title)).toContain(
      '新导航',
    );
    await send(`${gw.url}/api/v1/category`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: '新分类', type: 1 }),
    });
    expect(startDataOf((await send(`${gw.url}/`, { headers: HTML })).text).categories.map((c) => c.title)).toContain(
      '新分类',
    );
  });

  it('serves a page saying the service is unavailable (503, without start data) when the backend is down', async () => {
    const down = await startGateway('http://127.0.0.1:1');
    try {
      const res = await send(`${down.url}/library`, { headers: HTML });
      expect(res.status).toBe(503);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['retry-after']).toBe('10');
      expect(res.text).toContain('<title>服务暂时不可用，请稍后再试</title>');
      expect(res.text).toContain('<meta name="robots" content="noindex">');
      // Visible to people (not the crawlers' content the app hides), with a way to load it again.
      expect(res.text).toMatch(
        /<main class="app-unavailable" data-unavailable role="alert"><h1>服务暂时不可用，请稍后再试<\/h1>/,
      );
      expect(res.text).toContain('<a class="app-unavailable__retry" href="/library">重试</a>');
      expect(res.text).not.toContain('id="start-data"');
    } finally {
      await down.close();
    }
  });

  it('answers HEAD like GET without a body', async () => {
    const res = await send(`${gw.url}/library`, { method: 'HEAD', headers: HTML });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body.length).toBe(0);
  });
});

describe('what never gets the page', () => {
  it('answers unknown /api paths with JSON 404 whatever the Accept header', async () => {
    for (const path of ['/api', '/api/', '/api/v2/user', '/API/v1/user', '/api/x/../v2']) {
      const res = await sendRaw(gw.url, path, { headers: HTML });
      expect(res.status, path).toBe(404);
      expect(res.headers['content-type'], path).toMatch(/^application\/json/);
      expect(res.text, path).not.toContain('<html');
    }
  });

  it('passes an unknown /api/v1 path to the backend and returns its 404', async () => {
    const res = await send(`${gw.url}/api/v1/nothing/here`, { headers: HTML });
    expect(res.status).toBe(404);
    expect(res.text).toBe('Not Found\n');
  });

  it('answers non-page requests to unknown paths with JSON 404', async () => {
    const cases: Array<[string, Record<string, string>]> = [
      ['/library', { accept: 'application/json' }],
      ['/missing.png', { accept: '*/*' }],
      ['/missing.js', {}],
    ];
    for (const [path, headers] of cases) {
      const res = await send(`${gw.url}${path}`, { headers });
      expect(res.status, path).toBe(404);
      expect(res.headers['content-type'], path).toMatch(/^application\/json/);
    }
    const post = await send(`${gw.url}/library`, { method: 'POST', headers: HTML, body: '' });
    expect(post.status).toBe(404);
  });
});
