// The site switches of the security settings (security.is_close, security.login_required),
// enforced by the page guard from the cached public settings.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Settings } from '../../shared/types/config';
import type { StartData } from '../../shared/types/start-data';
import { json, sameOrigin, send, sendRaw, startGateway, startStub, type Answer, type TestGateway } from './helpers';
import { startFakeBackend, type FakeBackend } from './fake-backend';

const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
const STATEMENT = '网站升级维护中，预计 <明天> 恢复访问 & 敬请谅解';

let backend: FakeBackend;
/** start data reloaded on every page, so that a test can flip the switches in the backend */
let gw: TestGateway;
const initialSecurity = () => ({ enable_register: true });

beforeAll(async () => {
  backend = await startFakeBackend();
  gw = await startGateway(backend.url, { startDataTtlMs: 0 });
});
afterAll(async () => {
  await gw.close();
  await backend.close();
});
afterEach(() => {
  backend.settings.security = initialSecurity();
  backend.calls.clear();
});

type Who = 'anonymous' | 'member' | 'admin';

function visit(path: string, who: Who, target: TestGateway = gw): Promise<Answer> {
  const token = who === 'member' ? backend.memberToken : who === 'admin' ? backend.adminToken : undefined;
  return sendRaw(target.url, path, { headers: token ? { ...HTML, cookie: `token=${token}` } : HTML });
}

function switches(security: NonNullable<Settings['security']>) {
  backend.settings.security = { ...initialSecurity(), ...security };
}

function startDataOf(html: string): StartData {
  const match = /<script type="application\/json" id="start-data">(.*?)<\/script>/s.exec(html);
  if (!match) throw new Error('no start data in the page');
  return JSON.parse(match[1]!) as StartData;
}

/** 'page' (200), 'closed' (503 page), 'unavailable' (503 page saying the service is), or the Location of a 302 */
function outcomeOf(res: Answer): string {
  if (res.status === 302) return String(res.headers.location);
  if (res.status === 200 && String(res.headers['content-type']).startsWith('text/html')) return 'page';
  if (res.status === 503 && String(res.headers['content-type']).startsWith('text/html'))
    return res.text.includes('data-unavailable') ? 'unavailable' : 'closed';
  return `status ${res.status}`;
}

describe('site switches: closed site (security.is_close)', () => {
  // [path, anonymous, member, admin]
  const matrix: Array<[string, string, string, string]> = [
    ['/', '/auth/login', 'closed', 'page'],
    ['/library?wd=%E6%96%87', '/auth/login?redirect=%2Flibrary%3Fwd%3D%25E6%2596%2587', 'closed', 'page'],
    ['/auth/login', 'page', 'page', 'page'],
    ['/auth/login?redirect=%2Fmember', 'page', 'page', 'page'],
    ['/auth/forgot', 'page', 'page', 'page'],
    ['/oauth/callback?code=c&state=s', 'page', 'page', 'page'],
    ['/auth/register', '/auth/login', 'closed', 'page'],
    ['/member/order', '/auth/login?redirect=%2Fmember%2Forder', 'closed', 'page'],
    ['/admin/dashboard', '/auth/login?redirect=%2Fadmin%2Fdashboard', 'closed', 'page'],
    ['/admin/config/security', '/auth/login?redirect=%2Fadmin%2Fconfig%2Fsecurity', 'closed', 'page'],
    // the admin rules keep applying on top
    [
      '/admin/document/list',
      '/auth/login?redirect=%2Fadmin%2Fdocument%2Flist',
      'closed',
      '/?denied=%2Fadmin%2Fdocument%2Flist',
    ],
  ];
  for (const [path, ...expected] of matrix) {
    (['anonymous', 'member', 'admin'] as const).forEach((who, i) => {
      it(`${who} → ${path} → ${expected[i]}`, async () => {
        switches({ is_close: true, close_statement: STATEMENT });
        expect(outcomeOf(await visit(path, who))).toBe(expected[i]);
      });
    });
  }

  it('answers a member 503 with the page, the statement and the user in the start data, never cached', async () => {
    switches({ is_close: true, close_statement: STATEMENT });
    const res = await visit('/library', 'member');
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers.vary).toBe('Accept-Encoding, Cookie');
    expect(res.text).toContain('<title>站点已关闭 - 魔豆文库</title>');
    expect(res.text).toContain('<meta name="robots" content="noindex, nofollow">');
    const start = startDataOf(res.text);
    expect(start.settings.security).toMatchObject({ is_close: true, close_statement: STATEMENT });
    expect(start.user?.username).toBe('member');
    expect(start.permissions).toEqual([]);
    // the statement only travels as JSON: no markup of its own in the page
    expect(res.text).not.toContain('<明天>');
  });

  it('keeps the redirect of an anonymous visitor a same-origin path', async () => {
    switches({ is_close: true });
    const res = await sendRaw(gw.url, '//evil.com/x?next=//evil.com', { headers: HTML });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/auth/login?redirect=%2Fevil.com%2Fx%3Fnext%3D%2F%2Fevil.com');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers the page saying the service is unavailable rather than guessing when the permissions of a logged-in user cannot be loaded', async () => {
    const flaky = await startStub((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      if (path === '/api/v1/settings') return json(res, 200, { system: {}, security: { is_close: true } });
      if (path === '/api/v1/navigation/list') return json(res, 200, { navigation: [] });
      if (path === '/api/v1/category/list') return json(res, 200, { category: [] });
      if (path === '/api/v1/user') return json(res, 200, { id: 1, username: 'admin' });
      return json(res, 500, { code: 13, message: 'internal' });
    });
    const target = await startGateway(flaky.url);
    try {
      const res = await visit('/', 'admin', target);
      expect(outcomeOf(res)).toBe('unavailable');
      expect(res.headers['cache-control']).toBe('no-store');
    } finally {
      await target.close();
      await flaky.close();
    }
  });
});

