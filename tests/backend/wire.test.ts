import { describe, expect, it } from 'vitest';
import { api, useBackend } from '../helpers/backend';
import { slowRequest } from '../helpers/slow-client';

// The wire rules of docs/moredoc.md §2, §3 and §5, checked once here for every RPC.

const backend = useBackend({ member: true });
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe('responses', () => {
  it('uses snake_case keys, omits zero values and writes RFC 3339 timestamps', async () => {
    const res = await api(backend.url, 'GET', '/api/v1/user', { token: backend.member.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('grpc-metadata-content-type')).toBe('application/grpc');
    expect(Object.keys(res.body).every((k) => /^[a-z0-9_]+$/.test(k))).toBe(true);
    expect(res.body).toHaveProperty('register_ip');
    expect(res.body).not.toHaveProperty('doc_count'); // 0 → omitted
    expect(res.body).not.toHaveProperty('email'); // '' → omitted
    expect(res.body).not.toHaveProperty('password');
    expect(res.body.created_at).toMatch(RFC3339);
    expect(res.body.id).toBe(backend.member.user.id);
  });

  it("writes every time as MOREDOC's Go RFC3339Nano, the same text on SQLite and PostgreSQL", async () => {
    // Stored as sent (ISO 8601 text in UTC) and answered with the fraction's trailing zeros
    // trimmed, none for whole seconds (docs/moredoc.md §2): .440 is .44 on both engines.
    const created = await backend.admin('POST', '/api/v1/advertisement', {
      body: {
        position: 'global_top',
        title: '时间格式',
        content: '<p>广告</p>',
        start_time: '2030-01-02T11:04:05.440+08:00',
        end_time: '2030-01-03T00:00:00.000Z',
      },
    });
    expect(created.status, created.text).toBe(200);
    const got = await backend.admin('GET', '/api/v1/advertisement', { query: { id: created.body.id } });
    expect(got.body).toMatchObject({ start_time: '2030-01-02T03:04:05.44Z', end_time: '2030-01-03T00:00:00Z' });
  });

  it('keeps the declaration order of the proto fields', async () => {
    const res = await api(backend.url, 'GET', '/api/v1/user', { token: backend.member.token });
    expect(Object.keys(res.body).slice(0, 4)).toEqual(['login_at', 'created_at', 'updated_at', 'id']);
  });

  it('omits false booleans and empty arrays but keeps true ones', async () => {
    const res = await api(backend.url, 'GET', '/api/v1/group', { query: { id: 1 } });
    expect(res.body.is_default).toBeUndefined();
    expect(res.body.is_display).toBe(true);
    const empty = await api(backend.url, 'GET', '/api/v1/user/permission', { token: backend.member.token });
    expect(empty.body).toEqual({});
  });
});

describe('errors', () => {
  it('answers {"error","code","message"} in that order with the mapped status', async () => {
    const res = await api(backend.url, 'GET', '/api/v1/user/permission');
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.text).toBe(
      '{"error":"您未登录或您的登录已过期，请重新登录或刷新页面重试","code":16,"message":"您未登录或您的登录已过期，请重新登录或刷新页面重试"}',
    );
  });

  it('answers 403 (code 7) to a member without the permission, naming it', async () => {
    const res = await api(backend.url, 'GET', '/api/v1/permission/list', { token: backend.member.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      error: '您没有权限访问【获取权限列表】',
      code: 7,
      message: '您没有权限访问【获取权限列表】',
    });
  });

  it('answers unknown API paths and wrong methods in the error shape, in Chinese', async () => {
    for (const path of ['/api/v1/nothing-here', '/api/v1/documnt/list', '/api/v1/user/', '/api/v1']) {
      const missing = await api(backend.url, 'GET', path);
      expect(missing.status, path).toBe(404);
      expect(missing.headers.get('content-type'), path).toBe('application/json');
      expect(missing.body, path).toEqual({
        error: '请求的接口不存在，请检查地址',
        code: 5,
        message: '请求的接口不存在，请检查地址',
      });
    }
    const wrongMethod = await api(backend.url, 'PATCH', '/api/v1/user/list');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toMatch(/^GET, HEAD$/);
    expect(wrongMethod.body).toEqual({
      error: '该接口不支持 PATCH 请求',
      code: 12,
      message: '该接口不支持 PATCH 请求',
    });
  });

  it('answers an address the router cannot read in Chinese, not echoing it', async () => {
    // A `%` without its hex digits, escapes that are not UTF-8, a path parameter past the router's length.
    for (const path of ['/api/v1/document%E4%B9', '/api/v1/%zz/list']) {
      const res = await fetch(backend.url + path);
      expect(res.status, path).toBe(400);
      expect(await res.json(), path).toEqual({
        error: '网址格式不正确（含有无法识别的 % 编码）',
        code: 3,
        message: '网址格式不正确（含有无法识别的 % 编码）',
      });
    }
    const file = await fetch(`${backend.url}/uploads/%E4%B9.png`);
    expect(file.status).toBe(400);
    expect(file.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await file.text()).toBe('网址格式不正确（含有无法识别的 % 编码）');
    const long = await fetch(`${backend.url}/sitemap/${'a'.repeat(200)}.xml`);
    expect(long.status).toBe(400);
    expect(await long.text()).toBe('网址过长');
    // The file server's own refusal (a NUL in the name) is said in Chinese too.
    const nul = await fetch(`${backend.url}/uploads/x%00.png`);
    expect(nul.status).toBe(403);
    expect(await nul.json()).toMatchObject({ code: 7, message: '禁止访问' });
  });

  it('answers a request the HTTP parser refuses in the error shape, in Chinese, and closes', async () => {
    const malformed = await slowRequest(
      backend.url,
      'GET /api/v1/settings HTTP/1.1\r\nHost: localhost\r\nno colon\r\n\r\n',
      [],
      30_000,
    );
    expect(malformed).toMatchObject({ answered: true, status: 400, closed: true });
    expect(JSON.parse(malformed.body)).toEqual({
      error: '请求格式不正确，无法处理',
      code: 3,
      message: '请求格式不正确，无法处理',
    });
    const long = await slowRequest(
      backend.url,
      `GET /api/v1/document/search?wd=${encodeURIComponent('长'.repeat(2000))} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
      [],
      30_000,
    );
    expect(long).toMatchObject({ answered: true, status: 431, closed: true });
    expect(JSON.parse(long.body)).toMatchObject({ code: 3, message: '请求头过大（网址或 Cookie 过长），无法处理' });
  });

  it('treats an invalid or foreign token as anonymous', async () => {
    const forged = await api(backend.url, 'GET', '/api/v1/user/permission', { token: 'not.a.jwt' });
    expect(forged.status).toBe(401);
    const publicCall = await api(backend.url, 'GET', '/api/v1/group/list', { token: 'not.a.jwt' });
    expect(publicCall.status).toBe(200);
  });
});

describe('JSON bodies', () => {
  it('rejects unknown keys with the contract message', async () => {
    const res = await api(backend.url, 'PUT', '/api/v1/permission', {
      token: backend.adminToken,
      body: { id: 1, foo: 'x' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'unknown field "foo" in v1.Permission',
      code: 3,
      message: 'unknown field "foo" in v1.Permission',
    });
  });

  it('rejects unknown keys in nested messages too', async () => {
    const res = await api(backend.url, 'PUT', '/api/v1/config', {
      token: backend.adminToken,
      body: { config: [{ id: 1, bogus: true }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('unknown field "bogus" in v1.Config');
  });

  it('accepts lowerCamel names and numeric strings', async () => {
    const res = await api(backend.url, 'PUT', '/api/v1/group/permission', {
      token: backend.adminToken,
      body: { groupId: '2', permissionId: ['1', 2] },
    });
    expect(res.status).toBe(200);
    const check = await api(backend.url, 'GET', '/api/v1/group/permission', {
      token: backend.adminToken,
      query: { id: 2 },
    });
    expect(check.body).toEqual({ permission_id: [1, 2] });
    await api(backend.url, 'PUT', '/api/v1/group/permission', {
      token: backend.adminToken,
      body: { group_id: 2, permission_id: [] },
    });
  });

  it('rejects malformed JSON, wrong types and non-object bodies with 400 code 3', async () => {
    for (const rawBody of ['{"title":', '[1,2]', '"x"', '{"id":"abc"}', '{"id":1.5}', '{"title":5}']) {
      const res = await api(backend.url, 'PUT', '/api/v1/permission', { token: backend.adminToken, rawBody });
      expect(res.status, rawBody).toBe(400);
      expect(res.body.code, rawBody).toBe(3);
    }
  });

  it('requires real booleans for bool fields', async () => {
    const res = await api(backend.url, 'PUT', '/api/v1/group', {
      token: backend.adminToken,
      body: { id: 2, title: '普通用户', is_default: 'true' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('is_default');
  });

  it('ignores the content type and accepts an empty body', async () => {
    const res = await api(backend.url, 'POST', '/api/v1/user/login', {
      rawBody: JSON.stringify({ username: 'admin', password: backend.adminPassword }),
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(200);
    const empty = await api(backend.url, 'PUT', '/api/v1/permission', { token: backend.adminToken, rawBody: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('id');
  });

  it('answers 429 (code 8) to bodies over 4 MiB', async () => {
    const res = await api(backend.url, 'PUT', '/api/v1/permission', {
      token: backend.adminToken,
      rawBody: JSON.stringify({ title: 'x'.repeat(5 * 1024 * 1024) }),
    });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe(8);
  });
});

describe('query strings', () => {
  it('reads arrays from repeated keys', async () => {
    const res = await api(backend.url, 'GET', '/api/v1/user/list', {
      token: backend.adminToken,
      query: { id: [1, backend.member.user.id] },
    });
    expect(res.status).toBe(200);
    expect(res.body.user.map((u: { id: number }) => u.id).sort()).toEqual([1, backend.member.user.id].sort());
    expect(res.body.total).toBeUndefined(); // no total when ids are given
  });

  it('refuses bracket arrays and bad numbers with 400', async () => {
    const bracket = await fetch(`${backend.url}/api/v1/user/list?id[]=1`, {
      headers: { authorization: `Bearer ${backend.adminToken}` },
    });
    expect(bracket.status).toBe(400);
    const bad = await api(backend.url, 'GET', '/api/v1/group/list', { query: { page: 'abc' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('page');
    const empty = await api(backend.url, 'GET', '/api/v1/group/list', { query: { size: '' } });
    expect(empty.status).toBe(400);
  });

  it('parses integers like Go (hex, octal) and ignores unknown parameters', async () => {
    const hex = await api(backend.url, 'GET', '/api/v1/group', { query: { id: '0x1', whatever: 'x' } });
    expect(hex.body.id).toBe(1);
    const octal = await api(backend.url, 'GET', '/api/v1/group', { query: { id: '02' } });
    expect(octal.body.id).toBe(2);
  });

  it('accepts lowerCamel parameter names and takes the first value of a repeated scalar', async () => {
    const res = await api(backend.url, 'GET', '/api/v1/group', { query: { id: [2, 1] } });
    expect(res.body.id).toBe(2);
    const camel = await api(backend.url, 'GET', '/api/v1/permission/list', {
      token: backend.adminToken,
      query: { method: 'post', size: 1, page: 1 },
    });
    expect(camel.body.permission).toHaveLength(1);
  });

  it('returns every row when size <= 0', async () => {
    const all = await api(backend.url, 'GET', '/api/v1/permission/list', { token: backend.adminToken });
    expect(all.body.permission.length).toBe(all.body.total);
    expect(all.body.total).toBeGreaterThan(50);
  });
});
