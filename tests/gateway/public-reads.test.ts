// Visitors' public reads (gateway/plugins/public-reads.ts): a visitor's settings, lists and
// documents are answered again by the lane in front of Fastify, byte for byte and header for
// header, until a change or their lifetime ends them; a session's calls, conditional requests,
// calls that count a view and answers other than 200 always reach the backend. The backend
// counts the calls it gets; a hook counts what reaches Fastify.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  COUNTED_TTL_MS,
  accessLines,
  clockAhead,
  sameOrigin,
  sameParts,
  send,
  sendRaw,
  type CountedGateway,
} from './helpers';
import { useCountedSite, type FakeBackend } from './fake-backend';

const TTL_MS = COUNTED_TTL_MS;
const API = { accept: 'application/json' };

let backend: FakeBackend;
let gw: CountedGateway;
const calls = (path: string) => backend.calls.get(path) ?? 0;

useCountedSite(
  (site) => ({ backend, gw } = site),
  (fake) => {
    fake.documents.set(7, { id: 7, title: '公开文档', status: 2 } as never);
    const body = Buffer.from(JSON.stringify({ document_count: 1 }));
    fake.files.set('/api/v1/stats', {
      type: 'application/json; charset=utf-8',
      body,
      cacheControl: 'private, max-age=60',
    });
  },
);
afterEach(() => {
  backend.delays.clear();
});

