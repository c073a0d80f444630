import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLOCK_TOLERANCE_S } from '../../shared/clocks';
import type { StartData } from '../../shared/types/start-data';
import {
  cookieAttributes,
  makeJwt,
  sameOrigin,
  send,
  sendRaw,
  startGateway,
  type Answer,
  type TestGateway,
} from './helpers';
import { ADMIN_PERMISSIONS, startFakeBackend, type FakeBackend } from './fake-backend';

const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

let backend: FakeBackend;
let gw: TestGateway;

beforeAll(async () => {
  backend = await startFakeBackend();
  gw = await startGateway(backend.url, { sessionCacheTtlMs: 60_000 });
});
afterAll(async () => {
  await gw.close();
  await backend.close();
});
afterEach(() => {
  backend.calls.clear();
});

type Who = 'anonymous' | 'member' | 'admin';

function visit(path: string, who: Who, target: TestGateway = gw): Promise<Answer> {
  const token = who === 'member' ? backend.memberToken : who === 'admin' ? backend.adminToken : undefined;
  return sendRaw(target.url, path, { headers: token ? { ...HTML, cookie: `token=${token}` } : HTML });
}

function startDataOf(html: string): StartData {
  return JSON.parse(/id="start-data">(.*?)<\/script>/s.exec(html)![1]!) as StartData;
}

function loginRedirectOf(res: Answer): string | null {
  expect(res.status).toBe(302);
  const location = new URL(String(res.headers.location), 'http://site.test');
  expect(location.pathname).toBe('/auth/login');
  return location.searchParams.get('redirect');
}

describe('page guard: docs/product.md §2 access rules', () => {
  // [path, anonymous, member (no admin pages), admin (user list + config)]
  const matrix: Array<[string, string, string, string]> = [
    ['/', 'page', 'page', 'page'],
    ['/vip', 'page', 'page', 'page'],
    ['/library/1', 'page', 'page', 'page'],
    ['/auth/login', 'page', 'page', 'page'],
    ['/member', 'login', 'page', 'page'],
    ['/member/order', 'login', 'page', 'page'],
    ['/member/profile/', 'login', 'page', 'page'],
    ['/member/article/set', 'login', 'page', 'page'],
    ['/vip/checkout', 'login', 'page', 'page'],
    ['/admin', 'login', 'page', 'page'],
    ['/admin/index', 'login', 'page', 'page'],
    ['/admin/dashboard', 'login', 'page', 'page'],
    ['/admin/user/list', 'login', 'home', 'page'],
    ['/admin/user/list/', 'login', 'home', 'page'],
    ['/admin/config/system', 'login', 'home', 'page'],
    ['/admin/document/list', 'login', 'home', 'home'],
    ['/admin/user/group', 'login', 'home', 'home'],
    // No admin screen at all: the 404 screen, not a trip home.
    ['/admin/nothing', 'login', 'missing', 'missing'],
    ['/admin/order/notification', 'login', 'missing', 'missing'],
  ];

  for (const [path, ...expected] of matrix) {
    (['anonymous', 'member', 'admin'] as const).forEach((who, i) => {
      const outcome = expected[i];
      it(`${who} → ${path} → ${outcome}`, async () => {
        const res = await visit(path, who);
        if (outcome === 'page' || outcome === 'missing') {
          expect(res.status).toBe(outcome === 'page' ? 200 : 404);
          expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        } else if (outcome === 'login') {
          // the canonical path: trailing slash dropped
          expect(loginRedirectOf(res)).toBe(path.replace(/(.)\/$/, '$1'));
        } else {
          // Home, naming the page refused, so that the SPA says 无权限 there.
          expect(res.status).toBe(302);
          expect(res.headers.location).toBe(`/?denied=${encodeURIComponent(path.replace(/(.)\/$/, '$1'))}`);
        }
        if (res.status === 302) expect(res.headers['cache-control']).toBe('no-store');
      });
    });
  }
});

describe('page guard: paths that normalise to a guarded path are guarded', () => {
  const bypasses = [
    '//admin/user/list',
    '/x/../admin/user/list',
    '/./admin/user/list',
    '/%61dmin/user/list',
    '/admin;x/user/list',
    '/admin/user/list;jsessionid=1',
    '/ADMIN/user/list',
    '/admin//user///list',
    '/member/../admin/user/list',
  ];
  for (const path of bypasses) {
    it(`guards ${path}`, async () => {
      const anonymous = await visit(path, 'anonymous');
      expect(anonymous.status).toBe(302);
      expect(String(anonymous.headers.location)).toMatch(/^\/auth\/login\?redirect=%2F(?:admin|ADMIN)%2Fuser%2Flist/);
      const member = await visit(path, 'member');
      expect(member.status).toBe(302);
      expect(member.headers.location).toBe('/?denied=%2Fadmin%2Fuser%2Flist');
    });
  }

  for (const path of [
    '/admin%2fuser%2flist',
    '/admin%2Fuser/list',
    '/admin%5cuser',
    '/admin\\user\\list',
    '/%2561dmin/user/list',
    '/admin/%00',
  ]) {
    it(`refuses ${path} with 404`, async () => {
      const res = await visit(path, 'anonymous');
      expect(res.status).toBe(404);
      expect(res.text).not.toContain('<html');
    });
  }

  it('guards /member reached through dot segments and double slashes', async () => {
    for (const path of ['//member', '/x/../member/order', '/%6Dember', '/member;x']) {
      expect((await visit(path, 'anonymous')).status, path).toBe(302);
    }
  });
});