describe('site switches: login required (security.login_required)', () => {
  const matrix: Array<[string, string, string, string]> = [
    ['/', '/auth/login', 'page', 'page'],
    ['/library', '/auth/login?redirect=%2Flibrary', 'page', 'page'],
    ['/library/1?page=3', '/auth/login?redirect=%2Flibrary%2F1%3Fpage%3D3', 'page', 'page'],
    ['/auth/login', 'page', 'page', 'page'],
    ['/auth/register', 'page', 'page', 'page'],
    ['/auth/forgot', 'page', 'page', 'page'],
    ['/oauth/callback', 'page', 'page', 'page'],
    ['/member', '/auth/login?redirect=%2Fmember', 'page', 'page'],
    ['/admin/user/list', '/auth/login?redirect=%2Fadmin%2Fuser%2Flist', '/?denied=%2Fadmin%2Fuser%2Flist', 'page'],
  ];
  for (const [path, ...expected] of matrix) {
    (['anonymous', 'member', 'admin'] as const).forEach((who, i) => {
      it(`${who} → ${path} → ${expected[i]}`, async () => {
        switches({ login_required: true });
        expect(outcomeOf(await visit(path, who))).toBe(expected[i]);
      });
    });
  }
});

describe("site switches: the footer's article pages (decision 097)", () => {
  afterEach(() => {
    delete backend.settings.footer;
  });

  it('serves them to visitors of a site open to members only, who agree to them at registration; not of a closed one', async () => {
    backend.settings.footer = { agreement: '/article/agreement', privacy: '/article/privacy', feedback: '/feedback' };
    switches({ login_required: true });
    expect(outcomeOf(await visit('/article/detail/agreement', 'anonymous'))).toBe('page');
    expect(outcomeOf(await visit('/article/privacy', 'anonymous'))).toBe('page');
    expect(outcomeOf(await visit('/article/detail/news', 'anonymous'))).toBe(
      '/auth/login?redirect=%2Farticle%2Fdetail%2Fnews',
    );
    switches({ is_close: true });
    expect(outcomeOf(await visit('/article/detail/agreement', 'anonymous'))).toBe(
      '/auth/login?redirect=%2Farticle%2Fdetail%2Fagreement',
    );
  });
});

describe('site switches: off, unknown, changed', () => {
  it('serves public pages to anybody when both switches are off', async () => {
    for (const who of ['anonymous', 'member', 'admin'] as const) {
      expect(outcomeOf(await visit('/library', who)), who).toBe('page');
    }
  });

  it('behaves as without the switches when the settings cannot be loaded, a page it serves saying the service is unavailable', async () => {
    const down = await startGateway('http://127.0.0.1:1');
    try {
      expect(outcomeOf(await visit('/', 'anonymous', down))).toBe('unavailable');
      expect(outcomeOf(await visit('/member', 'anonymous', down))).toBe('/auth/login?redirect=%2Fmember');
      expect(outcomeOf(await visit('/member', 'member', down))).toBe('unavailable');
    } finally {
      await down.close();
    }
  });

  it('applies a switch changed through the gateway on the next page load, whatever the cache lifetime', async () => {
    const cached = await startGateway(backend.url, { startDataTtlMs: 600_000 });
    const write = (name: string, value: string) =>
      send(`${cached.url}/api/v1/config`, {
        method: 'PUT',
        headers: sameOrigin(cached.url, { cookie: `token=${backend.adminToken}`, 'content-type': 'application/json' }),
        body: JSON.stringify({ config: [{ id: 1, category: 'security', name, value }] }),
      });
    try {
      expect(outcomeOf(await visit('/', 'anonymous', cached))).toBe('page');
      expect((await write('is_close', 'true')).status).toBe(200);
      expect(outcomeOf(await visit('/', 'anonymous', cached))).toBe('/auth/login');
      expect(outcomeOf(await visit('/', 'member', cached))).toBe('closed');
      expect(outcomeOf(await visit('/', 'admin', cached))).toBe('page');
      expect((await write('is_close', 'false')).status).toBe(200);
      expect(outcomeOf(await visit('/', 'member', cached))).toBe('page');
      expect((await write('login_required', 'true')).status).toBe(200);
      expect(outcomeOf(await visit('/library', 'anonymous', cached))).toBe('/auth/login?redirect=%2Flibrary');
    } finally {
      await cached.close();
    }
  });
});

describe('robots.txt and the site domain (system.domain)', () => {
  it('names the sitemap only while 网站域名 is set: the backend writes none before', async () => {
    const system = backend.settings.system;
    try {
      backend.settings.system = { ...system, domain: '' };
      const without = await send(`${gw.url}/robots.txt`);
      expect(without.status).toBe(200);
      expect(without.text).toContain('Disallow: /admin');
      expect(without.text).not.toContain('Sitemap:');

      backend.settings.system = { ...system, domain: 'https://docs.example.com/' };
      expect((await send(`${gw.url}/robots.txt`)).text.split('\n')).toContain(`Sitemap: ${gw.url}/sitemap.xml`);
    } finally {
      backend.settings.system = system;
    }
  });
});
