import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import type { Navigation } from '../../shared/types/navigation';
import type { StartData } from '../../shared/types/start-data';
import { CACHE_RULES, stalenessAfter } from '../../gateway/cache-rules';
import { json, makeJwt, sameOrigin, send, startGateway, startStub, type Stub, type TestGateway } from './helpers';
import { startFakeBackend, type FakeBackend } from './fake-backend';

const HTML = { accept: 'text/html' };

function startDataOf(html: string): StartData {
  return JSON.parse(/id="start-data">(.*?)<\/script>/s.exec(html)![1]!) as StartData;
}

describe('stale data is dropped before the answer leaves', () => {
  // The backend answers these writes with a body it holds back until the test has loaded
  // the next page: a drop made once the answer has gone out (onResponse) comes too late.
  let backend: Stub;
  let gw: TestGateway;
  const navigation: Navigation[] = [{ id: 1, title: '首页', href: '/', enable: true }];
  let signature = '旧的签名';
  let releaseAnswer: () => void = () => undefined;
  const token = makeJwt({ UserId: 1 });

  beforeAll(async () => {
    backend = await startStub(async (req, res, body) => {
      const key = `${req.method} ${(req.url ?? '').split('?')[0]}`;
      if (key === 'GET /api/v1/settings') return json(res, 200, { system: { title: '文库' } });
      if (key === 'GET /api/v1/navigation/list') return json(res, 200, { navigation });
      if (key === 'GET /api/v1/category/list') return json(res, 200, { category: [] });
      if (key === 'GET /api/v1/user') return json(res, 200, { id: 1, username: 'admin', signature });
      if (key === 'GET /api/v1/user/permission') return json(res, 200, {});
      if (key === 'POST /api/v1/navigation')
        navigation.push({ id: 2, ...(JSON.parse(body.toString('utf8')) as Navigation) });
      else if (key === 'PUT /api/v1/user/profile')
        signature = (JSON.parse(body.toString('utf8')) as { signature: string }).signature;
      else return json(res, 404, {});
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.write('applied');
      await new Promise<void>((resolve) => (releaseAnswer = resolve));
      res.end();
    });
    gw = await startGateway(backend.url, { startDataTtlMs: 60_000, sessionCacheTtlMs: 60_000 });
  });
  afterAll(async () => {
    await gw.close();
    await backend.close();
  });

  /** Sends the write and resolves at its answer's headers, while the body is still held back. */
  async function writeUntilHeaders(method: 'POST' | 'PUT', path: string, body: unknown) {
    const res = await request(`${gw.url}${path}`, {
      method,
      headers: sameOrigin(gw.url, { cookie: `token=${token}`, 'content-type': 'application/json' }),
      body: JSON.stringify(body),
    });
    expect(res.statusCode).toBe(200);
    return res;
  }
  const page = (withToken: boolean) =>
    send(`${gw.url}/`, { headers: withToken ? { ...HTML, cookie: `token=${token}` } : HTML });

  it('shows a new navigation item on a page loaded as soon as the write is answered', async () => {
    expect(startDataOf((await page(false)).text).navigation.map((n) => n.title)).toEqual(['首页']);
    const write = await writeUntilHeaders('POST', '/api/v1/navigation', { title: '刚加的导航', enable: true });
    try {
      expect(startDataOf((await page(false)).text).navigation.map((n) => n.title)).toEqual(['首页', '刚加的导航']);
    } finally {
      releaseAnswer();
      await write.body.text();
    }
  });

  it("shows the writer's new profile on a page loaded as soon as the write is answered", async () => {
    expect(startDataOf((await page(true)).text).user?.signature).toBe('旧的签名');
    const write = await writeUntilHeaders('PUT', '/api/v1/user/profile', { id: 1, signature: '新的签名' });
    try {
      expect(startDataOf((await page(true)).text).user?.signature).toBe('新的签名');
    } finally {
      releaseAnswer();
      await write.body.text();
    }
  });
});