describe('page guard: the login redirect', () => {
  it('keeps the original path and query intact, Chinese included', async () => {
    const original = '/member/order?status=%E5%B7%B2%E6%94%AF%E4%BB%98&page=2&a=b%26c';
    expect(loginRedirectOf(await visit(original, 'anonymous'))).toBe(original);
    const chinesePath = '/member/%E8%AE%A2%E5%8D%95?q=%E6%96%87%E6%A1%A3';
    expect(loginRedirectOf(await visit(chinesePath, 'anonymous'))).toBe(chinesePath);
  });

  it('sends a visitor with an expired or garbage cookie to login and clears the cookie', async () => {
    for (const token of [makeJwt({ exp: Math.floor(Date.now() / 1000) - 600 }), 'garbage', 'a.b']) {
      const res = await sendRaw(gw.url, '/member', { headers: { ...HTML, cookie: `token=${token}` } });
      expect(loginRedirectOf(res)).toBe('/member');
      expect(cookieAttributes(res.setCookies[0]!).get('max-age')).toBe('0');
    }
    expect(backend.calls.get('/api/v1/user') ?? 0).toBe(0);
  });

  it("lets a member through whose token expired by this clock less than the backend's tolerance ago", async () => {
    // A gateway a minute ahead of the clock that issued the token: the backend still takes it
    // (CLOCK_TOLERANCE_S), so the page is the member's, not the login page.
    const nowS = Math.floor(Date.now() / 1000);
    const aMinuteAgo = makeJwt({ UserId: 5, UUID: 'a-minute-ago', exp: nowS - 60 });
    const tenMinutesAgo = makeJwt({ UserId: 5, UUID: 'ten-minutes-ago', exp: nowS - 600 });
    for (const token of [aMinuteAgo, tenMinutesAgo])
      backend.accounts.set(token, { user: { id: 5, username: 'ahead', group_id: [2] }, permissions: [] });
    try {
      const through = await sendRaw(gw.url, '/member', { headers: { ...HTML, cookie: `token=${aMinuteAgo}` } });
      expect(through.status).toBe(200);
      expect(through.setCookies).toEqual([]);
      expect(backend.calls.get('/api/v1/user')).toBe(1);
      // Past the tolerance the backend refuses it too: not asked.
      const over = await sendRaw(gw.url, '/member', { headers: { ...HTML, cookie: `token=${tenMinutesAgo}` } });
      expect(loginRedirectOf(over)).toBe('/member');
      expect(cookieAttributes(over.setCookies[0]!).get('max-age')).toBe('0');
      expect(backend.calls.get('/api/v1/user')).toBe(1);
    } finally {
      for (const token of [aMinuteAgo, tenMinutesAgo]) backend.accounts.delete(token);
    }
  });

  it("keeps the session of a token past its exp but within the tolerance, until the backend's end of it", async () => {
    // The backend takes it for the tolerance past exp (shared/clocks expiryMs): the pages of those
    // minutes reuse the session as any other's, and once the backend's end of it is past, none does.
    const fresh = await startGateway(backend.url, { sessionCacheTtlMs: 60_000 });
    const exp = Math.floor(Date.now() / 1000) - 60;
    const aMinuteAgo = makeJwt({ UserId: 5, UUID: 'kept-past-exp', exp });
    backend.accounts.set(aMinuteAgo, { user: { id: 5, username: 'ahead', group_id: [2] }, permissions: [] });
    const page = () => sendRaw(fresh.url, '/member', { headers: { ...HTML, cookie: `token=${aMinuteAgo}` } });
    try {
      for (let i = 0; i < 3; i++) expect((await page()).status).toBe(200);
      expect(backend.calls.get('/api/v1/user')).toBe(1);
      vi.useFakeTimers({ toFake: ['Date'], now: (exp + CLOCK_TOLERANCE_S) * 1000, shouldAdvanceTime: true });
      expect(loginRedirectOf(await page())).toBe('/member');
      expect(backend.calls.get('/api/v1/user')).toBe(1);
    } finally {
      vi.useRealTimers();
      backend.accounts.delete(aMinuteAgo);
      await fresh.close();
    }
  });

  it('sends a visitor whose token the backend rejects (401) to login and clears the cookie', async () => {
    for (const path of ['/member', '/admin/user/list']) {
      const res = await sendRaw(gw.url, path, { headers: { ...HTML, cookie: `token=${backend.revokedToken}` } });
      expect(loginRedirectOf(res)).toBe(path);
      expect(cookieAttributes(res.setCookies[0]!).get('max-age')).toBe('0');
    }
  });

  it('serves a public page to a rejected token as anonymous, clearing the cookie', async () => {
    const res = await sendRaw(gw.url, '/library', { headers: { ...HTML, cookie: `token=${backend.revokedToken}` } });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('"user"');
    expect(cookieAttributes(res.setCookies[0]!).get('max-age')).toBe('0');
  });
});

