import { describe, expect, it, vi } from 'vitest';
import { AS_VISITOR_HEADER } from '../../shared/writes';
import { ApiError, buildQueryString, createApiClient, REQUEST_TIMEOUT_MS, unwrap } from '../../web/src/api/client';

type FetchArgs = [string, RequestInit];

function jsonResponse(status: number, body: unknown, statusText = ''): Response {
  return new Response(body === undefined ? '' : JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });
}

function clientWith(respond: (url: string, init: RequestInit) => Promise<Response> | Response, extra = {}) {
  const fetchMock = vi.fn((url: string, init: RequestInit) => Promise.resolve(respond(url, init)));
  const client = createApiClient({ fetch: fetchMock as unknown as typeof fetch, ...extra });
  return { client, fetchMock, call: (i = 0) => fetchMock.mock.calls[i] as FetchArgs };
}

describe('buildQueryString', () => {
  it('sends arrays as the same key repeated per value', () => {
    expect(buildQueryString({ id: [1, 2, 3], wd: '文档' })).toBe('id=1&id=2&id=3&wd=%E6%96%87%E6%A1%A3');
  });

  it('leaves out null and undefined and writes booleans as text', () => {
    expect(buildQueryString({ a: undefined, b: null, enable: [true], page: 1 })).toBe('enable=true&page=1');
  });
});