describe('refused writes', () => {
  let backend: FakeBackend;
  let gw: TestGateway;
  beforeAll(async () => {
    backend = await startFakeBackend();
    gw = await startGateway(backend.url, { startDataTtlMs: 60_000, sessionCacheTtlMs: 60_000 });
  });
  afterAll(async () => {
    await gw.close();
    await backend.close();
  });

  it('keep the shared data: anonymous writes cannot empty the caches', async () => {
    const adminPage = () => send(`${gw.url}/`, { headers: { ...HTML, cookie: `token=${backend.adminToken}` } });
    await adminPage();
    const calls = () => [backend.calls.get('/api/v1/user'), backend.calls.get('/api/v1/settings')];
    const before = calls();
    for (const path of ['/api/v1/user', '/api/v1/group', '/api/v1/config']) {
      const refused = await send(`${gw.url}${path}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect([401, 404], path).toContain(refused.status);
    }
    await adminPage();
    expect(calls()).toEqual(before);
  });
});

describe('the table of cache rules', () => {
  const stale = (method: string, url: string, status = 200) => stalenessAfter(method, url, status);

  it('names, per write, the data it makes stale for everybody', () => {
    expect(stale('PUT', '/api/v1/config')).toEqual({
      ownSession: true,
      ownSessionEnded: false,
      sessions: false,
      publicStartData: true,
      routeData: true,
    });
    expect(stale('DELETE', '/api/v1/category?id=3')).toEqual({
      ownSession: true,
      ownSessionEnded: false,
      sessions: false,
      publicStartData: true,
      routeData: true,
    });
    expect(stale('POST', '/api/v1/navigation')).toMatchObject({ publicStartData: true });
    expect(stale('PUT', '/api/v1/language/enable')).toMatchObject({ publicStartData: true });
    expect(stale('PUT', '/api/v1/group/permission')).toEqual({
      ownSession: true,
      ownSessionEnded: false,
      sessions: true,
      publicStartData: false,
      routeData: false,
    });
    expect(stale('PUT', '/api/v1/user')).toMatchObject({ sessions: true });
    expect(stale('PUT', '/api/v1/user/password')).toMatchObject({ sessions: true });
    // a password reset by mail or SMS ends every session of the account, on every instance
    expect(stale('PUT', '/api/v1/user/findpassword/steptwo')).toMatchObject({ sessions: true });
    expect(stale('PUT', '/api/v1/user/findpassword/mobile')).toMatchObject({ sessions: true });
    // a logout ends its own session, on every instance
    expect(stale('DELETE', '/api/v1/user/logout')).toEqual({
      ownSession: true,
      ownSessionEnded: true,
      sessions: false,
      publicStartData: false,
      routeData: false,
    });
    // documents filed, unfiled, recycled or recovered change the categories' doc_count
    for (const [method, url] of [
      ['POST', '/api/v1/document'],
      ['DELETE', '/api/v1/document?id=1'],
      ['PUT', '/api/v1/document/category'],
      ['PUT', '/api/v1/document/recycle'],
      ['DELETE', '/api/v1/document/recycle/all'],
    ]) {
      expect(stale(method!, url!), url).toMatchObject({ publicStartData: true });
    }
    expect(stale('POST', '/api/v1/document/score')).toMatchObject({ publicStartData: false, routeData: true });
    // what the public pages show first
    for (const url of [
      '/api/v1/banner',
      '/api/v1/friendlink',
      '/api/v1/advertisement',
      '/api/v1/article/check',
      '/api/v1/comment',
      '/api/v1/favorite',
    ]) {
      expect(stale('POST', url), url).toMatchObject({ routeData: true, publicStartData: false });
    }
    expect(stale('POST', '/api/v1/navigation')).toMatchObject({ routeData: false });
    // the writer's own session only: check-in, and a path that only starts like a rule's
    expect(stale('PUT', '/api/v1/user/sign')).toEqual({
      ownSession: true,
      ownSessionEnded: false,
      sessions: false,
      publicStartData: false,
      routeData: false,
    });
    expect(stale('POST', '/api/v1/configuration')).toEqual({
      ownSession: true,
      ownSessionEnded: false,
      sessions: false,
      publicStartData: false,
      routeData: false,
    });
  });

  it('drops shared data after a write that failed on the way (5xx) but not after a refused one (4xx)', () => {
    expect(stale('PUT', '/api/v1/config', 504)).toMatchObject({ publicStartData: true });
    expect(stale('PUT', '/api/v1/config', 403)).toEqual({
      ownSession: true,
      ownSessionEnded: false,
      sessions: false,
      publicStartData: false,
      routeData: false,
    });
  });

  it('drops nothing after a read, except the session of a token the backend refused', () => {
    expect(stale('GET', '/api/v1/config/list')).toEqual({
      ownSession: false,
      ownSessionEnded: false,
      sessions: false,
      publicStartData: false,
      routeData: false,
    });
    expect(stale('GET', '/api/v1/user', 401)).toEqual({
      ownSession: true,
      ownSessionEnded: false,
      sessions: false,
      publicStartData: false,
      routeData: false,
    });
  });

  it("counts a download as the write it is: the buyer's session (credits) and the document's count", () => {
    expect(stale('GET', '/api/v1/document/download?id=3')).toEqual({
      ownSession: true,
      ownSessionEnded: false,
      sessions: false,
      publicStartData: false,
      routeData: true,
    });
    expect(stale('GET', '/api/v1/document/download?id=3', 403)).toEqual({
      ownSession: true,
      ownSessionEnded: false,
      sessions: false,
      publicStartData: false,
      routeData: false,
    });
  });

  it('holds only API paths', () => {
    for (const rule of CACHE_RULES) expect(rule.path).toMatch(/^\/api\/v1\/[a-z]+(?:\/[a-z]+)*$/);
  });
});
