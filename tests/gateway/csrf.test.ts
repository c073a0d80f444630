import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type StartedBackend } from '../helpers/backend';
import { json, makeJwt, sameOrigin, send, startGateway, startStub, type Stub, type TestGateway } from './helpers';

let stub: Stub;
let gw: TestGateway;
let pinned: TestGateway;
const PUBLIC = 'https://docs.example.com';

beforeAll(async () => {
  stub = await startStub((_req, res) => json(res, 200, {}));
  gw = await startGateway(stub.url);
  pinned = await startGateway(stub.url, { publicOrigin: PUBLIC });
});
afterAll(async () => {
  await gw.close();
  await pinned.close();
  await stub.close();
});

const cookie = `token=${makeJwt()}`;

async function attempt(target: TestGateway, method: string, headers: Record<string, string>) {
  const before = stub.requests.length;
  const res = await send(`${target.url}/api/v1/user/profile`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: method === 'GET' ? undefined : '{}',
  });
  return { status: res.status, reachedBackend: stub.requests.length > before, body: res.text };
}

describe('CSRF: state-changing requests that carry the cookie', () => {
  const self = () => gw.url;
  const cases: Array<[string, string, () => Record<string, string>, 'pass' | 'refuse']> = [
    ['POST', 'Sec-Fetch-Site same-origin', () => ({ cookie, 'sec-fetch-site': 'same-origin' }), 'pass'],
    ['PUT', 'Sec-Fetch-Site same-origin', () => ({ cookie, 'sec-fetch-site': 'same-origin' }), 'pass'],
    ['DELETE', 'Sec-Fetch-Site same-origin', () => ({ cookie, 'sec-fetch-site': 'same-origin' }), 'pass'],
    ['PATCH', 'Sec-Fetch-Site same-origin', () => ({ cookie, 'sec-fetch-site': 'same-origin' }), 'pass'],
    ['POST', 'no Sec-Fetch-Site, Origin = our origin', () => ({ cookie, origin: self() }), 'pass'],
    ['POST', 'Sec-Fetch-Site cross-site', () => ({ cookie, 'sec-fetch-site': 'cross-site' }), 'refuse'],
    ['POST', 'Sec-Fetch-Site same-site', () => ({ cookie, 'sec-fetch-site': 'same-site' }), 'refuse'],
    ['POST', 'Sec-Fetch-Site none', () => ({ cookie, 'sec-fetch-site': 'none' }), 'refuse'],
    [
      'PUT',
      'cross-site even with a matching Origin',
      () => ({ cookie, 'sec-fetch-site': 'cross-site', origin: self() }),
      'refuse',
    ],
    ['POST', 'foreign Origin', () => ({ cookie, origin: 'https://evil.example' }), 'refuse'],
    ['DELETE', 'Origin that only starts like ours', () => ({ cookie, origin: `${self()}.evil.example` }), 'refuse'],
    ['POST', 'Origin null', () => ({ cookie, origin: 'null' }), 'refuse'],
    ['POST', 'neither Sec-Fetch-Site nor Origin', () => ({ cookie }), 'refuse'],
    [
      'POST',
      'no cookie (bearer API client), foreign Origin',
      () => ({ authorization: 'Bearer x', origin: 'https://evil.example' }),
      'pass',
    ],
    ['POST', 'no cookie, no headers', () => ({}), 'pass'],
    ['GET', 'safe method with cookie, cross-site', () => ({ cookie, 'sec-fetch-site': 'cross-site' }), 'pass'],
  ];

  for (const [method, label, headers, outcome] of cases) {
    it(`${outcome === 'pass' ? 'passes' : 'refuses'} ${method} with ${label}`, async () => {
      const result = await attempt(gw, method, headers());
      if (outcome === 'pass') {
        expect(result.status).toBe(200);
        expect(result.reachedBackend).toBe(true);
      } else {
        expect(result.status).toBe(403);
        expect(result.reachedBackend).toBe(false);
        expect(JSON.parse(result.body)).toEqual({
          code: 403,
          message: '请求来源校验失败，请刷新页面后重试',
          error: '请求来源校验失败，请刷新页面后重试',
        });
      }
    });
  }

  it('compares Origin with PUBLIC_ORIGIN when it is set', async () => {
    expect((await attempt(pinned, 'POST', { cookie, origin: PUBLIC })).status).toBe(200);
    expect((await attempt(pinned, 'POST', { cookie, origin: pinned.url })).status).toBe(403);
  });

  it('protects logout like any other state change', async () => {
    const res = await send(`${gw.url}/api/v1/user/logout`, {
      method: 'DELETE',
      headers: { cookie, origin: 'https://evil.example' },
    });
    expect(res.status).toBe(403);
  });
});

