// /hot as a crawler sees it: its page of the ranking as links, the links to its other pages,
// each page its own canonical, and a page past the last one a 404 (decision 070).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPage, startGateway, type TestGateway } from './helpers';
import { startFakeBackend, type FakeBackend } from './fake-backend';

let backend: FakeBackend;
let gw: TestGateway;

beforeAll(async () => {
  backend = await startFakeBackend();
  for (let id = 1; id <= 25; id++) backend.hot.push({ id, title: `热门资料${id}`, category_id: [1], status: 2 });
  gw = await startGateway(backend.url, { startDataTtlMs: 0 });
});
afterAll(async () => {
  await gw.close();
  await backend.close();
});

const linksOf = (doc: Document, selector: string) =>
  [...doc.querySelectorAll(`#root > [data-crawler] main ${selector} a`)].map((a) => a.getAttribute('href'));

describe('/hot for crawlers', () => {
  it('lists its page of the ranking as links, with links to its other pages', async () => {
    const { res, doc } = await fetchPage(gw.url, '/hot');
    expect(res.status).toBe(200);
    expect(doc.title).toBe('热门文档 - 魔豆文库');
    expect(doc.querySelector('#root > [data-crawler] main h1')?.textContent).toBe('热门文档');
    const documents = linksOf(doc, 'section');
    expect(documents).toHaveLength(20);
    expect(documents[0]).toBe('/library/1/1');
    expect(linksOf(doc, 'nav[aria-label="分页"]')).toEqual(['/hot?page=2', '/hot?page=2']);
    expect(doc.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(`${gw.url}/hot`);
  });

  it('gives its second page its own title and canonical, and answers 404 past the last', async () => {
    const { res, doc } = await fetchPage(gw.url, '/hot?page=2&from=home');
    expect(res.status).toBe(200);
    expect(doc.title).toBe('热门文档（第 2 页） - 魔豆文库');
    expect(doc.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(`${gw.url}/hot?page=2`);
    expect(linksOf(doc, 'section')).toEqual([
      '/library/1/21',
      '/library/1/22',
      '/library/1/23',
      '/library/1/24',
      '/library/1/25',
    ]);
    expect((await fetchPage(gw.url, '/hot?page=3')).res.status).toBe(404);
  });
});
