// The sign-in rate limits against the real embedded backend, through every spelling of the
// limited paths that a server might route to the same handler (issue 18 §2.1).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalPath } from '../../gateway/http';
import { canonicalApiUrl } from '../../gateway/plugins/upstream';
import { startBackend, type StartedBackend } from '../helpers/backend';
import { json, sendRaw, startGateway, useGatewayOverStub, type TestGateway } from './helpers';

const MAX = 10;
const TRIES = 40;
const JSON_HEADERS = { 'content-type': 'application/json' };

let backend: StartedBackend;
beforeAll(async () => {
  backend = await startBackend();
});
afterAll(() => backend.close());

/** A gateway of its own for each spelling: the counters are per gateway. */
async function withGateway(work: (gw: TestGateway) => Promise<void>): Promise<void> {
  const gw = await startGateway(backend.url, { authRateLimit: { max: MAX, windowMs: 60_000 } });
  try {
    await work(gw);
  } finally {
    await gw.close();
  }
}

/** 404 from routing (no handler there) or 429 from the limit: the handler did not run. */
const reachedHandler = (status: number) => status !== 404 && status !== 429;

describe('the login limit holds whatever the spelling of the path', () => {
  const spellings = [
    '/api/v1/user/login',
    '/api/v1/user/%6cogin',
    '/api/v1/user/%6Cogin',
    '/api/v1/%75ser/login',
    '/%61pi/v1/user/login',
    '/api/v1/user/./login',
    '/api/v1/./user/login',
    '/api/v1/user/x/../login',
    '/api/v1/user/%2e/login',
    '/api/v1/user/%2e%2e/user/login',
    '//api/v1/user/login',
    '/api/v1//user/login',
    '/api/v1/user\\login',
    '/api/v1/user/login#fragment',
    '/api/v1/user/login?',
    '/API/V1/USER/LOGIN',
    '/api/v1/USER/LOGIN',
  ];

  for (const path of spellings) {
    it(`limits ${TRIES} tries at ${path}, after which the right password does not get in`, async () => {
      await withGateway(async (gw) => {
        const statuses: number[] = [];
        for (let i = 0; i < TRIES; i++) {
          const res = await sendRaw(gw.url, path, {
            method: 'POST',
            headers: JSON_HEADERS,
            body: JSON.stringify({ username: 'admin', password: `wrong-${i}` }),
          });
          statuses.push(res.status);
        }
        expect(statuses.filter(reachedHandler).length).toBeLessThanOrEqual(MAX);
        // Every try beyond the limit is refused by the gateway, or never had a handler.
        expect(statuses.slice(MAX).filter((status) => status !== 429 && status !== 404)).toEqual([]);
        const right = await sendRaw(gw.url, path, {
          method: 'POST',
          headers: JSON_HEADERS,
          body: JSON.stringify({ username: 'admin', password: backend.adminPassword }),
        });
        expect([429, 404]).toContain(right.status);
        expect(right.setCookies).toEqual([]);
      });
    });
  }

  it('still lets the right password in through the plain path before the limit', async () => {
    await withGateway(async (gw) => {
      const res = await sendRaw(gw.url, '/api/v1/user/%6cogin', {
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify({ username: 'admin', password: backend.adminPassword }),
      });
      expect(res.status).toBe(200);
      expect(res.setCookies[0]).toMatch(/^token=/);
    });
  });
});

