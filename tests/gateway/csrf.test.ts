import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, makeJwt, send, startGateway, startStub, type Stub, type TestGateway } from './helpers';

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
    ['PUT', 'cross-site even with a matching Origin', () => ({ cookie, 'sec-fetch-site': 'cross-site', origin: self() }), 'refuse'],
    ['POST', 'foreign Origin', () => ({ cookie, origin: 'https://evil.example' }), 'refuse'],
    ['DELETE', 'Origin that only starts like ours', () => ({ cookie, origin: `${self()}.evil.example` }), 'refuse'],
    ['POST', 'Origin null', () => ({ cookie, origin: 'null' }), 'refuse'],
    ['POST', 'neither Sec-Fetch-Site nor Origin', () => ({ cookie }), 'refuse'],
    ['POST', 'no cookie (bearer API client), foreign Origin', () => ({ authorization: 'Bearer x', origin: 'https://evil.example' }), 'pass'],
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
        expect(JSON.parse(result.body)).toEqual({ code: 403, message: '请求来源校验失败，请刷新页面后重试', error: '请求来源校验失败，请刷新页面后重试' });
      }
    });
  }

  it('compares Origin with PUBLIC_ORIGIN when it is set', async () => {
    expect((await attempt(pinned, 'POST', { cookie, origin: PUBLIC })).status).toBe(200);
    expect((await attempt(pinned, 'POST', { cookie, origin: pinned.url })).status).toBe(403);
  });

  it('protects logout like any other state change', async () => {
    const res = await send(`${gw.url}/api/v1/user/logout`, { method: 'DELETE', headers: { cookie, origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
  });
});
