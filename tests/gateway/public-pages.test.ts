// The public face over plain HTTP, as a crawler that runs no JavaScript sees it: the gateway
// in front of the real embedded backend, with converted documents (the engine's outputs
// recorded at its first conversion: tests/helpers/recorded-conversions.ts).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAnswer } from '../../shared/api-call';
import {
  articleListCall,
  articleListRequest,
  documentCall,
  friendlinksCall,
  latestDocumentsCall,
  recommendedArticlesCall,
  websiteBannersCall,
} from '../../shared/page-data';
import { api, login, setConfig } from '../helpers/backend';
import { createDocument, uploader, waitForStatus } from '../helpers/document-api';
import { fixture, textPdf } from '../helpers/documents';
import { startSite, type Site } from '../helpers/site';
import { parseXml, texts } from '../helpers/xml';
import { CRAWLER, FIXTURE_DIST, PERSON, fetchPage, jsonLdOf, send, startDataOf } from './helpers';
import { recordedConversions } from '../helpers/recorded-conversions';

const DOMAIN = 'https://docs.example.com';

let site: Site;
let adminToken: string;
let category: number;
let lesson: { id: number };
let other: { id: number };

beforeAll(async () => {
  site = await startSite({ webDist: FIXTURE_DIST, build: { converter: recordedConversions } });
  adminToken = await login(site.backendUrl, 'admin', site.adminPassword);
  await setConfig(site.backendUrl, adminToken, {
    'system.domain': DOMAIN,
    'system.sitename': '测试文库',
    'vip.title': '文库会员',
    'vip.description': '开通会员，海量文档免费下载',
    'vip.plans': 'month|月卡|30|30|适合短期使用\nyear|年卡|365|198.5||1',
    'vip.benefits': '<p>免费下载 <strong>VIP</strong> 文档</p><ul><li>无广告</li></ul>',
  });
  await api(site.backendUrl, 'POST', '/api/v1/category', {
    token: adminToken,
    body: { title: '阅读材料', description: '阅读理解与美文' },
  });
  category = (await api(site.backendUrl, 'GET', '/api/v1/category/list', { query: { wd: '阅读材料' } })).body
    .category[0].id;
  const member = await uploader(site.backendUrl, adminToken);
  lesson = await createDocument(site.backendUrl, member.token, readFileSync(fixture('chinese.pdf')), '城市图书馆.pdf', {
    category_id: [category],
    keywords: '图书馆,阅读',
    description: '一篇关于城市图书馆的文章',
  });
  other = await createDocument(site.backendUrl, member.token, textPdf(2), '图书馆英文.pdf', {
    category_id: [category],
    keywords: '图书馆',
  });
  await waitForStatus(site.backendUrl, member.token, lesson.id, [2]);
  await waitForStatus(site.backendUrl, member.token, other.id, [2]);
}, 120_000);
afterAll(async () => {
  await site?.close();
});

const page = (path: string, headers?: Record<string, string>) => fetchPage(site.url, path, headers);