describe('the other sign-in limits hold for encoded spellings', () => {
  const cases: Array<[method: string, path: string, body: (i: number) => unknown]> = [
    [
      'POST',
      '/api/v1/user/%72egister',
      (i) => ({ username: `bypass${process.pid}x${i}`, password: 'member-password' }),
    ],
    ['POST', '/api/v1/user/findpassword/%73tepone', () => ({ email: 'not-an-email' })],
    ['POST', '/api/v1/user/email/%63ode', () => ({ email: 'someone@example.com', type: 0 })],
    [
      'PUT',
      '/api/v1/user/findpassword/%73teptwo',
      () => ({ email: 'not-an-email', token: 'x', password: 'new-password' }),
    ],
    ['POST', '/api/v1/oauth/%6cogin', () => ({ type: 1, code: 'x', state: 'y' })],
  ];
  for (const [method, path, body] of cases) {
    it(`limits ${TRIES} tries at ${method} ${path}`, async () => {
      await withGateway(async (gw) => {
        const statuses: number[] = [];
        for (let i = 0; i < TRIES; i++) {
          statuses.push(
            (await sendRaw(gw.url, path, { method, headers: JSON_HEADERS, body: JSON.stringify(body(i)) })).status,
          );
        }
        expect(statuses.slice(0, MAX).every(reachedHandler)).toBe(true);
        expect(statuses.slice(MAX)).toEqual(Array(TRIES - MAX).fill(429));
      });
    });
  }
});

describe('the WeChat/QQ authorize, a GET that stores a state per call', () => {
  it(`limits ${TRIES} tries of GET and HEAD at /api/v1/oauth/%61uthorize, refused with a JSON 429 in Chinese`, async () => {
    await withGateway(async (gw) => {
      const statuses: number[] = [];
      for (let i = 0; i < TRIES; i++) {
        const method = i % 2 ? 'HEAD' : 'GET';
        statuses.push((await sendRaw(gw.url, '/api/v1/oauth/%61uthorize?type=wechat', { method })).status);
      }
      expect(statuses.slice(0, MAX).every(reachedHandler)).toBe(true);
      expect(statuses.slice(MAX)).toEqual(Array(TRIES - MAX).fill(429));
      const refused = await sendRaw(gw.url, '/api/v1/oauth/authorize?type=qq');
      expect(refused.status).toBe(429);
      expect(refused.headers['content-type']).toMatch(/^application\/json/);
      const wait = Number(refused.headers['retry-after']);
      expect(wait).toBeGreaterThan(0);
      const message = `操作过于频繁，请 ${wait} 秒后再试`;
      expect(refused.json()).toEqual({ code: 429, message, error: message });
    });
  });
});

