import { describe, expect, it } from 'vitest';
import { json, makeJwt, sameOrigin, send, startGateway, useGatewayOverStub, type Answer } from './helpers';

const site = useGatewayOverStub((_req, res) => json(res, 200, {}), { authRateLimit: { max: 3, windowMs: 60_000 } });

describe('security headers', () => {
  it('sends a CSP that allows only our own scripts and no framing, plus nosniff and a referrer policy', async () => {
    for (const path of ['/api/v1/settings', '/healthz']) {
      const res = await send(`${site.gw.url}${path}`);
      const csp = String(res.headers['content-security-policy']);
      const directives = new Map(
        csp
          .split(';')
          .map((d) => d.trim().split(/\s+/))
          .map(([k, ...v]) => [k!, v]),
      );
      expect(directives.get('script-src')).toEqual(["'self'"]);
      expect(directives.get('default-src')).toEqual(["'self'"]);
      expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
      expect(directives.get('object-src')).toEqual(["'none'"]);
      expect(directives.has('upgrade-insecure-requests')).toBe(false);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('puts the whole set on every kind of answer: API, health, assets, files, pages, redirects, errors', async () => {
    const expected: Record<string, string> = {
      'content-security-policy':
        "default-src 'self';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline';" +
        "img-src 'self' data: blob: https:;font-src 'self' data:;media-src 'self' blob:;connect-src 'self';" +
        "object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'",
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'DENY',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    };
    const html = { accept: 'text/html' };
    const down = await startGateway('http://127.0.0.1:1');
    try {
      const answers: Array<[string, number, Promise<Answer>]> = [
        ['proxied API call', 200, send(`${site.gw.url}/api/v1/settings`)],
        ['health', 200, send(`${site.gw.url}/healthz`)],
        [
          'asset from memory',
          200,
          send(`${site.gw.url}/assets/app-3f9a1c.js`, { headers: { 'accept-encoding': 'br' } }),
        ],
        ['asset range', 206, send(`${site.gw.url}/assets/app-3f9a1c.js`, { headers: { range: 'bytes=0-1' } })],
        ['missing asset', 404, send(`${site.gw.url}/assets/missing-1.js`)],
        ['top-level file', 200, send(`${site.gw.url}/robots.txt`)],
        ['page', 200, send(`${site.gw.url}/`, { headers: html })],
        ['login redirect', 302, send(`${site.gw.url}/member`, { headers: html })],
        [
          'CSRF refusal',
          403,
          send(`${site.gw.url}/api/v1/user/profile`, {
            method: 'PUT',
            headers: { cookie: 'token=x', origin: 'https://evil.example' },
            body: '{}',
          }),
        ],
        ['backend down', 502, send(`${down.url}/api/v1/settings`)],
      ];
      for (const [what, status, answer] of answers) {
        const res = await answer;
        expect(res.status, what).toBe(status);
        for (const [name, value] of Object.entries(expected)) expect(res.headers[name], `${what}: ${name}`).toBe(value);
        expect(res.headers['strict-transport-security'], what).toBeUndefined();
      }
    } finally {
      await down.close();
    }
  });

  it('adds HSTS and upgrade-insecure-requests only when served over https', async () => {
    const https = await startGateway(site.stub.url, { publicOrigin: 'https://docs.example.com' });
    try {
      const res = await send(`${https.url}/healthz`);
      expect(res.headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains');
      expect(String(res.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    } finally {
      await https.close();
    }
  });
});

describe('rate limits', () => {
  const emptyJson = (method: string, path: string) =>
    send(`${site.gw.url}${path}`, { method, body: '{}', headers: { 'content-type': 'application/json' } });

  /** The statuses of four empty JSON calls in a row: the limit (3) lets the first three through. */
  async function fourStatuses(method: string, path: string): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await emptyJson(method, path)).status);
    return statuses;
  }

  it('answers 429 JSON after the limit on login, per endpoint, leaving other calls alone', async () => {
    const login = () => emptyJson('POST', '/api/v1/user/login');
    for (let i = 0; i < 3; i++) expect((await login()).status).toBe(200);
    const limited = await login();
    expect(limited.status).toBe(429);
    const wait = Number(limited.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(limited.json()).toEqual({
      code: 429,
      message: `操作过于频繁，请 ${wait} 秒后再试`,
      error: `操作过于频繁，请 ${wait} 秒后再试`,
    });

    const register = await emptyJson('POST', '/api/v1/user/register');
    expect(register.status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await send(`${site.gw.url}/api/v1/settings`)).status).toBe(200);
  });

  it('limits both find-password steps', async () => {
    for (const [method, path] of [
      ['POST', '/api/v1/user/findpassword/stepone'],
      ['PUT', '/api/v1/user/findpassword/steptwo'],
    ] as const) {
      expect(await fourStatuses(method, path), path).toEqual([200, 200, 200, 429]);
    }
  });

  it('limits the sending of SMS codes and the sign-in, sign-up and reset by code, each on its own', async () => {
    for (const [method, path] of [
      ['POST', '/api/v1/user/sms/code'],
      ['POST', '/api/v1/user/register/mobile'],
      ['POST', '/api/v1/user/login/mobile'],
      ['PUT', '/api/v1/user/findpassword/mobile'],
    ] as const) {
      expect(await fourStatuses(method, path), path).toEqual([200, 200, 200, 429]);
    }
  });

  it('limits the WeChat/QQ sign-in, and the authorize call before it (a state stored per call), each on its own', async () => {
    expect(await fourStatuses('POST', '/api/v1/oauth/login')).toEqual([200, 200, 200, 429]);
    const authorize = async () => (await send(`${site.gw.url}/api/v1/oauth/authorize?type=wechat`)).status;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push(await authorize());
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('logs', () => {
  it('writes one line per request, with its id, and never the Authorization, Cookie or Set-Cookie values', async () => {
    const token = makeJwt({ UUID: 'secret-uuid-in-cookie' });
    site.stub.handle((_req, res) => json(res, 200, { token: makeJwt({ UUID: 'secret-uuid-issued' }) }));
    const res = await send(`${site.gw.url}/api/v1/user/profile`, {
      method: 'PUT',
      headers: sameOrigin(site.gw.url, {
        cookie: `token=${token}`,
        authorization: 'Bearer secret-bearer-value',
        'content-type': 'application/json',
      }),
      body: '{}',
    });
    expect(res.status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    const lines = site.gw.logs
      .join('')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const mine = lines.filter((l) => l.reqId === res.headers['x-request-id']);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      level: 30,
      msg: 'request',
      method: 'PUT',
      url: '/api/v1/user/profile',
      status: 200,
    });
    for (const secret of [
      token,
      'secret-bearer-value',
      'secret-uuid',
      res.setCookies[0]!.split(';')[0]!.split('=')[1]!,
    ]) {
      expect(site.gw.logs.join('')).not.toContain(secret);
    }
  });
});

describe('health', () => {
  it('answers /healthz without asking the backend', async () => {
    const before = site.stub.requests.length;
    const res = await send(`${site.gw.url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(site.stub.requests.length).toBe(before);
  });

  it("asks our backend's /readyz, and a MOREDOC server's settings where it has none", async () => {
    const asked = () => site.stub.requests.slice(before).map((request) => request.url);
    let before = site.stub.requests.length;
    // Our backend: its /readyz decides (it asks its database), the settings are not asked.
    site.stub.handle((req, res) =>
      req.url === '/readyz'
        ? json(res, 503, { code: 14, message: '数据库暂时不可用，请稍后再试' })
        : json(res, 200, {}),
    );
    expect((await send(`${site.gw.url}/readyz`)).status).toBe(503);
    expect(asked()).toEqual(['/readyz']);
    // A MOREDOC server answers any path outside /api/ with its web client's page: its settings answering is the sign.
    before = site.stub.requests.length;
    site.stub.handle((req, res) => {
      if (req.url !== '/readyz') return json(res, 200, { system: {} });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>MOREDOC</title>');
    });
    expect((await send(`${site.gw.url}/readyz`)).json()).toEqual({ status: 'ready' });
    expect(asked()).toEqual(['/readyz', '/api/v1/settings']);
    for (const readyz of [200, 404]) {
      site.stub.handle((req, res) => {
        if (req.url !== '/readyz') return json(res, 500, {});
        res.writeHead(readyz).end();
      });
      expect((await send(`${site.gw.url}/readyz`)).status).toBe(503);
    }
  });

  it("says in /readyz's 503 what is wrong: the backend's own reason, or that it did not answer", async () => {
    for (const message of ['数据库暂时不可用，请稍后再试', '文件存储暂时不可用，请稍后再试']) {
      site.stub.handle((req, res) =>
        req.url === '/readyz' ? json(res, 503, { code: 14, message }) : json(res, 200, {}),
      );
      const res = await send(`${site.gw.url}/readyz`);
      expect(res.status).toBe(503);
      expect(res.json()).toEqual({
        code: 503,
        message: `后端服务未就绪：${message}`,
        error: `后端服务未就绪：${message}`,
      });
    }
    // No reason given (a MOREDOC server's settings failing without one): the bare message.
    site.stub.handle((req, res) => {
      if (req.url !== '/readyz') return json(res, 500, {});
      res.writeHead(404).end();
    });
    expect((await send(`${site.gw.url}/readyz`)).json()).toMatchObject({ code: 503, message: '后端服务未就绪' });
    const down = await startGateway('http://127.0.0.1:1');
    try {
      expect((await send(`${down.url}/readyz`)).json()).toMatchObject({
        code: 503,
        message: '后端服务未就绪：后端服务暂时不可用，请稍后再试',
      });
    } finally {
      await down.close();
    }
  });

  it('answers /readyz 200 when the backend answers, 503 when it does not', async () => {
    site.stub.handle((_req, res) => json(res, 200, { system: {} }));
    expect((await send(`${site.gw.url}/readyz`)).status).toBe(200);
    const down = await startGateway('http://127.0.0.1:1');
    try {
      const res = await send(`${down.url}/readyz`);
      expect(res.status).toBe(503);
      expect(res.json<{ code: number }>().code).toBe(503);
      expect((await send(`${down.url}/healthz`)).status).toBe(200);
    } finally {
      await down.close();
    }
  });
});