describe('page guard: permissions', () => {
  it('reuses the permissions of a token for a while instead of asking on every page', async () => {
    const fresh = await startGateway(backend.url, { sessionCacheTtlMs: 60_000 });
    try {
      for (let i = 0; i < 3; i++) expect((await visit('/admin/user/list', 'admin', fresh)).status).toBe(200);
      expect(backend.calls.get('/api/v1/user/permission')).toBe(1);
    } finally {
      await fresh.close();
    }
  });

  it('asks again once the cached permissions have expired', async () => {
    const fresh = await startGateway(backend.url, { sessionCacheTtlMs: 50 });
    try {
      await visit('/admin/user/list', 'admin', fresh);
      await new Promise((r) => setTimeout(r, 80));
      await visit('/admin/user/list', 'admin', fresh);
      expect(backend.calls.get('/api/v1/user/permission')).toBe(2);
    } finally {
      await fresh.close();
    }
  });

  it('keeps the cache bounded: the oldest token is dropped first', async () => {
    const fresh = await startGateway(backend.url, { sessionCacheTtlMs: 60_000, sessionCacheMax: 1 });
    try {
      await visit('/admin/user/list', 'admin', fresh);
      await visit('/member', 'member', fresh);
      await visit('/admin/user/list', 'admin', fresh);
      expect(backend.calls.get('/api/v1/user/permission')).toBe(3);
      expect(backend.calls.get('/api/v1/user')).toBe(3);
    } finally {
      await fresh.close();
    }
  });

  it('drops a session once its token has expired, so it pushes out no live one', async () => {
    const fresh = await startGateway(backend.url, { sessionCacheTtlMs: 60_000, sessionCacheMax: 2 });
    // Its end (exp and the tolerance the backend allows) 30 s away, within the cache's time for the admin's session.
    const exp = Math.floor(Date.now() / 1000) - CLOCK_TOLERANCE_S + 30;
    const shortLived = makeJwt({ UserId: 4, UUID: 'short-lived', exp });
    backend.accounts.set(shortLived, { user: { id: 4, username: 'reader', group_id: [2] }, permissions: [] });
    try {
      await visit('/member', 'admin', fresh);
      const res = await sendRaw(fresh.url, '/member', { headers: { ...HTML, cookie: `token=${shortLived}` } });
      expect(res.status).toBe(200);
      // Past the short-lived token's end, within the cache's time for the admin's session.
      vi.useFakeTimers({ toFake: ['Date'], now: (exp + CLOCK_TOLERANCE_S) * 1000 + 1_000, shouldAdvanceTime: true });
      await visit('/member', 'member', fresh);
      // Kept: the expired session went, not the admin's, the oldest.
      await visit('/member', 'admin', fresh);
      expect(backend.calls.get('/api/v1/user')).toBe(3);
    } finally {
      vi.useRealTimers();
      backend.accounts.delete(shortLived);
      await fresh.close();
    }
  });

  it('answers the page saying the service is unavailable, keeping the cookie, when the backend cannot say who the user is', async () => {
    const down = await startGateway('http://127.0.0.1:1');
    try {
      // Not a guess (the admin page, or the login page for a member taken for a visitor), not JSON.
      for (const path of ['/admin/user/list', '/member', '/library?page=2']) {
        const res = await visit(path, path === '/member' ? 'member' : 'admin', down);
        expect(res.status, path).toBe(503);
        expect(res.headers['content-type'], path).toMatch(/^text\/html/);
        expect(res.headers['cache-control'], path).toBe('no-store');
        expect(res.headers['set-cookie'], path).toBeUndefined();
        expect(res.text, path).toContain('<h1>服务暂时不可用，请稍后再试</h1>');
        expect(res.text, path).toContain(`href="${path}"`);
        expect(res.text, path).not.toContain('id="start-data"');
      }
    } finally {
      await down.close();
    }
  });
});

