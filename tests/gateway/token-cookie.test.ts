import { afterEach, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { CLOCK_TOLERANCE_S } from '../../shared/clocks';
import {
  allKeys,
  cookieAttributes,
  json,
  makeJwt,
  sameOrigin,
  send,
  startGateway,
  useGatewayOverStub,
} from './helpers';

const site = useGatewayOverStub((_req, res) => json(res, 200, {}));
const user = { id: 7, username: '张三', group_id: [2] };
afterEach(() => {
  site.stub.requests.length = 0;
});

function post(path: string, body: unknown = {}, headers: Record<string, string> = {}) {
  return send(`${site.gw.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

describe('token → cookie', () => {
  it('moves the login token into an httpOnly cookie and out of the body', async () => {
    const exp = Math.floor(Date.now() / 1000) + 7 * 24 * 3600;
    const token = makeJwt({ exp });
    site.stub.handle((_req, res) => json(res, 200, { token, user }));

    const res = await post('/api/v1/user/login', { username: '张三', password: 'secret' });

    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ user });
    expect(allKeys(res.json())).not.toContain('token');
    expect(res.text).not.toContain(token);
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');

    expect(res.setCookies).toHaveLength(1);
    const cookie = cookieAttributes(res.setCookies[0]!);
    expect(cookie.get('$name')).toBe('token');
    expect(cookie.get('$value')).toBe(token);
    expect(cookie.has('httponly')).toBe(true);
    expect(cookie.get('samesite')?.toLowerCase()).toBe('lax');
    expect(cookie.get('path')).toBe('/');
    expect(cookie.has('domain')).toBe(false);
    expect(cookie.has('secure')).toBe(false);
    // To the token's end by this clock: its exp and the tolerance the backend allows (shared/clocks).
    const maxAge = Number(cookie.get('max-age'));
    const expected = exp + CLOCK_TOLERANCE_S - Math.floor(Date.now() / 1000);
    expect(maxAge).toBeLessThanOrEqual(expected);
    expect(maxAge).toBeGreaterThanOrEqual(expected - 2);
  });

  it('asks the backend for an uncompressed answer on calls that may carry a token', async () => {
    site.stub.handle((_req, res) => json(res, 200, { token: makeJwt(), user }));
    await post('/api/v1/user/login', {}, { 'accept-encoding': 'gzip, br' });
    expect(site.stub.requests.at(-1)?.headers['accept-encoding']).toBe('identity');
  });

  it('still finds the token when the backend compresses anyway', async () => {
    const token = makeJwt();
    site.stub.handle((_req, res) => {
      const body = gzipSync(JSON.stringify({ token, user }));
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': body.length,
      });
      res.end(body);
    });
    const res = await post('/api/v1/user/login');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toEqual({ user });
    expect(cookieAttributes(res.setCookies[0]!).get('$value')).toBe(token);
  });

  it('does the same for register and any other answer carrying a token (OAuth login, sign-in and sign-up by SMS code)', async () => {
    for (const path of [
      '/api/v1/user/register',
      '/api/v1/user/oauth/login',
      '/api/v1/user/login/mobile',
      '/api/v1/user/register/mobile',
    ]) {
      const token = makeJwt();
      site.stub.handle((_req, res) => json(res, 200, { token, user }));
      const res = await post(path);
      expect(res.json(), path).toEqual({ user });
      expect(cookieAttributes(res.setCookies[0]!).get('$value')).toBe(token);
    }
  });

  it('passes other JSON answers through byte for byte', async () => {
    const raw = '{"id":3,  "title":"文档"}';
    site.stub.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(raw);
    });
    const res = await post('/api/v1/document');
    expect(res.text).toBe(raw);
    expect(res.setCookies).toEqual([]);
  });

  it('leaves a failed login alone (no cookie)', async () => {
    site.stub.handle((_req, res) =>
      json(res, 400, { error: '用户名或密码错误', code: 3, message: '用户名或密码错误' }),
    );
    const res = await post('/api/v1/user/login');
    expect(res.status).toBe(400);
    expect(res.json<{ message: string }>().message).toBe('用户名或密码错误');
    expect(res.setCookies).toEqual([]);
  });

  it('sets Secure when the public origin is https', async () => {
    const secure = await startGateway(site.stub.url, { publicOrigin: 'https://docs.example.com' });
    try {
      site.stub.handle((_req, res) => json(res, 200, { token: makeJwt(), user }));
      const res = await send(`${secure.url}/api/v1/user/login`, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(cookieAttributes(res.setCookies[0]!).has('secure')).toBe(true);
    } finally {
      await secure.close();
    }
  });

  it('uses TOKEN_COOKIE as the cookie name, both ways', async () => {
    const named = await startGateway(site.stub.url, { tokenCookie: 'sid' });
    try {
      const token = makeJwt();
      site.stub.handle((_req, res) => json(res, 200, { token, user }));
      const login = await send(`${named.url}/api/v1/user/login`, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(cookieAttributes(login.setCookies[0]!).get('$name')).toBe('sid');
      site.stub.handle((_req, res) => json(res, 200, user));
      await send(`${named.url}/api/v1/user`, { headers: { cookie: `sid=${token}; token=other` } });
      expect(site.stub.requests.at(-1)?.headers.authorization).toBe(`Bearer ${token}`);
    } finally {
      await named.close();
    }
  });

  it('refuses a token too large for a cookie with 502 and sets nothing', async () => {
    site.stub.handle((_req, res) => json(res, 200, { token: `a.${'b'.repeat(5000)}.c`, user }));
    const res = await post('/api/v1/user/login');
    expect(res.status).toBe(502);
    expect(res.setCookies).toEqual([]);
    expect(res.text).not.toContain('bbbb');
  });

  it('does not store a token past its exp by more than the tolerance', async () => {
    site.stub.handle((_req, res) =>
      json(res, 200, { token: makeJwt({ exp: Math.floor(Date.now() / 1000) - CLOCK_TOLERANCE_S - 10 }), user }),
    );
    const res = await post('/api/v1/user/login');
    expect(res.json()).toEqual({ user });
    expect(cookieAttributes(res.setCookies[0]!).get('max-age')).toBe('0');
  });

  it('stores a token past its exp by less than the tolerance until the backend stops taking it', async () => {
    // This clock a minute ahead of the issuer's: the backend and the page guard still take the token.
    const exp = Math.floor(Date.now() / 1000) - 60;
    const token = makeJwt({ exp });
    site.stub.handle((_req, res) => json(res, 200, { token, user }));
    const res = await post('/api/v1/user/login');
    const cookie = cookieAttributes(res.setCookies[0]!);
    expect(cookie.get('$value')).toBe(token);
    const maxAge = Number(cookie.get('max-age'));
    const expected = exp + CLOCK_TOLERANCE_S - Math.floor(Date.now() / 1000);
    expect(maxAge).toBeLessThanOrEqual(expected);
    expect(maxAge).toBeGreaterThanOrEqual(expected - 2);
  });
});

describe('clearing the cookie', () => {
  it('clears the cookie when the backend answers 401 to the cookie token', async () => {
    site.stub.handle((_req, res) =>
      json(res, 401, { code: 16, message: '您未登录或您的登录已过期，请重新登录或刷新页面重试' }),
    );
    const res = await send(`${site.gw.url}/api/v1/user`, { headers: { cookie: `token=${makeJwt()}` } });
    expect(res.status).toBe(401);
    const cookie = cookieAttributes(res.setCookies[0]!);
    expect(cookie.get('$name')).toBe('token');
    expect(cookie.get('$value')).toBe('');
    expect(cookie.get('max-age')).toBe('0');
    expect(cookie.get('path')).toBe('/');
    expect(cookie.has('httponly')).toBe(true);
  });

  it("keeps the cookie when the 401 was about the client's own Authorization", async () => {
    site.stub.handle((_req, res) => json(res, 401, { code: 16, message: 'x' }));
    const res = await send(`${site.gw.url}/api/v1/user`, {
      headers: { cookie: `token=${makeJwt()}`, authorization: 'Bearer other' },
    });
    expect(res.setCookies).toEqual([]);
  });

  it('clears the cookie on logout whatever the backend answers', async () => {
    for (const status of [200, 401, 500]) {
      site.stub.handle((_req, res) => json(res, status, {}));
      const res = await send(`${site.gw.url}/api/v1/user/logout`, {
        method: 'DELETE',
        headers: sameOrigin(site.gw.url, { cookie: `token=${makeJwt()}` }),
      });
      expect(res.status, String(status)).toBe(status);
      expect(cookieAttributes(res.setCookies[0]!).get('max-age'), String(status)).toBe('0');
    }
    expect(site.stub.requests.at(-1)?.headers.authorization).toMatch(/^Bearer /);
  });

  it('clears the cookie on logout even when the backend is down', async () => {
    const down = await startGateway('http://127.0.0.1:1');
    try {
      const res = await send(`${down.url}/api/v1/user/logout`, {
        method: 'DELETE',
        headers: sameOrigin(down.url, { cookie: `token=${makeJwt()}` }),
      });
      expect(res.status).toBe(502);
      expect(cookieAttributes(res.setCookies[0]!).get('max-age')).toBe('0');
    } finally {
      await down.close();
    }
  });
});
