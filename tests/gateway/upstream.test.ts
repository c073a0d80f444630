import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { createServer as createHttpsServer } from 'node:https';
import { readFileSync } from 'node:fs';
import { AS_VISITOR_HEADER } from '../../shared/writes';
import { json, makeJwt, sameOrigin, send, sendRaw, startGateway, useGatewayOverStub } from './helpers';

const site = useGatewayOverStub((_req, res) => json(res, 200, { ok: true }), { upstreamTimeoutMs: 500 });
afterEach(() => {
  site.stub.requests.length = 0;
  site.stub.handle((_req, res) => json(res, 200, { ok: true }));
});

function lastUpstream() {
  const last = site.stub.requests.at(-1);
  if (!last) throw new Error('the upstream saw no request');
  return last;
}

describe('requests to the backend', () => {
  it('adds the cookie token as a Bearer header and never forwards the Cookie header', async () => {
    const token = makeJwt();
    const res = await send(`${site.gw.url}/api/v1/user`, { headers: { cookie: `token=${token}; theme=dark` } });
    expect(res.status).toBe(200);
    const seen = lastUpstream();
    expect(seen.headers.authorization).toBe(`Bearer ${token}`);
    expect(seen.headers.cookie).toBeUndefined();
  });

  it("keeps the client's own Authorization header (API clients)", async () => {
    await send(`${site.gw.url}/api/v1/user`, {
      headers: { authorization: 'Bearer client-token', cookie: `token=${makeJwt()}` },
    });
    expect(lastUpstream().headers.authorization).toBe('Bearer client-token');
  });

  it('sends no Authorization without a cookie', async () => {
    await send(`${site.gw.url}/api/v1/user`);
    expect(lastUpstream().headers.authorization).toBeUndefined();
  });

  it('ignores a malformed cookie value instead of forwarding it', async () => {
    await send(`${site.gw.url}/api/v1/user`, { headers: { cookie: 'token=not a token' } });
    expect(lastUpstream().headers.authorization).toBeUndefined();
  });

  it('does not let "Connection: authorization" strip the injected Bearer header', async () => {
    const token = makeJwt();
    await send(`${site.gw.url}/api/v1/user`, {
      headers: { cookie: `token=${token}`, connection: 'keep-alive, authorization' },
    });
    expect(lastUpstream().headers.authorization).toBe(`Bearer ${token}`);
  });

  it('replaces a spoofed X-Forwarded-For with the client address it trusts', async () => {
    await send(`${site.gw.url}/api/v1/user`, {
      headers: { 'x-forwarded-for': '6.6.6.6', 'x-real-ip': '6.6.6.6', forwarded: 'for=6.6.6.6' },
    });
    const seen = lastUpstream();
    expect(seen.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(seen.headers['x-real-ip']).toBe('127.0.0.1');
    expect(seen.headers.forwarded).toBeUndefined();
    expect(JSON.stringify(seen.headers)).not.toContain('6.6.6.6');
  });

  it('takes the client address from X-Forwarded-For only when the peer is a trusted proxy', async () => {
    const behindProxy = await startGateway(site.stub.url, { trustProxy: ['127.0.0.1'] });
    try {
      await send(`${behindProxy.url}/api/v1/user`, { headers: { 'x-forwarded-for': '6.6.6.6, 203.0.113.7' } });
      // the proxy appended the real client; what the client wrote before it is not trusted
      expect(lastUpstream().headers['x-forwarded-for']).toBe('203.0.113.7');
    } finally {
      await behindProxy.close();
    }
  });

  it('passes the request id on to the backend and back to the client', async () => {
    const res = await send(`${site.gw.url}/api/v1/user`);
    const id = res.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(lastUpstream().headers['x-request-id']).toBe(id);
  });

  it("keeps the SPA's record-as-visitor marker to itself: a search without the session, no call with the marker", async () => {
    const token = makeJwt();
    const marked = { cookie: `token=${token}`, [AS_VISITOR_HEADER]: '1', ...sameOrigin(site.gw.url) };
    // A search that records its caller goes as a visitor's (decision 121)…
    expect((await send(`${site.gw.url}/api/v1/document/search?wd=%E6%96%87`, { headers: marked })).status).toBe(200);
    // …another read, and a write, keep the member's session.
    expect((await send(`${site.gw.url}/api/v1/user/group`, { headers: marked })).status).toBe(200);
    const write = await send(`${site.gw.url}/api/v1/user/profile`, {
      method: 'PUT',
      headers: { ...marked, 'content-type': 'application/json' },
      body: JSON.stringify({ nickname: '读者' }),
    });
    expect(write.status).toBe(200);
    const seen = site.stub.requests.map((request) => ({
      url: request.url.split('?')[0],
      authorization: request.headers.authorization,
      marker: request.headers[AS_VISITOR_HEADER],
    }));
    expect(seen).toEqual([
      { url: '/api/v1/document/search', authorization: undefined, marker: undefined },
      { url: '/api/v1/user/group', authorization: `Bearer ${token}`, marker: undefined },
      { url: '/api/v1/user/profile', authorization: `Bearer ${token}`, marker: undefined },
    ]);
  });

  it('forwards path and query string unchanged (repeated keys, Chinese)', async () => {
    const query = '?type=0&type=1&wd=%E6%96%87%E6%A1%A3&page=1';
    await send(`${site.gw.url}/api/v1/category/list${query}`);
    expect(lastUpstream().url).toBe(`/api/v1/category/list${query}`);
  });

  it('streams the request body through unchanged', async () => {
    const body = JSON.stringify({ username: '张三', password: 'x'.repeat(10_000) });
    await send(`${site.gw.url}/api/v1/user/profile`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const seen = lastUpstream();
    expect(seen.method).toBe('PUT');
    expect(seen.body.toString('utf8')).toBe(body);
  });

  it('proxies the non-API backend routes with GET', async () => {
    site.stub.handle((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`backend:${req.url}`);
    });
    for (const path of [
      '/view/page/0123456789abcdef0123456789abcdef/1.svg',
      '/view/cover/0123456789abcdef0123456789abcdef',
      '/download/eyJhbGciOi.x.y?user_id=1&document_id=2&filename=%E6%96%87.pdf',
      '/uploads/a/b/c/d/e/0123.png',
      '/sitemap.xml',
      '/sitemap/documents-1.xml',
      '/favicon.ico',
    ]) {
      const res = await send(`${site.gw.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.text).toBe(`backend:${path}`);
    }
  });

  it('does not proxy writes to the non-API routes', async () => {
    const res = await send(`${site.gw.url}/uploads/x.png`, { method: 'POST', body: 'x' });
    expect(res.status).toBe(404);
    expect(site.stub.requests).toHaveLength(0);
  });

  it('refuses path traversal out of the API prefix', async () => {
    for (const path of [
      '/api/v1/%2e%2e/%2e%2e/etc/passwd',
      '/api/v1/../../etc/passwd',
      '/api/v1/..%2f..%2fetc/passwd',
    ]) {
      const res = await sendRaw(site.gw.url, path);
      expect(res.status, path).toBe(400);
      expect(res.json<{ code: number }>().code).toBe(400);
    }
    expect(site.stub.requests).toHaveLength(0);
  });
});

describe('answers from the backend', () => {
  it('passes status, headers and body of an error answer through', async () => {
    site.stub.handle((_req, res) => json(res, 403, { error: '您没有权限', code: 7, message: '您没有权限' }));
    const res = await send(`${site.gw.url}/api/v1/document/recycle`);
    expect(res.status).toBe(403);
    expect(res.json()).toEqual({ error: '您没有权限', code: 7, message: '您没有权限' });
  });

  it("strips the backend's CORS headers (one origin)", async () => {
    site.stub.handle((_req, res) => json(res, 200, {}, { 'access-control-allow-origin': '*' }));
    const res = await send(`${site.gw.url}/api/v1/user`, { headers: { origin: 'https://evil.example' } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('streams a slow answer: the first bytes arrive before the backend has finished', async () => {
    let finished = false;
    site.stub.handle(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      for (let i = 0; i < 5; i++) {
        res.write(Buffer.alloc(1024, i));
        await new Promise((r) => setTimeout(r, 100));
      }
      finished = true;
      res.end();
    });
    const { request } = await import('undici');
    const res = await request(`${site.gw.url}/uploads/big.bin`);
    const iterator = res.body[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.done).toBe(false);
    expect(finished).toBe(false);
    let total = (first.value as Buffer).length;
    for (let next = await iterator.next(); !next.done; next = await iterator.next())
      total += (next.value as Buffer).length;
    expect(total).toBe(5 * 1024);
    expect(finished).toBe(true);
  });

  it('does not retry a GET answered with 503', async () => {
    site.stub.handle((_req, res) => json(res, 503, { message: 'busy' }));
    const res = await send(`${site.gw.url}/api/v1/user`);
    expect(res.status).toBe(503);
    expect(site.stub.requests).toHaveLength(1);
  });
});

describe('upstream faults', () => {
  async function closedPort(): Promise<string> {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    await new Promise<void>((r) => server.close(() => r()));
    return `http://127.0.0.1:${port}`;
  }

  it('answers 502 JSON in Chinese when the backend refuses the connection', async () => {
    const down = await startGateway(await closedPort());
    try {
      for (const method of ['GET', 'POST']) {
        const res = await send(`${down.url}/api/v1/user`, { method, headers: sameOrigin(down.url) });
        expect(res.status).toBe(502);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        const body = res.json<{ code: number; message: string; error: string }>();
        expect(body).toEqual({
          code: 502,
          message: '后端服务暂时不可用，请稍后再试',
          error: '后端服务暂时不可用，请稍后再试',
        });
        expect(res.text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
      }
    } finally {
      await down.close();
    }
  });

  it('verifies the TLS certificate of an https backend', async () => {
    const fixtures = new URL('./fixtures/', import.meta.url);
    const server = createHttpsServer(
      {
        key: readFileSync(new URL('self-signed.key', fixtures)),
        cert: readFileSync(new URL('self-signed.crt', fixtures)),
      },
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"leaked":true}');
      },
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    const untrusted = await startGateway(`https://127.0.0.1:${port}`);
    try {
      const res = await send(`${untrusted.url}/api/v1/user`, { headers: { cookie: `token=${makeJwt()}` } });
      expect(res.status).toBe(502);
      expect(res.text).not.toContain('leaked');
      expect(untrusted.logs.join('')).toMatch(/DEPTH_ZERO_SELF_SIGNED_CERT|self-signed certificate/);
    } finally {
      await untrusted.close();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('answers 504 JSON when the backend does not answer within UPSTREAM_TIMEOUT_MS', async () => {
    site.stub.handle(() => {
      /* never answers */
    });
    const started = Date.now();
    const res = await send(`${site.gw.url}/api/v1/user`);
    expect(res.status).toBe(504);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(res.json()).toEqual({
      code: 504,
      message: '后端服务响应超时，请稍后再试',
      error: '后端服务响应超时，请稍后再试',
    });
    expect(site.stub.requests).toHaveLength(1);
  });

  it('answers 502 when the backend resets the connection before answering', async () => {
    site.stub.handle((req) => {
      req.socket.destroy();
    });
    const res = await send(`${site.gw.url}/api/v1/user`);
    expect(res.status).toBe(502);
    expect(res.json<{ code: number }>().code).toBe(502);
    expect(site.stub.requests).toHaveLength(1);
  });

  it('cuts the client off (no 500, no crash) when the backend resets mid-body', async () => {
    site.stub.handle((req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '100000' });
      res.write(Buffer.alloc(10_000));
      setTimeout(() => req.socket.destroy(), 50);
    });
    const { request } = await import('undici');
    const res = await request(`${site.gw.url}/uploads/file.bin`);
    expect(res.statusCode).toBe(200);
    await expect(res.body.arrayBuffer()).rejects.toThrow();
    // the gateway is still fine
    site.stub.handle((_req, r) => json(r, 200, { ok: true }));
    const after = await send(`${site.gw.url}/api/v1/user`);
    expect(after.status).toBe(200);
    expect(site.gw.logs.join('')).not.toMatch(/"res":\{"statusCode":500/);
  });

  it('answers 502 JSON in Chinese, not a cut, when the backend closes a JSON read mid-body', async () => {
    // With its length announced, and chunked (no length: the missing last chunk tells).
    for (const length of [{ 'content-length': '1000' }, {}]) {
      site.stub.handle((req, res) => {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', ...length });
        res.write('{"total":2,"document":[{"id":1,"title":"');
        setTimeout(() => req.socket.destroy(), 20);
      });
      const res = await send(`${site.gw.url}/api/v1/document/list?page=1`);
      expect(res.status, JSON.stringify(length)).toBe(502);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toEqual({
        code: 502,
        message: '后端服务暂时不可用，请稍后再试',
        error: '后端服务暂时不可用，请稍后再试',
      });
    }
    // A whole JSON answer that comes in several writes is passed on whole.
    site.stub.handle(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"total":1,');
      await new Promise((r) => setTimeout(r, 20));
      res.end('"document":[{"id":1}]}');
    });
    const whole = await send(`${site.gw.url}/api/v1/document/list?page=1`);
    expect([whole.status, whole.json()]).toEqual([200, { total: 1, document: [{ id: 1 }] }]);
  });

  it('answers 502 JSON, not a cut, when the backend closes the JSON error answer to a write mid-body', async () => {
    site.stub.handle((req, res) => {
      res.writeHead(400, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"code":3,"message":"');
      setTimeout(() => req.socket.destroy(), 20);
    });
    const res = await send(`${site.gw.url}/api/v1/comment`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json', ...sameOrigin(site.gw.url) },
    });
    expect(res.status).toBe(502);
    expect(res.json()).toEqual({
      code: 502,
      message: '后端服务暂时不可用，请稍后再试',
      error: '后端服务暂时不可用，请稍后再试',
    });
    // A whole one is passed on as it came.
    site.stub.handle((_req, r) => json(r, 400, { code: 3, message: '评论内容不能为空' }));
    const whole = await send(`${site.gw.url}/api/v1/comment`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json', ...sameOrigin(site.gw.url) },
    });
    expect([whole.status, whole.json()]).toEqual([400, { code: 3, message: '评论内容不能为空' }]);
  });

  it('answers 502 when a token answer is cut mid-body', async () => {
    site.stub.handle((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"token":"');
      setTimeout(() => req.socket.destroy(), 20);
    });
    const res = await send(`${site.gw.url}/api/v1/user/login`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(502);
    expect(res.setCookies).toEqual([]);
  });
});