describe("a visitor's public reads", () => {
  it('are answered again without Fastify or the backend: the same status, headers and bytes, a request id each', async () => {
    for (const url of ['/api/v1/settings', '/api/v1/document/list?page=1&size=10', '/api/v1/document?id=7']) {
      const path = url.split('?')[0]!;
      const first = await send(`${gw.url}${url}`, { headers: API });
      const [backendCalls, reached] = [calls(path), gw.reachedFastify()];
      const again = await send(`${gw.url}${url}`, { headers: API });
      const third = await send(`${gw.url}${url}`, { headers: API });
      expect([calls(path), gw.reachedFastify()]).toEqual([backendCalls, reached]);
      expect(first.status).toBe(200);
      expect(again.status).toBe(200);
      expect(sameParts(again)).toEqual(sameParts(first));
      expect(again.body.equals(first.body)).toBe(true);
      expect(new Set([first, again, third].map((a) => a.headers['x-request-id'])).size).toBe(3);
      // the security headers of the first answer come again
      expect(again.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('write an access line each, with their own request id', async () => {
    await send(`${gw.url}/api/v1/category/list?type=0`, { headers: API });
    gw.logs.length = 0;
    const again = await send(`${gw.url}/api/v1/category/list?type=0`, { headers: API });
    expect(accessLines(gw.logs)).toEqual([
      expect.objectContaining({
        reqId: again.headers['x-request-id'],
        url: '/api/v1/category/list?type=0',
        status: 200,
      }),
    ]);
  });

  it("end with a write through the gateway: a visitor reads the admin's new setting at once", async () => {
    const before = await send(`${gw.url}/api/v1/settings`, { headers: API });
    await send(`${gw.url}/api/v1/settings`, { headers: API });
    const reached = calls('/api/v1/settings');
    const write = await send(`${gw.url}/api/v1/config`, {
      method: 'PUT',
      headers: {
        ...sameOrigin(gw.url),
        authorization: `Bearer ${backend.adminToken}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ config: [{ category: 'system', name: 'title', value: '新的站点名' }] }),
    });
    expect(write.status).toBe(200);
    const after = await send(`${gw.url}/api/v1/settings`, { headers: API });
    expect(calls('/api/v1/settings')).toBe(reached + 1);
    expect(before.json<{ system: { title?: string } }>().system.title).not.toBe('新的站点名');
    expect(after.json<{ system: { title: string } }>().system.title).toBe('新的站点名');
  });

  it('end with their lifetime', async () => {
    await send(`${gw.url}/api/v1/navigation/list`, { headers: API });
    await send(`${gw.url}/api/v1/navigation/list`, { headers: API });
    const reached = calls('/api/v1/navigation/list');
    clockAhead(TTL_MS + 1);
    await send(`${gw.url}/api/v1/navigation/list`, { headers: API });
    expect(calls('/api/v1/navigation/list')).toBe(reached + 1);
  });

  it('past their lifetime, are answered while one request makes their successor, for one lifetime more at most', async () => {
    const url = `${gw.url}/api/v1/category/list?type=1`;
    const reads = () => calls('/api/v1/category/list');
    await send(url, { headers: API });
    const reached = reads();
    clockAhead(TTL_MS + 1);
    backend.delays.set('/api/v1/category/list', 300);
    const successor = send(url, { headers: API });
    // once it is at the backend (not after a clock a busy machine may miss)
    await vi.waitFor(() => expect(reads()).toBe(reached + 1), { interval: 5 });
    // meanwhile: the kept answer, without the backend
    const meanwhile = await Promise.all([send(url, { headers: API }), send(url, { headers: API })]);
    expect(meanwhile.map((answer) => answer.status)).toEqual([200, 200]);
    expect(reads()).toBe(reached + 1);
    expect((await successor).status).toBe(200);
    backend.delays.clear();
    // the successor is kept
    await send(url, { headers: API });
    expect(reads()).toBe(reached + 1);
    // a lifetime past the successor's: the backend again, for every request until one is kept anew
    vi.useRealTimers();
    clockAhead(3 * TTL_MS + 2000);
    backend.delays.set('/api/v1/category/list', 300);
    await Promise.all([send(url, { headers: API }), send(url, { headers: API })]);
    expect(reads()).toBe(reached + 3);
  });

  it('are not kept when a change came while the backend answered', async () => {
    backend.delays.set('/api/v1/document/related', 300);
    const before = calls('/api/v1/document/related');
    const slow = send(`${gw.url}/api/v1/document/related?id=7`, { headers: API });
    // the write once the read is at the backend (a write before it would come before the read, not during it)
    await vi.waitFor(() => expect(calls('/api/v1/document/related')).toBe(before + 1), { interval: 5 });
    const write = await send(`${gw.url}/api/v1/document?id=99`, {
      method: 'DELETE',
      headers: { ...sameOrigin(gw.url), authorization: `Bearer ${backend.adminToken}` },
    });
    expect(write.status).toBe(200);
    expect((await slow).status).toBe(200);
    backend.delays.clear();
    const reached = calls('/api/v1/document/related');
    await send(`${gw.url}/api/v1/document/related?id=7`, { headers: API });
    expect(calls('/api/v1/document/related')).toBe(reached + 1);
  });

  it.each([
    ['with a session cookie', '/api/v1/settings', () => ({ cookie: `token=${backend.memberToken}` })],
    ['with an Authorization header', '/api/v1/settings', () => ({ authorization: `Bearer ${backend.memberToken}` })],
    ['a conditional request', '/api/v1/settings', () => ({ 'if-none-match': '"x"' })],
    ['a GetDocument that counts a view', '/api/v1/document?id=7&with_author=true', () => ({})],
    ['a read not on the list (a search counts a record)', '/api/v1/user', () => ({})],
    ['an answer other than 200', '/api/v1/document?id=404', () => ({})],
    ['an answer marked private', '/api/v1/stats', () => ({})],
  ])('reach the backend every time: %s', async (_name, url, extra) => {
    const path = url.split('?')[0]!;
    await send(`${gw.url}${url}`, { headers: { ...API, ...extra() } });
    const reached = calls(path);
    await send(`${gw.url}${url}`, { headers: { ...API, ...extra() } });
    await send(`${gw.url}${url}`, { headers: { ...API, ...extra() } });
    expect(calls(path)).toBe(reached + 2);
  });

  it("are never another request's: a URL written otherwise is Fastify's, and a HEAD is not a GET", async () => {
    await send(`${gw.url}/api/v1/document/list?page=2`, { headers: API });
    const reached = gw.reachedFastify();
    expect((await sendRaw(gw.url, '/api/v1/%64ocument/list?page=2', { headers: API })).status).toBe(200);
    // (the fake backend routes GETs only: its HEAD answer is a 404 of its own)
    await send(`${gw.url}/api/v1/document/list?page=2`, { method: 'HEAD', headers: API });
    expect(gw.reachedFastify()).toBe(reached + 2);
  });
});