describe('login CSRF: sign-in calls from another site are refused even without a cookie', () => {
  const signIns: Array<[string, string]> = [
    ['POST', '/api/v1/user/login'],
    ['POST', '/api/v1/user/register'],
    ['POST', '/api/v1/user/email/code'],
    ['POST', '/api/v1/user/findpassword/stepone'],
    ['PUT', '/api/v1/user/findpassword/steptwo'],
    ['POST', '/api/v1/oauth/login'],
    ['POST', '/api/v1/user/sms/code'],
    ['POST', '/api/v1/user/register/mobile'],
    ['POST', '/api/v1/user/login/mobile'],
    ['PUT', '/api/v1/user/findpassword/mobile'],
  ];
  const jsonType = { 'content-type': 'application/json' };
  const sign = (method: string, path: string, headers: Record<string, string>) =>
    send(`${gw.url}${path}`, {
      method,
      headers: { ...jsonType, ...headers },
      body: '{"username":"attacker","password":"attacker-password"}',
    });

  for (const [method, path] of signIns) {
    it(`refuses ${method} ${path} from another site, by Sec-Fetch-Site or by Origin`, async () => {
      const foreign: Record<string, string>[] = [
        { 'sec-fetch-site': 'cross-site' },
        { 'sec-fetch-site': 'same-site' },
        { origin: 'https://evil.example' },
        { 'sec-fetch-site': 'cross-site', origin: gw.url },
      ];
      for (const headers of foreign) {
        const before = stub.requests.length;
        const res = await sign(method, path, headers);
        expect(res.status, JSON.stringify(headers)).toBe(403);
        expect(res.json()).toEqual({
          code: 403,
          message: '请求来源校验失败，请刷新页面后重试',
          error: '请求来源校验失败，请刷新页面后重试',
        });
        expect(stub.requests.length).toBe(before);
      }
    });

    it(`passes ${method} ${path} from our own pages and from clients that are no browser`, async () => {
      const ours: Record<string, string>[] = [
        { 'sec-fetch-site': 'same-origin', origin: gw.url },
        { origin: gw.url },
        {},
      ];
      for (const headers of ours) {
        expect((await sign(method, path, headers)).status, JSON.stringify(headers)).toBe(200);
      }
    });
  }

  it('leaves other calls without a cookie alone (bearer API clients)', async () => {
    const res = await send(`${gw.url}/api/v1/document`, {
      method: 'POST',
      headers: { ...jsonType, authorization: 'Bearer x', 'sec-fetch-site': 'cross-site' },
      body: '{}',
    });
    expect(res.status).toBe(200);
  });
});