describe('a document page without JavaScript', () => {
  it('holds the title, the description, the start of the text and the related documents', async () => {
    const { res, doc } = await page(`/library/${category}/${lesson.id}`);
    expect(res.status).toBe(200);
    const origin = site.url;
    expect(doc.title).toBe('城市图书馆 - 测试文库');
    expect(doc.querySelector('meta[name="description"]')?.getAttribute('content')).toBe('一篇关于城市图书馆的文章');
    expect(doc.querySelector('meta[name="keywords"]')?.getAttribute('content')).toBe('图书馆, 阅读'); // the backend keeps keywords with ", "
    expect(doc.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(
      `${origin}/library/${category}/${lesson.id}`,
    );
    expect(doc.querySelector('meta[property="og:title"]')?.getAttribute('content')).toBe('城市图书馆');
    expect(doc.querySelector('meta[name="robots"]')).toBeNull();
    // the first page image travels with the page, not after the app's code
    expect(doc.querySelector('link[rel="preload"][as="image"]')?.getAttribute('href')).toMatch(
      /^\/view\/page\/[0-9a-f]{32}\/1(\.gzip)?\.svg$/,
    );

    const content = doc.querySelector('#root > [data-crawler]')!;
    expect(content.querySelector('h1')?.textContent).toBe('城市图书馆');
    expect(content.textContent).toContain('一篇关于城市图书馆的文章');
    expect(content.textContent).toContain('城市图书馆的大门还没有打开');
    const keywords = [...content.querySelectorAll('article p')].find((p) => p.textContent?.startsWith('关键词：'));
    expect([...keywords!.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['图书馆', `/search?wd=${encodeURIComponent('图书馆')}`],
      ['阅读', `/search?wd=${encodeURIComponent('阅读')}`],
    ]);
    const crumbs = [...content.querySelectorAll('nav[aria-label="面包屑"] a')].map((a) => [
      a.textContent,
      a.getAttribute('href'),
    ]);
    expect(crumbs).toEqual([
      ['首页', '/'],
      ['文库资料', '/library'],
      ['阅读材料', `/library/${category}`],
    ]);
    const related = [...content.querySelectorAll('section')].find(
      (s) => s.querySelector('h2')?.textContent === '相关文档',
    );
    expect([...related!.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toContain(
      `/library/${category}/${other.id}`,
    );
  });

  it('carries JSON-LD that parses: a DigitalDocument and its breadcrumbs', async () => {
    const { doc } = await page(`/library/${category}/${lesson.id}`);
    const [digital, breadcrumbs] = jsonLdOf(doc);
    expect(digital).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'DigitalDocument',
      name: '城市图书馆',
      description: '一篇关于城市图书馆的文章',
      url: `${site.url}/library/${category}/${lesson.id}`,
      fileFormat: 'pdf',
      inLanguage: 'zh-CN',
    });
    expect(breadcrumbs).toMatchObject({ '@type': 'BreadcrumbList' });
    expect(
      (breadcrumbs!.itemListElement as { position: number; name: string }[]).map((i) => [i.position, i.name]),
    ).toEqual([
      [1, '首页'],
      [2, '文库资料'],
      [3, '阅读材料'],
      [4, '城市图书馆'],
    ]);
  });

  it('carries the same document in the start data, under the key the reader reads', async () => {
    const { res } = await page(`/library/${category}/${lesson.id}`, { accept: 'text/html' });
    const inlined = findAnswer(startDataOf(res.text).routeData ?? [], documentCall(lesson.id));
    const api = await send(`${site.url}/api/v1/document?id=${lesson.id}&with_author=true`);
    expect(inlined).toMatchObject({
      id: lesson.id,
      title: api.json<{ title: string }>().title,
      pages: api.json<{ pages: number }>().pages,
    });
  });

  it('tells Baidu the page is the same on a phone and is not to be transcoded, to its phone crawler and to people', async () => {
    const phoneCrawler = {
      accept: 'text/html',
      'user-agent':
        'Mozilla/5.0 (iPhone; CPU iPhone OS 9_1 like Mac OS X) AppleWebKit/601.1.46 (KHTML, like Gecko) Version/9.0 Mobile/13B143 Safari/601.1 (compatible; Baiduspider-render/2.0; +http://www.baidu.com/search/spider.html)',
    };
    for (const headers of [phoneCrawler, PERSON]) {
      for (const path of ['/', `/library/${category}`, `/library/${category}/${lesson.id}`]) {
        const { res, doc } = await page(path, headers);
        expect(res.status).toBe(200);
        expect(doc.querySelectorAll('meta[name="applicable-device"]')).toHaveLength(1);
        expect(doc.querySelector('meta[name="applicable-device"]')?.getAttribute('content')).toBe('pc,mobile');
        expect(
          [...doc.querySelectorAll('meta[http-equiv="Cache-Control"]')].map((m) => m.getAttribute('content')),
        ).toEqual(['no-transform', 'no-siteapp']);
      }
    }
  });

  it('answers 404 with a plain page for a document that does not exist', async () => {
    const { res, doc } = await page(`/library/${category}/987654`);
    expect(res.status).toBe(404);
    expect(doc.querySelector('h1')?.textContent).toBe('文档不存在');
    expect(doc.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
    expect(res.text).not.toContain('<script');
  });
});

describe('the home and category pages without JavaScript', () => {
  it('list the categories and the latest documents as links, with the site in JSON-LD', async () => {
    const { res, doc } = await page('/');
    expect(res.status).toBe(200);
    const links = [...doc.querySelectorAll('#root [data-crawler] main a')].map((a) => a.getAttribute('href'));
    expect(links).toEqual(
      expect.arrayContaining([
        `/library/${category}`,
        `/library/${category}/${lesson.id}`,
        `/library/${category}/${other.id}`,
      ]),
    );
    expect(jsonLdOf(doc)[0]).toMatchObject({ '@type': 'WebSite', name: '测试文库' });
    const latest = findAnswer(startDataOf(res.text).routeData ?? [], latestDocumentsCall()) ?? [];
    expect(latest.map((d) => d.id)).toEqual(expect.arrayContaining([lesson.id, other.id]));
  });

  it('title a category page by its category, and list its documents as links', async () => {
    const { res, doc } = await page(`/library/${category}`);
    expect(res.status).toBe(200);
    expect(doc.title).toBe('阅读材料 - 测试文库');
    expect(doc.querySelector('meta[name="description"]')?.getAttribute('content')).toBe('阅读理解与美文');
    const content = doc.querySelector('#root [data-crawler]')!;
    expect(content.querySelector('h1')?.textContent).toBe('阅读材料');
    const list = [...content.querySelectorAll('section')].find((s) => s.querySelector('h2')?.textContent === '文档')!;
    expect([...list.querySelectorAll('a')].map((a) => a.getAttribute('href')).sort()).toEqual(
      [`/library/${category}/${lesson.id}`, `/library/${category}/${other.id}`].sort(),
    );
    // one page of documents: no paging links
    expect(content.querySelector('nav[aria-label="分页"]')).toBeNull();
    expect(jsonLdOf(doc).map((d) => d['@type'])).toEqual(['BreadcrumbList']);
  });

  it('answer 404 for a category the site does not show: unknown, of articles, or disabled', async () => {
    await api(site.backendUrl, 'POST', '/api/v1/category', { token: adminToken, body: { title: '站内公告', type: 1 } });
    const articleCategory = (
      await api(site.backendUrl, 'GET', '/api/v1/category/list', { query: { type: 1, wd: '站内公告' } })
    ).body.category[0].id;
    // A category is created enabled (as in MOREDOC): disabled by an update.
    await api(site.backendUrl, 'POST', '/api/v1/category', { token: adminToken, body: { title: '停用的分类' } });
    const disabled = (
      await api(site.backendUrl, 'GET', '/api/v1/category/list', { token: adminToken, query: { wd: '停用的分类' } })
    ).body.category[0].id;
    const update = await api(site.backendUrl, 'PUT', '/api/v1/category', {
      token: adminToken,
      body: { id: disabled, title: '停用的分类', enable: false },
    });
    expect(update.status).toBe(200);
    for (const id of [987654, articleCategory, disabled]) {
      const { res, doc } = await page(`/library/${id}`);
      expect(res.status, `crawler, ${id}`).toBe(404);
      expect(doc.querySelector('h1')?.textContent).toBe('分类不存在');
      expect(doc.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
      const person = await page(`/library/${id}`, { accept: 'text/html' });
      expect(person.res.status, `person, ${id}`).toBe(404);
      expect(person.doc.title).toBe('分类不存在 - 测试文库');
    }
    expect((await page(`/library/${category}`, { accept: 'text/html' })).res.status).toBe(200);
  });

  it('answer 404 for a page of a list past its last, not an empty list with 200 (a soft 404)', async () => {
    const search = `/search?wd=${encodeURIComponent('图书馆')}`;
    for (const path of [
      `/library/${category}?page=9`,
      '/library?page=9&sort=views',
      `${search}&page=9`,
      '/article?page=9',
    ]) {
      const { res, doc } = await page(path);
      expect(res.status, `crawler, ${path}`).toBe(404);
      expect(doc.querySelector('h1')?.textContent).toBe('页面不存在');
      expect(doc.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
      const person = await page(path, { accept: 'text/html' });
      expect(person.res.status, `person, ${path}`).toBe(404);
      expect(person.doc.title).toBe('页面不存在 - 测试文库');
      expect(person.doc.querySelector('link[rel="canonical"]')).toBeNull();
    }
    // The first page is a page however short the list, and so is the last.
    for (const path of [`/library/${category}`, `/library/${category}?page=1`, search, '/article', '/hot'])
      expect((await page(path)).res.status, path).toBe(200);
    const nothing = await page(`/search?wd=${encodeURIComponent('没有这个词的文档')}`);
    expect(nothing.res.status).toBe(200);
  });

  it('give the VIP page its plans, prices and benefits', async () => {
    const { res, doc } = await page('/vip');
    expect(res.status).toBe(200);
    expect(doc.title).toBe('文库会员 - 测试文库');
    expect(doc.querySelector('meta[name="description"]')?.getAttribute('content')).toBe('开通会员，海量文档免费下载');
    const content = doc.querySelector('#root [data-crawler] main')!;
    expect(content.querySelector('h1')?.textContent).toBe('文库会员');
    expect([...content.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      '月卡：¥30.00 / 30 天，适合短期使用',
      '年卡：¥198.50 / 365 天',
    ]);
    expect(content.textContent).toContain('免费下载 VIP 文档 无广告');
  });

  it('search no words of punctuation alone: the page carries no search answer', async () => {
    for (const path of [`/search?wd=${encodeURIComponent('。。')}`, `/article?wd=${encodeURIComponent('《》')}`]) {
      const { res } = await page(path, { accept: 'text/html' });
      expect(res.status, path).toBe(200);
      const keys = (startDataOf(res.text).routeData ?? []).map((answer) => answer.key.slice(0, 2).join(' '));
      expect(keys, path).not.toContain('search results');
      expect(keys, path).not.toContain('article search');
    }
    // words are searched, and the page carries the answer
    const { res } = await page(`/search?wd=${encodeURIComponent('《图书馆》')}`, { accept: 'text/html' });
    expect((startDataOf(res.text).routeData ?? []).map((answer) => answer.key[0])).toContain('search');
  });

  it('title a search page by its words, and list the results as links', async () => {
    const { res, doc } = await page(`/search?wd=${encodeURIComponent('图书馆')}`);
    expect(res.status).toBe(200);
    expect(doc.title).toBe('“图书馆”的搜索结果 - 测试文库');
    const results = [...doc.querySelectorAll('#root [data-crawler] section')].find(
      (s) => s.querySelector('h2')?.textContent === '搜索结果',
    )!;
    expect([...results.querySelectorAll('a')].map((a) => a.textContent)).toContain('城市图书馆');
  });

  it('keep member, admin and auth pages out of search engines, without crawler content', async () => {
    for (const path of ['/auth/login', '/auth/register']) {
      const { res, doc } = await page(path);
      expect(res.status, path).toBe(200);
      expect(doc.querySelector('meta[name="robots"]')?.getAttribute('content'), path).toBe('noindex, nofollow');
      expect(doc.querySelector('[data-crawler]'), path).toBeNull();
      expect(doc.querySelector('link[rel="canonical"]'), path).toBeNull();
    }
    const member = await send(`${site.url}/admin/dashboard`, { headers: CRAWLER });
    expect(member.status).toBe(302);
  });
});

describe('robots.txt and the sitemaps', () => {
  it('robots.txt disallows member, admin and API paths and names the sitemap', async () => {
    const res = await send(`${site.url}/robots.txt`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = res.text.split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        'User-agent: *',
        'Disallow: /admin',
        'Disallow: /member',
        'Disallow: /api/',
        `Sitemap: ${site.url}/sitemap.xml`,
      ]),
    );
  });

  it('list the documents at their pages, and drop a deleted one', async () => {
    const regenerate = await api(site.backendUrl, 'PUT', '/api/v1/sitemap', { token: adminToken });
    expect(regenerate.status).toBe(200);
    const documents = async () => {
      const index = parseXml((await send(`${site.url}/sitemap.xml`)).text);
      const file = texts(index, 'loc').find((loc) => loc.includes('/sitemap/documents-'));
      if (!file) return [];
      return texts(parseXml((await send(`${site.url}${new URL(file).pathname}`)).text), 'loc');
    };
    expect(await documents()).toEqual([
      `${DOMAIN}/library/${category}/${lesson.id}`,
      `${DOMAIN}/library/${category}/${other.id}`,
    ]);

    expect(
      (await api(site.backendUrl, 'DELETE', '/api/v1/document', { token: adminToken, query: { id: other.id } })).status,
    ).toBe(200);
    await api(site.backendUrl, 'PUT', '/api/v1/sitemap', { token: adminToken });
    expect(await documents()).toEqual([`${DOMAIN}/library/${category}/${lesson.id}`]);
  });
});

describe('the public lists of a page an admin opens', () => {
  it('hold what visitors see: enabled friend links and banners, published articles', async () => {
    const token = adminToken;
    const created = async (path: string, body: Record<string, unknown>) => {
      const res = await api(site.backendUrl, 'POST', path, { token, body });
      expect(res.status, path).toBe(200);
      return res.body as { id: number };
    };
    await created('/api/v1/friendlink', { title: '停用的友链', link: 'https://off.example.com', enable: false });
    await created('/api/v1/banner', { title: '启用的轮播图', path: '/uploads/on.png', type: 0, enable: true });
    // A banner is created enabled (as in MOREDOC), then disabled.
    const banner = { title: '停用的轮播图', path: '/uploads/off.png', type: 0 };
    const { id } = await created('/api/v1/banner', banner);
    const disable = await api(site.backendUrl, 'PUT', '/api/v1/banner', {
      token,
      body: { ...banner, id, enable: false },
    });
    expect(disable.status).toBe(200);
    const rejected = await created('/api/v1/article', {
      title: '退回的文章',
      content: '<p>退回。</p>',
      is_recommend: true,
    });
    const check = await api(site.backendUrl, 'PUT', '/api/v1/article/check', {
      token,
      body: { article_id: [rejected.id], status: 2, rejeact_reason: '内容不完整' },
    });
    expect(check.status).toBe(200);

    // The admin's list calls answer every row, whatever its state, unless asked for the shown ones.
    const asAdmin = { accept: 'text/html', cookie: `token=${adminToken}` };
    const home = startDataOf((await page('/', asAdmin)).res.text).routeData ?? [];
    const links = findAnswer(home, friendlinksCall())?.map((l) => l.title);
    expect(links).toContain('书栈网');
    expect(links).not.toContain('停用的友链');
    expect(findAnswer(home, websiteBannersCall())?.map((b) => b.title)).toEqual(['启用的轮播图']);

    const articles = startDataOf((await page('/article', asAdmin)).res.text).routeData ?? [];
    const list = findAnswer(articles, articleListCall(articleListRequest([], 1)))?.articles.map((a) => a.title);
    expect(list).toContain('关于我们');
    expect(list).not.toContain('退回的文章');
    expect(findAnswer(articles, recommendedArticlesCall())?.articles.map((a) => a.title)).not.toContain('退回的文章');
  });
});