describe('api client', () => {
  it('sends JSON with a JSON content type and returns the body of a 200', async () => {
    const { client, call } = clientWith(() => jsonResponse(200, { user: { id: 2 } }));
    const result = await client.post('/api/v1/user/login', { username: 'amy', password: 'secret1' });
    expect(result).toEqual({ ok: true, status: 200, data: { user: { id: 2 } } });
    const [url, init] = call();
    expect(url).toBe('/api/v1/user/login');
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(init.body).toBe(JSON.stringify({ username: 'amy', password: 'secret1' }));
  });

  it('puts the query of a GET in the URL with repeated keys', async () => {
    const { client, call } = clientWith(() => jsonResponse(200, {}));
    await client.get('/api/v1/category/list', { type: [0, 1], page: 1 });
    expect(call()[0]).toBe('/api/v1/category/list?type=0&type=1&page=1');
  });

  it('sends no Authorization header when no token is held', async () => {
    const { client, call } = clientWith(() => jsonResponse(200, {}));
    await client.get('/api/v1/user');
    expect((call()[1].headers as Record<string, string>).Authorization).toBeUndefined();
  });

  it('sends a bearer header when a token is held', async () => {
    const { client, call } = clientWith(() => jsonResponse(200, {}), { getToken: () => 'abc.def' });
    await client.get('/api/v1/user');
    expect((call()[1].headers as Record<string, string>).Authorization).toBe('Bearer abc.def');
  });

  it("marks the searches, and only them, as a visitor's while told to (a page another site opened)", async () => {
    let opened = true;
    const { client, call } = clientWith(() => jsonResponse(200, {}), { recordsAsVisitor: () => opened });
    await client.get('/api/v1/document/search', { wd: '站外' });
    await client.get('/api/v1/document', { id: 1 });
    opened = false;
    await client.get('/api/v1/document/search', { wd: '本站' });
    const marker = (i: number) => (call(i)[1].headers as Record<string, string>)[AS_VISITOR_HEADER];
    expect([marker(0), marker(1), marker(2)]).toEqual(['1', undefined, undefined]);
  });

  it('sends FormData untouched so the browser sets the multipart boundary', async () => {
    const { client, call } = clientWith(() => jsonResponse(200, { data: { path: '/uploads/a.png' } }));
    const form = new FormData();
    form.append('file', new Blob(['x'], { type: 'image/png' }), 'a.png');
    await client.post('/api/v1/upload/avatar', form);
    const init = call()[1];
    expect(init.body).toBe(form);
    expect((init.headers as Record<string, string>)['Content-Type']).toBeUndefined();
  });

  it('treats every non-200 status as a failure, with the server message and code', async () => {
    const { client } = clientWith(() =>
      jsonResponse(400, { code: 3, message: '用户名或密码错误', error: '用户名或密码错误' }, 'Bad Request'),
    );
    expect(await client.post('/api/v1/user/login', {})).toEqual({
      ok: false,
      status: 400,
      data: { code: 3, message: '用户名或密码错误' },
    });
  });

  it('treats a 201 as a failure too', async () => {
    const { client } = clientWith(() => jsonResponse(201, {}, 'Created'));
    const result = await client.post('/x', {});
    expect(result.ok).toBe(false);
  });

  it('says in Chinese what the status means when the server sends no message, not its English reason', async () => {
    const { client } = clientWith(
      () => new Response('<html>oops</html>', { status: 500, statusText: 'Internal Server Error' }),
    );
    expect(await client.get('/api/v1/settings')).toEqual({
      ok: false,
      status: 500,
      data: { code: 500, message: '服务器内部错误，请稍后再试' },
    });
    const tooMany = clientWith(() => new Response('', { status: 429, statusText: 'Too Many Requests' }));
    expect((await tooMany.client.get('/api/v1/settings')).data).toEqual({
      code: 500,
      message: '操作过于频繁，请稍后再试',
    });
  });

  it("says the service is unavailable, in Chinese, for a 502 whose body is not the API's", async () => {
    const { client } = clientWith(() => new Response('<html>oops</html>', { status: 502, statusText: 'Bad Gateway' }));
    expect(await client.get('/api/v1/settings')).toEqual({
      ok: false,
      status: 502,
      data: { code: 500, message: '服务暂时不可用，请稍后再试' },
    });
  });

  it('answers that the server could not be reached, with status 500, when there is no response', async () => {
    const { client } = clientWith(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await client.get('/api/v1/settings')).toEqual({
      ok: false,
      status: 500,
      data: { code: 500, message: '无法连接服务器，请检查网络后重试' },
    });
  });

  it('says the service is unavailable, not that it could not be reached, when the answer breaks off mid-body', async () => {
    // What fetch gives when the connection closes part-way through a body: its read fails.
    const { client } = clientWith(
      () =>
        new Response(
          new ReadableStream({
            start(stream) {
              stream.enqueue(new TextEncoder().encode('{"total":2,"document":[{"id":1,'));
              stream.error(new TypeError('network error'));
            },
          }),
          { status: 200, headers: { 'Content-Type': 'application/json' } },
        ),
    );
    expect(await client.get('/api/v1/document/list')).toEqual({
      ok: false,
      status: 502,
      data: { code: 500, message: '服务暂时不可用，请稍后再试' },
    });
  });

  it('gives up after 30 seconds', async () => {
    vi.useFakeTimers();
    try {
      const { client } = clientWith(
        (_url, init) =>
          new Promise<Response>((_resolve, reject) => {
            init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          }),
      );
      const pending = client.get('/api/v1/slow');
      await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
      let settled = false;
      void pending.then(() => (settled = true));
      await Promise.resolve();
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await pending).toEqual({
        ok: false,
        status: 500,
        data: { code: 500, message: '无法连接服务器，请检查网络后重试' },
      });
    } finally {
      vi.useRealTimers();
    }
    expect(REQUEST_TIMEOUT_MS).toBe(30_000);
  });

  it('calls the unauthorized handler on a 401, unless the caller handles it', async () => {
    const onUnauthorized = vi.fn();
    const { client } = clientWith(() => jsonResponse(401, { code: 16, message: '您未登录或您的登录已过期' }), {
      onUnauthorized,
    });
    const result = await client.get('/api/v1/user/permission');
    expect(result).toMatchObject({ ok: false, status: 401 });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    await client.get('/api/v1/user', undefined, { skipUnauthorizedRedirect: true });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('returns an empty object for a 200 with an empty body', async () => {
    const { client } = clientWith(() => new Response('', { status: 200 }));
    expect(await client.delete('/api/v1/user/logout')).toEqual({ ok: true, status: 200, data: {} });
  });

  it('unwrap turns a failure into an ApiError for react-query', async () => {
    const { client } = clientWith(() => jsonResponse(403, { code: 7, message: '没有权限' }));
    const result = await client.get('/api/v1/stats');
    expect(() => unwrap(result)).toThrow(ApiError);
    try {
      unwrap(result);
    } catch (error) {
      expect((error as ApiError).status).toBe(403);
      expect((error as ApiError).message).toBe('没有权限');
    }
  });
});
