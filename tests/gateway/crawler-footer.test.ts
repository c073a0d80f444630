// The footer crawlers get with a public page's plain content (gateway/page-html.ts): the
// footer links, the copyright statement and years, and the 备案 numbers with their links, as
// the SPA's footer shows them to people (shared/site-footer.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPage, startGateway, type TestGateway } from './helpers';
import { startFakeBackend, type FakeBackend } from './fake-backend';

let backend: FakeBackend;
let gw: TestGateway;

beforeAll(async () => {
  backend = await startFakeBackend();
  gw = await startGateway(backend.url, { startDataTtlMs: 0 });
});
afterAll(async () => {
  await gw.close();
  await backend.close();
});

const footerOf = (doc: Document) => doc.querySelector('#root > [data-crawler] > footer');

describe('crawler footer', () => {
  it('carries the footer links (the 隐私政策 beside the 文库协议), the statement, © years and site name, and both 备案 numbers linked', async () => {
    Object.assign(backend.settings, {
      footer: {
        about: '/article/about',
        contact: '',
        agreement: '/article/agreement',
        privacy: '/article/privacy',
        feedback: 'https://example.com/feedback',
      },
      display: { copyright_statement: '<p>本站文档由用户上传 &amp; 分享</p>' },
    });
    Object.assign(backend.settings.system!, {
      sitename: '书香文库',
      copyright_start_year: '2019',
      icp: '京ICP备12345678号-1',
      sec_icp: '京公网安备 11010502030143号',
    });
    const { res, doc } = await fetchPage(gw.url, '/library');
    expect(res.status).toBe(200);
    const footer = footerOf(doc)!;
    expect(footer).not.toBeNull();
    const links = [...footer.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['关于我们', '/article/detail/about'],
      ['文库协议', '/article/detail/agreement'],
      ['隐私政策', '/article/detail/privacy'],
      ['意见反馈', 'https://example.com/feedback'],
      ['京ICP备12345678号-1', 'https://beian.miit.gov.cn/'],
      ['京公网安备 11010502030143号', 'https://beian.mps.gov.cn/#/query/webSearch?code=11010502030143'],
    ]);
    expect(footer.textContent).toContain('本站文档由用户上传 & 分享');
    expect(footer.textContent).toContain(`© 2019-${new Date().getFullYear()} 书香文库`);
  });

  it('leaves out what is empty: no empty link, no empty paragraph', async () => {
    Object.assign(backend.settings, { footer: {}, display: {} });
    Object.assign(backend.settings.system!, { sitename: '书香文库', copyright_start_year: '', icp: '', sec_icp: '' });
    const { doc } = await fetchPage(gw.url, '/');
    const footer = footerOf(doc)!;
    expect(footer.querySelectorAll('a')).toHaveLength(0);
    expect(footer.querySelector('nav')).toBeNull();
    expect([...footer.querySelectorAll('p')].map((p) => p.textContent)).toEqual([
      `© ${new Date().getFullYear()} 书香文库`,
    ]);
  });
});