describe('page guard: the current user, kept with the permissions', () => {
  // Each test gets a backend and a gateway of its own: they change accounts.
  let own: FakeBackend;
  let site: TestGateway;
  beforeEach(async () => {
    own = await startFakeBackend();
    site = await startGateway(own.url, { sessionCacheTtlMs: 60_000 });
  });
  afterEach(async () => {
    await site.close();
    await own.close();
  });

  const page = (path: string, token: string) =>
    sendRaw(site.url, path, { headers: { ...HTML, cookie: `token=${token}` } });
  const write = (method: string, path: string, token: string, body: unknown = {}) =>
    send(`${site.url}${path}`, {
      method,
      headers: sameOrigin(site.url, { cookie: `token=${token}`, 'content-type': 'application/json' }),
      body: JSON.stringify(body),
    });
  const userCalls = () => own.calls.get('/api/v1/user') ?? 0;

  it('asks the backend for the user once per token for a while, not on every page', async () => {
    for (const path of ['/member', '/admin/dashboard', '/library', '/admin/user/list']) {
      const res = await page(path, own.adminToken);
      expect(res.status, path).toBe(200);
      expect(startDataOf(res.text).user?.username, path).toBe('admin');
    }
    expect(userCalls()).toBe(1);
    expect(own.calls.get('/api/v1/user/permission')).toBe(1);
  });

  it('never answers an API call from it: GET /api/v1/user still goes to the backend', async () => {
    await page('/member', own.memberToken);
    for (let i = 0; i < 2; i++) {
      const res = await send(`${site.url}/api/v1/user`, { headers: { cookie: `token=${own.memberToken}` } });
      expect(res.json<{ username: string }>().username).toBe('member');
    }
    expect(userCalls()).toBe(3);
  });

  it('shows the new profile on the next page after an update through the gateway', async () => {
    expect(startDataOf((await page('/member', own.memberToken)).text).user?.signature).toBeUndefined();
    expect((await write('PUT', '/api/v1/user/profile', own.memberToken, { id: 2, signature: '新的签名' })).status).toBe(
      200,
    );
    expect(startDataOf((await page('/member', own.memberToken)).text).user?.signature).toBe('新的签名');
    expect(userCalls()).toBe(2);
  });

  it('asks again after a write sent with the token as a bearer header (an API client)', async () => {
    await page('/member', own.memberToken);
    await send(`${site.url}/api/v1/user/sign`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${own.memberToken}` },
    });
    await page('/member', own.memberToken);
    expect(userCalls()).toBe(2);
  });

  it('asks again after any other write with the token, whatever its answer (credits, counters)', async () => {
    await page('/member', own.memberToken);
    await write('PUT', '/api/v1/user/sign', own.memberToken);
    await page('/member', own.memberToken);
    expect(userCalls()).toBe(2);
  });

  it('forgets the session at logout: the revoked token is sent to login on its next page', async () => {
    expect((await page('/member', own.memberToken)).status).toBe(200);
    await write('DELETE', '/api/v1/user/logout', own.memberToken);
    own.accounts.delete(own.memberToken); // the backend blacklisted it
    const res = await page('/member', own.memberToken);
    expect(loginRedirectOf(res)).toBe('/member');
  });

  it('forgets a session as soon as the backend answers 401 for its token to any call', async () => {
    expect((await page('/member', own.memberToken)).status).toBe(200);
    own.accounts.delete(own.memberToken); // revoked elsewhere (another gateway, an admin)
    expect((await send(`${site.url}/api/v1/user`, { headers: { cookie: `token=${own.memberToken}` } })).status).toBe(
      401,
    );
    expect(loginRedirectOf(await page('/member', own.memberToken))).toBe('/member');
  });

  it("drops every session after an admin changes a user's groups, so the user's next page has the new rights", async () => {
    expect((await page('/admin/user/list', own.memberToken)).headers.location).toBe('/?denied=%2Fadmin%2Fuser%2Flist');
    expect((await write('PUT', '/api/v1/user', own.adminToken, { id: 2, group_id: [1] })).status).toBe(200);
    const res = await page('/admin/user/list', own.memberToken);
    expect(res.status).toBe(200);
    expect(startDataOf(res.text).permissions).toEqual(ADMIN_PERMISSIONS);
  });

  it('serves the page of a session again and again, unchanged', async () => {
    const first = await page('/admin/dashboard', own.adminToken);
    const second = await page('/admin/dashboard', own.adminToken);
    expect(second.text).toBe(first.text);
    expect(second.headers['content-length']).toBe(String(Buffer.byteLength(first.text)));
    expect(second.headers['cache-control']).toBe('private, no-cache');
  });
});