describe('what the backend receives', () => {
  const site = useGatewayOverStub((_req, res) => json(res, 200, {}));

  it('is the path that was counted: canonical, with the query as it was sent', async () => {
    const forwarded: Array<[string, string]> = [
      ['/api/v1/user/%6cogin?next=%2F%61&x=1', '/api/v1/user/login?next=%2F%61&x=1'],
      ['//api/v1/user/./login', '/api/v1/user/login'],
      ['/api/v1/document/%E6%96%87%2Fx', '/api/v1/document/%E6%96%87%2Fx'],
      ['/api/v1/category/list?type=0&type=1', '/api/v1/category/list?type=0&type=1'],
    ];
    for (const [sent, seen] of forwarded) {
      site.stub.requests.length = 0;
      await sendRaw(site.gw.url, sent, { method: 'POST', headers: JSON_HEADERS, body: '{}' });
      expect(site.stub.requests.at(-1)?.url, sent).toBe(seen);
    }
  });

  it('leaves other paths to their own rules: pages keep their spelling, traversal out of the API is refused', async () => {
    expect((await sendRaw(site.gw.url, '/api/v1/../../etc/passwd')).status).toBe(400);
    const page = await sendRaw(site.gw.url, '//member', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(302);
    expect(page.headers.location).toBe('/auth/login?redirect=%2Fmember');
  });
});

/** How many logins a minute the gateways behind a proxy below let one client make. */
const PROXIED_LOGIN_LIMIT = 2;

/**
 * A gateway (inside a describe) behind a proxy it trusts, its login limit PROXIED_LOGIN_LIMIT a
 * minute, with `settings` over those: the status a login from `address` (the proxy's
 * X-Forwarded-For) gets.
 */
function loginsThroughTrustedProxy(settings: { ipv6Prefix?: number } = {}): (address: string) => Promise<number> {
  const site = useGatewayOverStub((_req, res) => json(res, 200, {}), {
    trustProxy: ['127.0.0.1'],
    authRateLimit: { max: PROXIED_LOGIN_LIMIT, windowMs: 60_000 },
    ...settings,
  });
  return async (address) =>
    (
      await sendRaw(site.gw.url, '/api/v1/user/login', {
        method: 'POST',
        headers: { ...JSON_HEADERS, 'x-forwarded-for': address },
        body: '{}',
      })
    ).status;
}

describe('the login limit behind a proxy the gateway trusts', () => {
  const LIMIT = PROXIED_LOGIN_LIMIT;
  const loginFrom = loginsThroughTrustedProxy();

  it('counts an IPv6 client by its /64: reached from 2001:db8::1, it refuses 2001:db8::2 but not 2001:db8:0:1::1', async () => {
    for (let i = 0; i < LIMIT; i += 1) expect(await loginFrom('2001:db8::1')).toBe(200);
    expect(await loginFrom('2001:db8::1')).toBe(429);
    expect(await loginFrom('2001:db8::2')).toBe(429);
    expect(await loginFrom('2001:db8:0:1::1')).toBe(200);
  });

  it('counts an IPv4-mapped address as its IPv4 address', async () => {
    for (let i = 0; i < LIMIT; i += 1) expect(await loginFrom('198.51.100.41')).toBe(200);
    expect(await loginFrom('::ffff:198.51.100.41')).toBe(429);
  });
});

describe('the login limit of a gateway counting IPv6 clients by a /48 (CLIENT_IPV6_PREFIX)', () => {
  const LIMIT = PROXIED_LOGIN_LIMIT;
  const loginFrom = loginsThroughTrustedProxy({ ipv6Prefix: 48 });

  it('reached from 2001:db8:5::1, it refuses 2001:db8:5:ff00::1 (another /64 of the /48) but not 2001:db8:6::1', async () => {
    for (let i = 0; i < LIMIT; i += 1) expect(await loginFrom('2001:db8:5::1')).toBe(200);
    expect(await loginFrom('2001:db8:5:ff00::1')).toBe(429);
    expect(await loginFrom('2001:db8:6::1')).toBe(200);
  });
});

describe('the canonical form of a path', () => {
  it('decodes unreserved escapes, resolves dot segments and drops empty ones, and keeps the rest', () => {
    const cases: Array<[string, string]> = [
      ['/api/v1/user/%6C%6fgin', '/api/v1/user/login'],
      ['/api/v1/a/./b/../c', '/api/v1/a/c'],
      ['/api/v1//a///b', '/api/v1/a/b'],
      ['/api/v1/a\\b', '/api/v1/a/b'],
      ['/api/v1/../../..', '/'],
      // a trailing slash is another route for the backend; reserved and non-ASCII escapes stay
      ['/api/v1/user/login/', '/api/v1/user/login/'],
      ['/api/v1/a%2Fb/%E6%96%87/%25', '/api/v1/a%2Fb/%E6%96%87/%25'],
      ['/api/v1/.well-known/..x', '/api/v1/.well-known/..x'],
    ];
    for (const [path, canonical] of cases) expect(canonicalPath(path), path).toBe(canonical);
  });

  it('rewrites only what ends up under /api/v1, and never the query', () => {
    expect(canonicalApiUrl('/api/v1/user/%6cogin?next=/a/../b#x')).toBe('/api/v1/user/login?next=/a/../b');
    expect(canonicalApiUrl('/x/../api/v1/settings')).toBe('/api/v1/settings');
    expect(canonicalApiUrl('/member/../admin')).toBe('/member/../admin');
    expect(canonicalApiUrl('/api/v1/../v2/x')).toBe('/api/v1/../v2/x');
  });
});