describe('GET RPCs that write (shared/writes.ts): the downloads', () => {
  const REFUSED = {
    code: 403,
    message: '请求来源校验失败：下载须在本站的文档页面点击“下载”按钮发起，不能从其他网站、书签或地址栏直接打开',
    error: '请求来源校验失败：下载须在本站的文档页面点击“下载”按钮发起，不能从其他网站、书签或地址栏直接打开',
  };
  const download = async (
    headers: Record<string, string>,
    method = 'GET',
    path = '/api/v1/document/download?id=14',
  ) => {
    const before = stub.requests.length;
    const res = await send(`${gw.url}${path}`, { method, headers });
    return { status: res.status, reachedBackend: stub.requests.length > before, body: res.text };
  };

  it.each([
    [
      'a top-level navigation from another site, with the cookie',
      { cookie, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
    ],
    ['from a sibling subdomain', { cookie, 'sec-fetch-site': 'same-site' }],
    [
      'typed into the address bar or opened from a bookmark',
      { cookie, 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' },
    ],
    ['an older browser sent from another page', { cookie, referer: 'https://evil.example/page' }],
    ['with the cookie and nothing saying where from', { cookie }],
    [
      'an image or no-cors fetch of another site, without the cookie',
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' },
    ],
  ])('refuses %s, before the backend', async (_label, headers) => {
    const res = await download(headers);
    expect(res).toMatchObject({ status: 403, reachedBackend: false });
    expect(JSON.parse(res.body)).toEqual(REFUSED);
  });

  it('refuses the other download RPC and HEAD alike', async () => {
    const cross = { cookie, 'sec-fetch-site': 'cross-site' };
    expect(await download(cross, 'GET', '/api/v1/document/download/bereviewed?id=14')).toMatchObject({
      status: 403,
      reachedBackend: false,
    });
    expect(await download(cross, 'HEAD')).toMatchObject({ status: 403, reachedBackend: false });
  });

  it.each([
    ["the SPA's fetch", { cookie, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' }],
    ["an older browser's fetch from one of our pages", { cookie, referer: 'http://127.0.0.1/library/1/14' }],
    [
      'a bearer API client, even from another origin',
      { authorization: 'Bearer x', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' },
    ],
    ['curl, without cookie or browser headers', {}],
  ])('passes %s', async (_label, headers) => {
    const fixed = { ...headers } as Record<string, string>;
    if (fixed.referer) fixed.referer = fixed.referer.replace('http://127.0.0.1', gw.url);
    expect(await download(fixed)).toMatchObject({ status: 200, reachedBackend: true });
  });

  it('leaves the other GET calls alone', async () => {
    const res = await send(`${gw.url}/api/v1/document?id=14`, { headers: { cookie, 'sec-fetch-site': 'cross-site' } });
    expect(res.status).toBe(200);
  });
});

describe('JSON calls must say they are JSON', () => {
  const NOT_JSON = {
    code: 415,
    message: '请求内容必须是 JSON 格式（Content-Type: application/json）',
    error: '请求内容必须是 JSON 格式（Content-Type: application/json）',
  };

  it('refuses the bodies a cross-site form can send without a preflight, with 415 JSON', async () => {
    for (const [type, body] of [
      ['text/plain', '{"username":"attacker","password":"attacker-password"}'],
      ['text/plain;charset=UTF-8', '{"x":1}'],
      ['application/x-www-form-urlencoded', 'username=attacker&password=x'],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n'],
    ]) {
      for (const path of ['/api/v1/user/login', '/api/v1/user/profile', '/api/v1/document']) {
        const before = stub.requests.length;
        const res = await send(`${gw.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': type!, 'sec-fetch-site': 'same-origin' },
          body,
        });
        expect(res.status, `${type} ${path}`).toBe(415);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.json()).toEqual(NOT_JSON);
        expect(stub.requests.length).toBe(before);
      }
    }
  });

  it('refuses a body without a Content-Type, and takes a call without a body whatever its type', async () => {
    const untyped = await send(`${gw.url}/api/v1/user/profile`, {
      method: 'PUT',
      body: Buffer.from('{"signature":"x"}'),
    });
    expect(untyped.status).toBe(415);
    for (const method of ['PUT', 'DELETE', 'POST']) {
      expect((await send(`${gw.url}/api/v1/user/sign`, { method })).status, method).toBe(200);
    }
    const emptyForm = await send(`${gw.url}/api/v1/user/sign`, {
      method: 'PUT',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(emptyForm.status).toBe(200);
  });

  it('takes JSON with a charset and JSON subtypes', async () => {
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON',
      'application/merge-patch+json',
    ]) {
      expect(
        (await send(`${gw.url}/api/v1/user/profile`, { method: 'PUT', headers: { 'content-type': type }, body: '{}' }))
          .status,
        type,
      ).toBe(200);
    }
  });

  it('leaves the uploads (multipart) and the payment notifications (form-encoded) alone', async () => {
    const upload = await send(`${gw.url}/api/v1/upload/avatar`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n1\r\n--x--\r\n',
    });
    expect(upload.status).toBe(200);
    const notify = await send(`${gw.url}/api/v1/pay/notify/alipay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'out_trade_no=1&trade_status=TRADE_SUCCESS',
    });
    expect(notify.status).toBe(200);
  });

  it('refuses an upload whose body is not a multipart form with 415 JSON, before the backend', async () => {
    const NOT_MULTIPART = '上传的内容必须是 multipart/form-data 格式（Content-Type: multipart/form-data，字段 file）';
    for (const type of ['text/plain', 'application/octet-stream', 'application/json', 'image/png']) {
      const before = stub.requests.length;
      const res = await send(`${gw.url}/api/v1/upload/feedback`, {
        method: 'POST',
        headers: { 'content-type': type },
        body: Buffer.from([0x68, 0xff, 0xfe, 0x69]),
      });
      expect(res.status, type).toBe(415);
      expect(res.json()).toEqual({ code: 415, message: NOT_MULTIPART, error: NOT_MULTIPART });
      expect(stub.requests.length).toBe(before);
    }
    const untyped = await send(`${gw.url}/api/v1/upload/document`, { method: 'POST', body: Buffer.from('x') });
    expect(untyped.status).toBe(415);
  });

  it('forwards the bodies it takes as the bytes that came, undecoded', async () => {
    // Not UTF-8: a body decoded as text and encoded again would change length.
    const bytes = Buffer.from([0x68, 0xff, 0xfe, 0x69, 0xc3]);
    for (const [path, type] of [
      ['/api/v1/pay/notify/alipay', 'text/plain'],
      ['/api/v1/pay/notify/wechat', 'application/xml'],
      ['/api/v1/user/profile', 'application/json'],
    ]) {
      const res = await send(`${gw.url}${path}`, { method: 'POST', headers: { 'content-type': type! }, body: bytes });
      expect(res.status, `${type} ${path}: ${res.text}`).toBe(200);
      expect(stub.requests.at(-1)).toMatchObject({ url: path, body: bytes });
      expect(stub.requests.at(-1)?.headers['content-length']).toBe(String(bytes.length));
    }
  });

  it('does not look at reads or at paths outside the API', async () => {
    expect((await send(`${gw.url}/api/v1/settings`, { headers: { 'content-type': 'text/plain' } })).status).toBe(200);
    expect(
      (await send(`${gw.url}/library`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }))
        .status,
    ).toBe(404);
  });
});

describe('the cross-site <form enctype="text/plain"> login, against the real backend', () => {
  let backend: StartedBackend;
  let site: TestGateway;
  beforeAll(async () => {
    backend = await startBackend();
    site = await startGateway(backend.url);
  });
  afterAll(async () => {
    await site.close();
    await backend.close();
  });

  // What Chromium sends for the form: the JSON as a field name with `=` and an empty value.
  const formBody = () => `{"username":"admin","password":"${backend.adminPassword}","x":"=}`;

  it('does not sign the visitor in: 403, no cookie', async () => {
    const res = await send(`${site.url}/api/v1/user/login`, {
      method: 'POST',
      headers: {
        'content-type': 'text/plain',
        'sec-fetch-site': 'cross-site',
        'sec-fetch-mode': 'navigate',
        origin: 'https://evil.example',
      },
      body: formBody(),
    });
    expect(res.status).toBe(403);
    expect(res.setCookies).toEqual([]);
  });

  it("answers a visitor's text/plain feedback screenshot with 415, not 502", async () => {
    const res = await send(`${site.url}/api/v1/upload/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', ...sameOrigin(site.url) },
      body: Buffer.from([0x68, 0xff, 0x69]),
    });
    expect(res.status).toBe(415);
    expect(res.json()).toMatchObject({ code: 415, message: expect.stringContaining('multipart/form-data') });
  });

  it('refuses the same body from our own origin with 415: only JSON logs in', async () => {
    const res = await send(`${site.url}/api/v1/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', ...sameOrigin(site.url) },
      body: formBody(),
    });
    expect(res.status).toBe(415);
    expect(res.setCookies).toEqual([]);
    const ok = await send(`${site.url}/api/v1/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...sameOrigin(site.url) },
      body: JSON.stringify({ username: 'admin', password: backend.adminPassword }),
    });
    expect(ok.status).toBe(200);
    expect(ok.setCookies[0]).toMatch(/^token=/);
  });
});
