// The article pages of the public face over plain HTTP, the gateway in front of the real
// embedded backend: the route data the SPA starts with, the head, and the content a crawler
// that runs no JavaScript reads (the article, the footer's pages, the article lists).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAnswer } from '../../shared/api-call';
import {
  articleCall,
  articleListCall,
  articleListRequest,
  articleNeighboursCall,
  recommendedArticlesCall,
  relatedArticlesCall,
} from '../../shared/page-data';
import { api, login, setConfig } from '../helpers/backend';
import { startSite, type Site } from '../helpers/site';
import { FIXTURE_DIST, fetchPage, jsonLdOf, startDataOf } from './helpers';

const BROWSER = { accept: 'text/html', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36' };
const BODY = '<p>本站将于<strong>周末</strong>升级。</p><ul><li>暂停上传</li><li>暂停下载</li></ul>';

let site: Site;
let adminToken: string;
let notices: number;
let station: number;

async function categoryId(title: string): Promise<number> {
  const list = (await api(site.backendUrl, 'GET', '/api/v1/category/list', { query: { type: 1 } })).body.category as {
    id: number;
    title: string;
  }[];
  return list.find((c) => c.title === title)!.id;
}

async function createArticle(body: Record<string, unknown>): Promise<number> {
  const res = await api(site.backendUrl, 'POST', '/api/v1/article', { token: adminToken, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as number;
}

beforeAll(async () => {
  site = await startSite({ webDist: FIXTURE_DIST });
  adminToken = await login(site.backendUrl, 'admin', site.adminPassword);
  await setConfig(site.backendUrl, adminToken, { 'system.sitename': '测试文库' });
  await api(site.backendUrl, 'POST', '/api/v1/category', {
    token: adminToken,
    body: { title: '公告', type: 1, description: '本站的通知与公告' },
  });
  notices = await categoryId('公告');
  await api(site.backendUrl, 'POST', '/api/v1/category', {
    token: adminToken,
    body: { title: '站务', type: 1, parent_id: notices },
  });
  station = await categoryId('站务');
  await createArticle({
    title: '站点升级公告',
    identifier: 'upgrade',
    description: '周末升级的安排',
    keywords: '升级,公告',
    content: BODY,
    category_id: [station],
    is_recommend: true,
  });
  await createArticle({
    title: '维护通知',
    identifier: 'maintain',
    keywords: '升级',
    content: '<p>例行维护。</p>',
    category_id: [station],
  });
  await createArticle({ title: '孤篇', identifier: 'lonely', keywords: '孤篇', content: '<p>无人相关。</p>' });
  // Twelve articles below 公告: two pages of its list.
  for (let i = 1; i <= 10; i++)
    await createArticle({ title: `第${i}号通知`, content: `<p>通知${i}</p>`, category_id: [notices] });
}, 120_000);
afterAll(async () => {
  await site?.close();
});

const page = (path: string, headers?: Record<string, string>) => fetchPage(site.url, path, headers);

const sectionOf = (root: Element, title: string) =>
  [...root.querySelectorAll('section')].find((s) => s.querySelector('h2')?.textContent === title);

const linksOf = (root: Element | undefined) =>
  [...(root?.querySelectorAll('a') ?? [])].map((a) => [a.textContent, a.getAttribute('href')]);

describe('an article page without JavaScript', () => {
  it('holds the title, the author and date, the body as it was saved, and the related articles', async () => {
    const { res, doc } = await page(`/article/${station}/detail/upgrade`);
    expect(res.status).toBe(200);
    expect(doc.title).toBe('站点升级公告 - 测试文库');
    expect(doc.querySelector('meta[name="description"]')?.getAttribute('content')).toBe('周末升级的安排');
    expect(doc.querySelector('meta[name="keywords"]')?.getAttribute('content')).toMatch(/^升级,\s?公告$/);
    expect(doc.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(`${site.url}/article/detail/upgrade`);
    expect(doc.querySelector('meta[property="og:type"]')?.getAttribute('content')).toBe('article');
    expect(doc.querySelector('meta[property="og:title"]')?.getAttribute('content')).toBe('站点升级公告');
    expect(doc.querySelector('meta[name="robots"]')).toBeNull();

    const content = doc.querySelector('#root > [data-crawler]')!;
    const article = content.querySelector('article')!;
    expect(article.querySelector('h1')?.textContent).toBe('站点升级公告');
    expect(article.textContent).toContain('作者：admin');
    const keywords = [...article.querySelectorAll('p')].find((p) => p.textContent?.startsWith('关键词：'));
    expect(linksOf(keywords!)).toEqual([
      ['升级', `/article?wd=${encodeURIComponent('升级')}`],
      ['公告', `/article?wd=${encodeURIComponent('公告')}`],
    ]);
    expect(article.querySelector('time')?.getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(article.querySelector('strong')?.textContent).toBe('周末');
    expect([...article.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['暂停上传', '暂停下载']);
    expect(linksOf(content.querySelector('nav[aria-label="面包屑"]')!)).toEqual([
      ['首页', '/'],
      ['文章资讯', '/article'],
      ['公告', `/article/${notices}`],
      ['站务', `/article/${station}`],
    ]);
    expect(linksOf(sectionOf(content, '相关文章'))).toContainEqual(['维护通知', '/article/detail/maintain']);
  });

  it('carries JSON-LD that parses: an Article and its breadcrumbs', async () => {
    const { doc } = await page('/article/detail/upgrade');
    const [article, breadcrumbs] = jsonLdOf(doc);
    expect(article).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Article',
      headline: '站点升级公告',
      description: '周末升级的安排',
      url: `${site.url}/article/detail/upgrade`,
      author: { '@type': 'Person', name: 'admin' },
      inLanguage: 'zh-CN',
    });
    expect(typeof article!.datePublished).toBe('string');
    expect(
      (breadcrumbs!.itemListElement as { position: number; name: string }[]).map((i) => [i.position, i.name]),
    ).toEqual([
      [1, '首页'],
      [2, '文章资讯'],
      [3, '公告'],
      [4, '站务'],
      [5, '站点升级公告'],
    ]);
  });

  it('carries the article and the related ones in the start data, under the keys the reader reads', async () => {
    const { res } = await page('/article/detail/upgrade', BROWSER);
    const routeData = startDataOf(res.text).routeData ?? [];
    const fromApi = (await api(site.url, 'GET', '/api/v1/article', { query: { identifier: 'upgrade' } })).body;
    expect(findAnswer(routeData, articleCall('upgrade'))).toMatchObject({
      id: fromApi.id,
      title: fromApi.title,
      content: fromApi.content,
    });
    expect(findAnswer(routeData, relatedArticlesCall('upgrade'))?.map((a) => a.identifier)).toContain('maintain');
  });

  it('links 上一篇 and 下一篇 in the list of its category, for crawlers and in the start data, a footer page none', async () => {
    // 站务 lists 维护通知 (the newer) above 站点升级公告.
    const older = await page(`/article/${station}/detail/upgrade`);
    const links = older.doc.querySelector('#root > [data-crawler] nav[aria-label="上一篇和下一篇"]');
    expect(links?.textContent).toBe('上一篇：《维护通知》');
    expect(linksOf(links!)).toEqual([['维护通知', '/article/detail/maintain']]);
    const newer = await page('/article/detail/maintain');
    expect(newer.doc.querySelector('nav[aria-label="上一篇和下一篇"]')?.textContent).toBe('下一篇：《站点升级公告》');

    const { res } = await page(`/article/${station}/detail/upgrade`, BROWSER);
    const neighbours = findAnswer(startDataOf(res.text).routeData ?? [], articleNeighboursCall('upgrade', station));
    expect(neighbours?.previous).toMatchObject({ identifier: 'maintain', title: '维护通知' });
    expect(neighbours?.next).toBeUndefined();

    const about = await page('/article/about');
    expect(about.doc.querySelector('h1')?.textContent).toBe('关于我们');
    expect(about.doc.querySelector('nav[aria-label="上一篇和下一篇"]')).toBeNull();
  });

  it('shows the footer page `/article/about` as the article about', async () => {
    const { res, doc } = await page('/article/about');
    expect(res.status).toBe(200);
    expect(doc.title).toBe('关于我们 - 测试文库');
    expect(doc.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(`${site.url}/article/detail/about`);
    expect(doc.querySelector('#root [data-crawler] article h1')?.textContent).toBe('关于我们');
    expect(jsonLdOf(doc).map((d) => d['@type'])).toEqual(['Article', 'BreadcrumbList']);
  });

  it('shows the 隐私政策 at `/article/privacy` as the 文库协议, each linked from the footer', async () => {
    for (const [identifier, title, text] of [
      ['agreement', '文库协议', '注册、登录或使用本站服务'],
      ['privacy', '隐私政策', '个人信息保护法'],
    ] as const) {
      const { res, doc } = await page(`/article/${identifier}`);
      expect(res.status).toBe(200);
      expect(doc.title).toBe(`${title} - 测试文库`);
      expect(doc.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(
        `${site.url}/article/detail/${identifier}`,
      );
      const content = doc.querySelector('#root > [data-crawler]')!;
      expect(content.querySelector('article h1')?.textContent).toBe(title);
      expect(content.querySelector('article')?.textContent).toContain(text);
      const footerLinks = linksOf(content.querySelector('footer nav[aria-label="页脚链接"]')!);
      expect(footerLinks).toContainEqual(['文库协议', '/article/detail/agreement']);
      expect(footerLinks).toContainEqual(['隐私政策', '/article/detail/privacy']);
    }
  });

  it('carries "no related articles" when the backend finds none (its 404), as the screen would keep it', async () => {
    const { res, doc } = await page('/article/lonely', BROWSER);
    expect(res.status).toBe(200);
    expect(doc.title).toBe('孤篇 - 测试文库');
    expect(findAnswer(startDataOf(res.text).routeData ?? [], relatedArticlesCall('lonely'))).toEqual([]);
  });

  it('answers 404 for an article that does not exist: a plain page for crawlers, the SPA for people', async () => {
    const { res, doc } = await page('/article/detail/no-such-page');
    expect(res.status).toBe(404);
    expect(doc.querySelector('h1')?.textContent).toBe('文章不存在');
    expect(doc.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
    expect(res.text).not.toContain('<script');
    const person = await page('/article/no-such-page', BROWSER);
    expect(person.res.status).toBe(404);
    expect(person.doc.title).toBe('文章不存在 - 测试文库');
    // The page carries the failed read, which the app shows without asking for the article again.
    expect(startDataOf(person.res.text).routeFailures).toEqual([
      { key: articleCall('no-such-page').key, failure: { status: 404, data: { code: 5, message: '文章不存在' } } },
    ]);
    expect(person.doc.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex, nofollow');
  });
});

describe('the article lists without JavaScript', () => {
  it('title a category by its category and list its articles and those below it, with paging links', async () => {
    const { res, doc } = await page(`/article/${notices}`);
    expect(res.status).toBe(200);
    expect(doc.title).toBe('公告 - 测试文库');
    expect(doc.querySelector('meta[name="description"]')?.getAttribute('content')).toBe('本站的通知与公告');
    const content = doc.querySelector('#root [data-crawler]')!;
    expect(content.querySelector('h1')?.textContent).toBe('公告');
    expect(linksOf(sectionOf(content, '子分类'))).toEqual([['站务', `/article/${station}`]]);
    const first = linksOf(sectionOf(content, '文章'));
    expect(first).toHaveLength(10);
    expect(linksOf(content.querySelector('nav[aria-label="分页"]')!)).toEqual([
      ['2', `/article/${notices}?page=2`],
      ['下一页', `/article/${notices}?page=2`],
    ]);
    expect(linksOf(sectionOf(content, '推荐文章'))).toEqual([['站点升级公告', '/article/detail/upgrade']]);

    const second = await page(`/article/${notices}?page=2`);
    expect(second.doc.title).toBe('公告（第 2 页） - 测试文库');
    const rest = linksOf(sectionOf(second.doc.querySelector('#root [data-crawler]')!, '文章'));
    expect(rest).toHaveLength(2);
    // twelve different articles over the two pages, the sub-category's among them
    expect(new Set([...first, ...rest].map(([, href]) => href)).size).toBe(12);
    expect(rest.concat(first)).toContainEqual(['维护通知', '/article/detail/maintain']);
  });

  it('carry the list and the recommended articles in the start data, under the keys the screens read', async () => {
    const { res } = await page(`/article/${notices}`, BROWSER);
    const routeData = startDataOf(res.text).routeData ?? [];
    const list = findAnswer(routeData, articleListCall(articleListRequest([notices, station], 1)));
    expect(list?.total).toBe(12);
    expect(list?.articles).toHaveLength(10);
    expect(findAnswer(routeData, recommendedArticlesCall())?.articles.map((a) => a.identifier)).toEqual(['upgrade']);
  });

  it('list every article and the article categories on /article', async () => {
    const { res, doc } = await page('/article');
    expect(res.status).toBe(200);
    expect(doc.title).toBe('文章资讯 - 测试文库');
    const content = doc.querySelector('#root [data-crawler]')!;
    expect(linksOf(sectionOf(content, '文章分类'))).toEqual([['公告', `/article/${notices}`]]);
    expect(linksOf(sectionOf(content, '文章')).length).toBe(10);
    expect(content.querySelector('nav[aria-label="分页"] a')?.getAttribute('href')).toBe('/article?page=2');
  });
});

describe('a footer page removed in the admin', () => {
  it('leaves no link to it in the crawlers’ footer, and gets it back when restored', async () => {
    const footerLinks = async () =>
      linksOf((await page('/library')).doc.querySelector('#root > [data-crawler] footer nav[aria-label="页脚链接"]')!);
    const { id } = (await api(site.url, 'GET', '/api/v1/article', { query: { identifier: 'privacy' } })).body;
    const deleted = await api(site.url, 'DELETE', '/api/v1/article', { token: adminToken, query: { id } });
    expect(deleted.status).toBe(200);
    expect(await footerLinks()).not.toContainEqual(['隐私政策', '/article/detail/privacy']);
    expect(await footerLinks()).toContainEqual(['文库协议', '/article/detail/agreement']);
    const restored = await api(site.url, 'POST', '/api/v1/article/recycle/restore', {
      token: adminToken,
      body: { id: [id] },
    });
    expect(restored.status).toBe(200);
    expect(await footerLinks()).toContainEqual(['隐私政策', '/article/detail/privacy']);
  });
});
