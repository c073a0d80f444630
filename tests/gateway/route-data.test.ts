import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { documentCall, relatedDocumentsCall } from '../../shared/page-data';
import { findAnswer } from '../../shared/api-call';
import type { StartData } from '../../shared/types/start-data';
import { CRAWLER, json, sameOrigin, send, startGateway, startStub, type TestGateway } from './helpers';
import { startFakeBackend, type FakeBackend } from './fake-backend';

// Route data: the gateway makes the first calls of a public page, inlines their answers with
// the start data, keeps visitors' answers briefly, drops them after a write, and serves the
// page without them when they are late or fail.

const HTML = { accept: 'text/html' };
const BROWSER = { ...HTML, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36' };

/** How long a late call is held: past the route data's limit (1 s) by far. */
const LATE_MS = 10_000;
let backend: FakeBackend;
let gw: TestGateway;

beforeAll(async () => {
  backend = await startFakeBackend();
  // A call in time answers in milliseconds, a late one is held 10 s: the limit between them is wide.
  gw = await startGateway(backend.url, { routeDataTimeoutMs: 1_000, routeDataTtlMs: 60_000, startDataTtlMs: 60_000 });
});
afterAll(async () => {
  // The backend first: it drops the late calls it still holds, which the gateway would wait for.
  await backend.close();
  await gw.close();
});
beforeEach(() => {
  backend.documents.clear();
  backend.documents.set(7, {
    id: 7,
    title: '高等数学讲义',
    description: '微积分入门',
    content: '极限与连续。导数。',
    category_id: [1],
    category: [{ id: 1 }],
  });
  backend.documents.set(8, { id: 8, title: '线性代数', category_id: [1] });
});
afterEach(() => {
  backend.calls.clear();
  backend.delays.clear();
  backend.authorizations.clear();
});

function startDataOf(html: string): StartData {
  return JSON.parse(/id="start-data">(.*?)<\/script>/s.exec(html)![1]!) as StartData;
}

/** A write through the gateway that makes the route data stale (as an admin's would). */
async function deleteDocument(id: number): Promise<void> {
  const res = await send(`${gw.url}/api/v1/document?id=${id}`, {
    method: 'DELETE',
    headers: sameOrigin(gw.url, { cookie: `token=${backend.adminToken}` }),
  });
  expect(res.status).toBe(200);
}

describe('route data', () => {
  it("inlines the answers of the page's first calls under their keys, shaped as the screens keep them", async () => {
    const res = await send(`${gw.url}/library/1/7`, { headers: BROWSER });
    expect(res.status).toBe(200);
    const routeData = startDataOf(res.text).routeData ?? [];
    expect(findAnswer(routeData, documentCall(7))).toMatchObject({ id: 7, title: '高等数学讲义' });
    expect(findAnswer(routeData, relatedDocumentsCall(7))).toEqual([{ id: 8, title: '线性代数', category_id: [1] }]);
    // the calls the SPA would have made, with the same paths and queries
    expect(backend.requests.some((r) => r.url === '/api/v1/document?id=7&with_author=true')).toBe(true);
    expect(backend.requests.some((r) => r.url === '/api/v1/document/related?id=7')).toBe(true);
  });

  it("keeps a visitor's answers and page for the next visitors, and drops them after a write", async () => {
    await send(`${gw.url}/library/1/8`, { headers: BROWSER });
    await send(`${gw.url}/library/1/8`, { headers: BROWSER });
    expect(backend.calls.get('/api/v1/document')).toBe(1);
    await deleteDocument(8);
    const after = await send(`${gw.url}/library/1/8`, { headers: BROWSER });
    expect(backend.calls.get('/api/v1/document')).toBe(2);
    expect(after.status).toBe(404);
  });

  it("makes a logged-in visitor's calls with their token, and keeps none of them", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await send(`${gw.url}/library/1/7`, {
        headers: { ...BROWSER, cookie: `token=${backend.memberToken}` },
      });
      expect(res.status).toBe(200);
      expect(findAnswer(startDataOf(res.text).routeData ?? [], documentCall(7))?.title).toBe('高等数学讲义');
    }
    expect(backend.authorizations.get('/api/v1/document')).toEqual([
      `Bearer ${backend.memberToken}`,
      `Bearer ${backend.memberToken}`,
    ]);
  });

  it('serves the page without the calls that are late, and the SPA makes them', async () => {
    backend.delays.set('/api/v1/document/related', LATE_MS);
    const started = Date.now();
    const res = await send(`${gw.url}/library/1/7?late=1`, { headers: BROWSER });
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(LATE_MS);
    const routeData = startDataOf(res.text).routeData ?? [];
    expect(findAnswer(routeData, documentCall(7))?.title).toBe('高等数学讲义');
    expect(findAnswer(routeData, relatedDocumentsCall(7))).toBeUndefined();
  });

  it('serves the page without route data when the backend fails the calls', async () => {
    backend.documents.set(9, { id: 9, title: '概率论', category_id: [1] });
    backend.delays.set('/api/v1/document', LATE_MS);
    const res = await send(`${gw.url}/library/1/9`, { headers: BROWSER });
    expect(res.status).toBe(200);
    expect(findAnswer(startDataOf(res.text).routeData ?? [], documentCall(9))).toBeUndefined();
    // no document, no crawler content of it: the route's own title only
    expect(res.text).toContain('<title>文档详情 - 魔豆文库</title>');
    expect(res.text).not.toContain('概率论');
  });

  it('carries a call the backend cannot answer now as its failure, in a 503 page that is not kept', async () => {
    let listCalls = 0;
    const away = await startStub((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      if (path === '/api/v1/settings') return json(res, 200, { system: { sitename: '魔豆文库' } });
      if (path === '/api/v1/navigation/list') return json(res, 200, { navigation: [] });
      if (path === '/api/v1/category/list') return json(res, 200, { category: [] });
      if (path === '/api/v1/document/list') listCalls += 1;
      return json(res, 503, { code: 14, message: '数据库暂时不可用，请稍后再试' });
    });
    const target = await startGateway(away.url, { routeDataTimeoutMs: 1_000, routeDataTtlMs: 60_000 });
    try {
      for (const round of [1, 2]) {
        const res = await send(`${target.url}/library`, { headers: BROWSER });
        expect(res.status).toBe(503);
        const failures = startDataOf(res.text).routeFailures ?? [];
        expect(failures.length).toBeGreaterThan(0);
        for (const failed of failures)
          expect(failed.failure).toEqual({ status: 503, data: { code: 14, message: '数据库暂时不可用，请稍后再试' } });
        // Made again for the next visitor, not kept: once the backend is back, the page is whole.
        expect(listCalls).toBe(round);
      }
      const crawler = await send(`${target.url}/library`, { headers: CRAWLER });
      expect(crawler.status).toBe(503);
    } finally {
      await target.close();
      await away.close();
    }
  });

  it('answers a missing document 404: the SPA page for people, a plain page for crawlers', async () => {
    const person = await send(`${gw.url}/library/1/99`, { headers: BROWSER });
    expect(person.status).toBe(404);
    expect(person.text).toContain('id="start-data"');
    expect(person.text).toContain('<title>文档不存在 - 魔豆文库</title>');
    // The page carries the failed read: the app shows its 404 without asking for the document again.
    const start = startDataOf(person.text);
    expect(start.routeFailures).toEqual([
      { key: documentCall(99).key, failure: { status: 404, data: { code: 5, message: '文档不存在' } } },
    ]);
    expect(findAnswer(start.routeData ?? [], documentCall(99))).toBeUndefined();
    const crawler = await send(`${gw.url}/library/1/99`, { headers: CRAWLER });
    expect(crawler.status).toBe(404);
    expect(crawler.headers.vary).toBe('Accept-Encoding, Cookie, User-Agent');
    expect(crawler.text).toContain('<h1>文档不存在</h1>');
    expect(crawler.text).toContain('<meta name="robots" content="noindex">');
    expect(crawler.text).not.toContain('<script');
  });

  it('carries no route data when ROUTE_DATA_TIMEOUT_MS is 0', async () => {
    const off = await startGateway(backend.url, { routeDataTimeoutMs: 0 });
    try {
      const res = await send(`${off.url}/library/1/7`, { headers: BROWSER });
      expect(res.status).toBe(200);
      expect(startDataOf(res.text).routeData).toBeUndefined();
      expect(backend.calls.get('/api/v1/document')).toBeUndefined();
    } finally {
      await off.close();
    }
  });
});
