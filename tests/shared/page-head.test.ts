import { describe, expect, it } from 'vitest';
import { apiCall, callUrl, findAnswer, hashCallKey, type CallAnswer } from '../../shared/api-call';
import {
  categoryTrail,
  htmlText,
  isMissingCategory,
  pageArticleKey,
  pageHead,
  pageTrail,
  summary,
  type PageInput,
} from '../../shared/page-head';
import {
  ARTICLE_PAGE_SIZE,
  LIBRARY_PAGE_SIZE,
  articleCall,
  articleCategoryIds,
  articleCategoryOf,
  articleKeyQuery,
  articleListCall,
  articleListPageCalls,
  articleListRequest,
  articleListState,
  articleSearchCall,
  recommendedArticlesCall,
  relatedArticlesCall,
  articleNeighboursCall,
  documentCall,
  friendlinksCall,
  homeDocumentsCall,
  homePageCalls,
  latestDocumentsCall,
  libraryCall,
  libraryRequest,
  libraryState,
  liveAdsCall,
  recommendedDocumentsCall,
  relatedDocumentsCall,
  searchCall,
  searchPageCalls,
  searchRequest,
  searchState,
  statsCall,
  websiteBannersCall,
} from '../../shared/page-data';
import {
  articlePagePath,
  articleSearchPath,
  categoryPagePath,
  documentPagePath,
  searchPath,
} from '../../shared/page-paths';
import { disallowedPaths, robotsTxt } from '../../shared/robots';
import { matchRoute, routeDataCalls } from '../../shared/routes';
import type { Article } from '../../shared/types/article';
import type { Category } from '../../shared/types/category';
import type { Document } from '../../shared/types/document';

const ORIGIN = 'https://docs.example.com';
const settings = {
  system: {
    sitename: '魔豆文库',
    title: '魔豆文库 · 首页',
    description: '分享文档',
    keywords: '文档,资料',
    logo: '/uploads/logo.png',
  },
};
const categories: Category[] = [
  { id: 1, title: '教育', type: 0, enable: true, description: '教育资料' },
  { id: 4, title: '小学', type: 0, parent_id: 1, enable: true },
  { id: 7, title: '公告', type: 1, enable: true },
  { id: 8, title: '站务', type: 1, parent_id: 7, enable: true },
  { id: 9, title: '停用', type: 1, parent_id: 7, enable: false },
];
const article: Article = {
  id: 12,
  identifier: 'upgrade',
  title: '站点升级公告',
  keywords: '升级,公告',
  content: '<p>本站将于<strong>周末</strong>升级&amp;维护。</p>',
  category_id: [7, 8],
  user: { username: 'admin' },
  created_at: '2026-01-02T03:04:05Z',
  updated_at: '2026-01-03T03:04:05Z',
};
const doc: Document = {
  id: 42,
  title: '三年级数学',
  description: '一份练习',
  keywords: '数学,练习',
  category: [{ id: 1 }, { id: 4 }],
  category_id: [4, 1],
  user: { username: 'amy' },
  created_at: '2026-01-02T03:04:05Z',
  updated_at: '2026-02-03T04:05:06Z',
  ext: '.pdf',
  price: 0,
  attachment: { hash: 'abc' },
};

function pageInput(path: string, extra: Partial<PageInput> = {}): PageInput {
  const [pathname = '/', query = ''] = path.split('?');
  return {
    path: pathname,
    query: Object.fromEntries(new URLSearchParams(query)),
    match: matchRoute(pathname),
    settings,
    categories,
    origin: ORIGIN,
    answers: [],
    ...extra,
  };
}

describe('api calls', () => {
  it('write arrays as repeated keys and keep the declared order', () => {
    expect(callUrl(websiteBannersCall())).toBe('/api/v1/banner/list?type=0&enable=true&page=1&size=20');
    expect(callUrl(friendlinksCall())).toBe('/api/v1/friendlink/list?enable=true&page=1&size=100');
    expect(callUrl(documentCall(42))).toBe('/api/v1/document?id=42&with_author=true');
    expect(callUrl(liveAdsCall())).toBe('/api/v1/advertisement/position');
    expect(callUrl(apiCall({ key: ['x'], path: '/p', query: { wd: '中 文&' }, select: (b: object) => b }))).toBe(
      '/p?wd=%E4%B8%AD%20%E6%96%87%26',
    );
  });

  it('shape the answer as the screens keep it, an empty body as none', () => {
    expect(websiteBannersCall().select({ banner: [{ id: 1 }], total: 1 })).toEqual([{ id: 1 }]);
    expect(friendlinksCall().select(undefined)).toEqual([]);
    expect(latestDocumentsCall().select({})).toEqual([]);
    expect(relatedDocumentsCall(1).select({ document: [{ id: 2 }] })).toEqual([{ id: 2 }]);
    expect(liveAdsCall().select({ advertisement: [{ id: 3 }] })).toEqual([{ id: 3 }]);
    expect(statsCall().select({ user_count: 2 })).toEqual({ user_count: 2 });
    // the start of the text is the crawler content's, not the reader's
    expect(documentCall(1).select({ id: 1, title: 'x', content: '第一段' })).toEqual({ id: 1, title: 'x' });
    expect(documentCall(1).subject).toBe(true);
    expect(websiteBannersCall().subject).toBeUndefined();
  });

  it('find answers by key whatever the order of an object key', () => {
    expect(hashCallKey(['document', 'list', { b: 1, a: [2, { d: 1, c: 2 }] }])).toBe(
      hashCallKey(['document', 'list', { a: [2, { c: 2, d: 1 }], b: 1 }]),
    );
    const answers: CallAnswer[] = [{ key: ['stats'], data: { user_count: 5 } }];
    expect(findAnswer(answers, statsCall())).toEqual({ user_count: 5 });
    expect(findAnswer(answers, friendlinksCall())).toBeUndefined();
  });

  it('are declared per page: the layout ads everywhere in the default layout, the first screen on public pages', () => {
    const keys = (path: string) => routeDataCalls(matchRoute(path)!, {}, categories).map((c) => c.key);
    expect(keys('/')).toEqual([liveAdsCall(), ...homePageCalls()].map((c) => c.key));
    expect(keys('/library/1/42')).toEqual([
      ['advertisement', 'live'],
      ['document', 'detail', 42],
      ['document', 'related', 42],
    ]);
    expect(keys('/member')).toEqual([['advertisement', 'live']]);
    expect(keys('/auth/login')).toEqual([]);
    expect(keys('/admin/dashboard')).toEqual([]);
  });
});

describe('the calls of the library and the search', () => {
  it('read the library page from its address, unknown values falling back', () => {
    expect(libraryState({})).toEqual({ sort: 'latest', page: 1 });
    expect(libraryState({ ext: 'pdf', language: 'zh-CN', sort: 'views', page: '3' })).toEqual({
      ext: 'pdf',
      language: 'zh-CN',
      sort: 'views',
      page: 3,
    });
    expect(libraryState({ ext: 'exe', sort: 'random', page: '-2' })).toEqual({ sort: 'latest', page: 1 });
    const request = libraryRequest(7, libraryState({ ext: 'pdf', sort: 'downloads', page: '2' }));
    expect(request).toMatchObject({
      page: 2,
      size: LIBRARY_PAGE_SIZE,
      order: 'download_count desc',
      category_id: [7],
      ext: 'pdf',
      status: [2],
    });
    expect(libraryRequest(undefined, libraryState({})).category_id).toBeUndefined();
    expect(callUrl(libraryCall(libraryRequest(undefined, libraryState({}))))).toMatch(
      /^\/api\/v1\/document\/list\?page=1&size=24&order=id%20desc&status=2&field=id&field=title/,
    );
    expect(libraryCall(request).select({ total: 3, document: [] })).toEqual({ total: 3, document: [] });
  });

  it('read the search from its address, and make no call without words', () => {
    const state = searchState({
      wd: ' 图书馆 ',
      category_id: '4',
      ext: 'pdf',
      period: 'week',
      sort: 'latest',
      page: '2',
    });
    expect(state).toEqual({ wd: '图书馆', page: 2, category: 4, ext: 'pdf', period: 'week', sort: 'latest' });
    expect(searchState({ period: 'decade', sort: 'x', category_id: 'abc' })).toEqual({
      wd: '',
      page: 1,
      period: '',
      sort: '',
    });
    const today = Date.parse('2026-03-10T04:00:00Z');
    expect(searchRequest(state, today)).toEqual({
      wd: '图书馆',
      page: 2,
      size: 10,
      category_id: [4],
      ext: 'pdf',
      created_at: ['2026-03-03'],
      sort: 'latest',
    });
    expect(searchPageCalls({})).toEqual([]);
    // words the index cannot match are not searched (the page says why)
    expect(searchPageCalls({ wd: '。。' }, today)).toEqual([]);
    const [call] = searchPageCalls({ wd: '图书馆' }, today);
    expect(call!.key).toEqual(['search', 'results', { wd: '图书馆', page: 1, size: 10 }]);
    expect(callUrl(call!)).toBe(`/api/v1/document/search?wd=${encodeURIComponent('图书馆')}&page=1&size=10`);
    expect(searchCall({ wd: 'x' }).select({ total: 1 })).toEqual({ total: 1 });
  });

  it('give the home page its recommended and per-category documents', () => {
    expect(recommendedDocumentsCall().select({ document: [{ id: 1 }] })).toEqual([{ id: 1 }]);
    expect(homeDocumentsCall().select({ document: [{ category_id: 1 }] })).toEqual([{ category_id: 1 }]);
    expect(homeDocumentsCall().select({})).toEqual([]);
  });
});

describe('the calls of the article pages', () => {
  const keys = (path: string, query: Record<string, string> = {}) =>
    routeDataCalls(matchRoute(path)!, query, categories).map((c) => c.key);

  it('give an article page the article, 上一篇 / 下一篇 in the address’s category and its related ones, by id or identifier', () => {
    expect(keys('/article/detail/upgrade')).toEqual([
      ['advertisement', 'live'],
      ['article', 'one', 'upgrade'],
      ['article', 'neighbours', 'upgrade', 0],
      ['article', 'related', 'upgrade'],
    ]);
    expect(keys('/article/7/detail/12')).toEqual([
      ['advertisement', 'live'],
      ['article', 'one', '12'],
      ['article', 'neighbours', '12', 7],
      ['article', 'related', '12'],
    ]);
    expect(callUrl(articleNeighboursCall('12', 7))).toBe('/api/v1/article/neighbours?id=12&category_id=7');
    expect(callUrl(articleNeighboursCall('about'))).toBe('/api/v1/article/neighbours?identifier=about');
    // MOREDOC has no such call: its 404 means no links
    expect(articleNeighboursCall('about').whenMissing).toEqual({});
    expect(callUrl(articleCall('about'))).toBe('/api/v1/article?identifier=about');
    expect(callUrl(relatedArticlesCall('12'))).toBe('/api/v1/article/related?id=12');
    expect(articleKeyQuery('012')).toEqual({ identifier: '012' });
    expect(articleCall('about').subject).toBe(true);
    // the backend's 404 of the related articles means none
    expect(relatedArticlesCall('about').whenMissing).toEqual([]);
    expect(relatedArticlesCall('about').select({ article: [{ id: 2 }] })).toEqual([{ id: 2 }]);
  });

  it('decide `/article/{x}` as the SPA does: an enabled article category lists, anything else is an article', () => {
    expect(articleCategoryOf(categories, '7')?.title).toBe('公告');
    for (const x of ['about', '1', '9', '99', undefined])
      expect(articleCategoryOf(categories, x), String(x)).toBeUndefined();
    expect(keys('/article/about')).toEqual([
      ['advertisement', 'live'],
      ['article', 'one', 'about'],
      ['article', 'neighbours', 'about', 0],
      ['article', 'related', 'about'],
    ]);
    expect(keys('/article/99')[1]).toEqual(['article', 'one', '99']);
    // a category lists itself and its enabled sub-categories, with the recommended articles aside
    expect(articleCategoryIds(categories, 7)).toEqual([7, 8]);
    expect(articleCategoryIds(categories, 1)).toEqual([]);
    expect(keys('/article/7', { page: '2' })).toEqual([
      ['advertisement', 'live'],
      ['article', 'list', { page: 2, size: ARTICLE_PAGE_SIZE, category_id: [7, 8], status: [1] }],
      recommendedArticlesCall().key,
    ]);
    expect(keys('/article')[1]).toEqual(['article', 'list', { page: 1, size: ARTICLE_PAGE_SIZE, status: [1] }]);
    expect(articleListPageCalls(categories, undefined, { wd: ' 升级 ', page: '3' })[0]!.key).toEqual(
      articleSearchCall('升级', 3).key,
    );
    // a category's page searches that category and those below it
    expect(callUrl(articleListPageCalls(categories, '7', { wd: '升级' })[0]!)).toBe(
      `/api/v1/article/search?wd=${encodeURIComponent('升级')}&page=1&category_id=7&category_id=8`,
    );
    // words the index cannot match are not searched, and the list is not shown for them either
    expect(articleListPageCalls(categories, '7', { wd: '《》' }).map((c) => c.key)).toEqual([
      recommendedArticlesCall().key,
    ]);
  });

  it('read the page from the address and shape the answers as the screens keep them', () => {
    expect(articleListState({ page: '1.5' })).toEqual({ page: 1, wd: '' });
    expect(articleListState({ page: '4', wd: '公告' })).toEqual({ page: 4, wd: '公告' });
    // the published ones only: an admin's list call answers every status
    expect(articleListRequest([], 2)).toEqual({ page: 2, size: ARTICLE_PAGE_SIZE, status: [1] });
    expect(callUrl(articleListCall(articleListRequest([7, 8], 1)))).toBe(
      '/api/v1/article/list?page=1&size=10&category_id=7&category_id=8&status=1',
    );
    expect(callUrl(recommendedArticlesCall())).toBe('/api/v1/article/list?page=1&size=8&is_recommend=true&status=1');
    expect(articleListCall({}).select({ article: [{ id: 1 }], total: 11 })).toEqual({
      articles: [{ id: 1 }],
      total: 11,
    });
    expect(articleListCall({}).select({})).toEqual({ articles: [], total: 0 });
    expect(articleSearchCall('x', 1).select({ article: [{ id: 1, snippet: 'x' }], total: 1, spend: '0.001' })).toEqual({
      hits: [{ id: 1, snippet: 'x' }],
      total: 1,
      spend: '0.001',
    });
  });
});

describe('page paths', () => {
  it('put a document under its deepest category, an article at its identifier, categories by type', () => {
    expect(documentPagePath(doc)).toBe('/library/4/42');
    expect(documentPagePath({ id: 42, category_id: [3, 9] })).toBe('/library/9/42');
    expect(documentPagePath({ id: 42 })).toBeUndefined();
    expect(articlePagePath({ id: 3, identifier: 'about' })).toBe('/article/detail/about');
    expect(articlePagePath({ id: 3 })).toBe('/article/detail/3');
    expect(categoryPagePath({ id: 7, type: 1 })).toBe('/article/7');
    expect(categoryPagePath({ id: 1, type: 0 })).toBe('/library/1');
  });

  it('search words in the address, encoded: the document search, and the article search of a list page', () => {
    expect(searchPath('C++ 教程&')).toBe('/search?wd=C%2B%2B%20%E6%95%99%E7%A8%8B%26');
    expect(articleSearchPath('公告')).toBe('/article?wd=%E5%85%AC%E5%91%8A');
    expect(articleSearchPath('公告', '/article/7')).toBe('/article/7?wd=%E5%85%AC%E5%91%8A');
    // No words: the list page itself, not `?wd=`.
    expect(articleSearchPath('')).toBe('/article');
    expect(articleSearchPath('', '/article/7')).toBe('/article/7');
  });
});

describe('page head', () => {
  it('titles the home page with the site title and describes the site, with a WebSite and its search', () => {
    const head = pageHead(pageInput('/'));
    expect(head).toMatchObject({
      title: '魔豆文库 · 首页',
      description: '分享文档',
      keywords: '文档,资料',
      canonical: `${ORIGIN}/`,
    });
    expect(head.robots).toBeUndefined();
    expect(head.openGraph).toContainEqual(['og:image', `${ORIGIN}/uploads/logo.png`]);
    expect(head.jsonLd[0]).toMatchObject({
      '@type': 'WebSite',
      url: `${ORIGIN}/`,
      potentialAction: { target: `${ORIGIN}/search?wd={search_term_string}` },
    });
  });

  it('titles a document page `文档标题 - 站点名`, with its canonical page, a DigitalDocument and its breadcrumbs', () => {
    const head = pageHead(pageInput('/library/1/42', { answers: [{ key: documentCall(42).key, data: doc }] }));
    expect(head).toMatchObject({
      title: '三年级数学 - 魔豆文库',
      description: '一份练习',
      keywords: '数学,练习',
      canonical: `${ORIGIN}/library/4/42`,
    });
    expect(head.openGraph).toEqual(
      expect.arrayContaining([
        ['og:title', '三年级数学'],
        ['og:type', 'article'],
        ['og:image', `${ORIGIN}/view/cover/abc`],
      ]),
    );
    expect(head.jsonLd[0]).toMatchObject({
      '@type': 'DigitalDocument',
      name: '三年级数学',
      url: `${ORIGIN}/library/4/42`,
      author: { '@type': 'Person', name: 'amy' },
      datePublished: '2026-01-02T03:04:05Z',
      fileFormat: 'pdf',
      isAccessibleForFree: true,
    });
    expect(head.jsonLd[1]).toMatchObject({ '@type': 'BreadcrumbList' });
    expect((head.jsonLd[1]!.itemListElement as { name: string; item: string }[]).map((i) => [i.name, i.item])).toEqual([
      ['首页', `${ORIGIN}/`],
      ['文库资料', `${ORIGIN}/library`],
      ['教育', `${ORIGIN}/library/1`],
      ['小学', `${ORIGIN}/library/4`],
      ['三年级数学', `${ORIGIN}/library/4/42`],
    ]);
  });

  it('cuts a long document or article title so that the page title stays within 60 characters, the site name last', () => {
    const long = '关于'.repeat(40);
    const head = pageHead(
      pageInput('/library/1/42', { answers: [{ key: documentCall(42).key, data: { ...doc, title: long } }] }),
    );
    expect([...head.title]).toHaveLength(60);
    expect(head.title.endsWith('… - 魔豆文库')).toBe(true);
    expect(head.title.startsWith('关于关于')).toBe(true);
    // Open Graph and the JSON-LD keep the whole title.
    expect(head.openGraph).toEqual(expect.arrayContaining([['og:title', long]]));
    expect(head.jsonLd[0]).toMatchObject({ name: long });
    const articleHead = pageHead(
      pageInput('/article/detail/upgrade', {
        answers: [{ key: articleCall('upgrade').key, data: { ...article, title: long } }],
      }),
    );
    expect([...articleHead.title]).toHaveLength(60);
    expect(articleHead.title.endsWith(' - 魔豆文库')).toBe(true);
    // A short one is left whole.
    expect(pageHead(pageInput('/library/1/42', { answers: [{ key: documentCall(42).key, data: doc }] })).title).toBe(
      '三年级数学 - 魔豆文库',
    );
  });

  it('describes a document by its text when it has no description, and says when it is missing', () => {
    const bare = pageHead(
      pageInput('/library/1/42', {
        answers: [{ key: documentCall(42).key, data: { id: 42, title: 'x', content: '第一段\n\n第二段' } }],
      }),
    );
    expect(bare.description).toBe('第一段 第二段');
    expect(bare.keywords).toBe('文档,资料');
    const missing = pageHead(pageInput('/library/1/42', { missing: true }));
    expect(missing).toMatchObject({ title: '文档不存在 - 魔豆文库', robots: 'noindex, nofollow' });
    expect(missing.canonical).toBeUndefined();
    expect(missing.jsonLd).toEqual([]);
    // A document whose conversion failed has nothing to read: kept out of search engines.
    const failed = pageHead(
      pageInput('/library/1/42', { answers: [{ key: documentCall(42).key, data: { ...doc, status: 3 } }] }),
    );
    expect(failed).toMatchObject({ title: '三年级数学 - 魔豆文库', robots: 'noindex, nofollow' });
    expect(
      pageHead(pageInput('/library/1/42', { answers: [{ key: documentCall(42).key, data: { ...doc, status: 2 } }] }))
        .robots,
    ).toBeUndefined();
    // the data did not come in time: the route's title, still indexable
    expect(pageHead(pageInput('/library/1/42'))).toMatchObject({
      title: '文档详情 - 魔豆文库',
      canonical: `${ORIGIN}/library/1/42`,
    });
  });

  it('says a library page is missing when its category is not one the library shows, though the site has it', () => {
    for (const id of [7, 9, 99]) {
      const input = pageInput(`/library/${id}`);
      expect(isMissingCategory(input.match, categories), String(id)).toBe(true);
      expect(pageHead({ ...input, missing: true }), String(id)).toMatchObject({
        title: '分类不存在 - 魔豆文库',
        robots: 'noindex, nofollow',
      });
    }
  });

  it('titles a library page only after a document category it shows, an article list only after an article category', () => {
    // 7 is an article category, 9 a disabled one: not the library's, whatever the page is told.
    for (const id of [7, 9]) {
      const head = pageHead(pageInput(`/library/${id}`));
      expect(head, String(id)).toMatchObject({ title: '文档分类 - 魔豆文库', canonical: `${ORIGIN}/library` });
      expect(head.keywords, String(id)).toBe('文档,资料');
    }
    expect(pageHead(pageInput('/library/4')).title).toBe('小学 - 魔豆文库');
    expect(pageHead(pageInput('/article/8')).title).toBe('站务 - 魔豆文库');
  });

  it('titles a category page by its category, paged pages with their number', () => {
    const head = pageHead(pageInput('/library/4?page=3'));
    expect(head).toMatchObject({ title: '小学（第 3 页） - 魔豆文库', canonical: `${ORIGIN}/library/4?page=3` });
    expect(head.keywords).toBe('小学,文档,资料');
    expect(pageTrail(pageInput('/library/4')).map((c) => c.path)).toEqual([
      '/',
      '/library',
      '/library/1',
      '/library/4',
    ]);
    expect(pageHead(pageInput('/library/1')).description).toBe('教育资料');
    expect(pageHead(pageInput('/library/99'))).toMatchObject({
      title: '文档分类 - 魔豆文库',
      canonical: `${ORIGIN}/library`,
    });
    expect(pageHead(pageInput('/article/7'))).toMatchObject({
      title: '公告 - 魔豆文库',
      canonical: `${ORIGIN}/article/7`,
    });
    expect(pageHead(pageInput('/article'))).toMatchObject({
      title: '文章资讯 - 魔豆文库',
      canonical: `${ORIGIN}/article`,
    });
  });

  it('gives every list page and each of its pages a title and a description of its own', () => {
    const paths = ['/', '/library', '/library?page=2', '/library/1', '/library/1?page=2', '/library/4'];
    paths.push('/article', '/article?page=2', '/article/7', '/article/7?page=2', '/hot', '/hot?page=2');
    const heads = paths.map((path) => pageHead(pageInput(path)));
    expect(new Set(heads.map((h) => h.title)).size).toBe(paths.length);
    expect(new Set(heads.map((h) => h.description)).size).toBe(paths.length);
    expect(heads[1]).toMatchObject({ title: '文库资料 - 魔豆文库', description: '魔豆文库的文库资料：分享文档' });
    expect(heads[2]).toMatchObject({
      title: '文库资料（第 2 页） - 魔豆文库',
      description: '魔豆文库的文库资料：分享文档（第 2 页）',
      canonical: `${ORIGIN}/library?page=2`,
    });
    expect(heads[4]!.description).toBe('教育资料（第 2 页）');
    expect(heads[11]!.description).toBe('魔豆文库的热门文档：近 30 天浏览、下载与收藏最多的文档（第 2 页）');
  });

  it('titles an article page `文章标题 - 站点名`, with its canonical page, an Article and its breadcrumbs', () => {
    const answers = [{ key: articleCall('12').key, data: article }];
    const head = pageHead(pageInput('/article/8/detail/12', { answers }));
    expect(head).toMatchObject({
      title: '站点升级公告 - 魔豆文库',
      description: '本站将于周末升级&维护。',
      keywords: '升级,公告',
      canonical: `${ORIGIN}/article/detail/upgrade`,
    });
    expect(head.robots).toBeUndefined();
    expect(head.openGraph).toEqual(
      expect.arrayContaining([
        ['og:title', '站点升级公告'],
        ['og:type', 'article'],
        ['og:url', `${ORIGIN}/article/detail/upgrade`],
      ]),
    );
    expect(head.jsonLd[0]).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Article',
      headline: '站点升级公告',
      url: `${ORIGIN}/article/detail/upgrade`,
      author: { '@type': 'Person', name: 'admin' },
      datePublished: '2026-01-02T03:04:05Z',
      dateModified: '2026-01-03T03:04:05Z',
      publisher: { '@type': 'Organization', name: '魔豆文库' },
    });
    // under the category of the path it was opened from
    expect((head.jsonLd[1]!.itemListElement as { name: string; item: string }[]).map((i) => [i.name, i.item])).toEqual([
      ['首页', `${ORIGIN}/`],
      ['文章资讯', `${ORIGIN}/article`],
      ['公告', `${ORIGIN}/article/7`],
      ['站务', `${ORIGIN}/article/8`],
      ['站点升级公告', `${ORIGIN}/article/detail/upgrade`],
    ]);
    // else under its own last category
    expect(pageTrail(pageInput('/article/detail/12', { answers })).map((c) => c.name)).toEqual([
      '首页',
      '文章资讯',
      '公告',
      '站务',
      '站点升级公告',
    ]);
    // and under its own when opened under a category it is not in
    const onlyNotices = [{ key: articleCall('12').key, data: { ...article, category_id: [7] } }];
    expect(pageTrail(pageInput('/article/8/detail/12', { answers: onlyNotices })).map((c) => c.name)).toEqual([
      '首页',
      '文章资讯',
      '公告',
      '站点升级公告',
    ]);
  });

  it('gives an article page the first picture of its body a sharing app can fetch as og:image and the Article’s image', () => {
    const headOf = (content: string) =>
      pageHead(
        pageInput('/article/detail/12', { answers: [{ key: articleCall('12').key, data: { ...article, content } }] }),
      );
    const pictured = headOf(
      '<p>封面</p><img src="data:image/png;base64,AAAA"><img src="photo.png"><img src="//cdn.example.com/x.png">' +
        `<p><img alt="示意图" src='/uploads/a/b.png?w=1&amp;h=2'></p><img src="/uploads/second.png">`,
    );
    expect(pictured.openGraph).toContainEqual(['og:image', `${ORIGIN}/uploads/a/b.png?w=1&h=2`]);
    expect(pictured.jsonLd[0]).toMatchObject({ '@type': 'Article', image: `${ORIGIN}/uploads/a/b.png?w=1&h=2` });
    const elsewhere = headOf('<p>图：<img src=https://img.example.com/p.jpg></p>');
    expect(elsewhere.openGraph).toContainEqual(['og:image', 'https://img.example.com/p.jpg']);
    const plain = headOf('<p>没有图片</p>');
    expect(plain.openGraph.map(([name]) => name)).not.toContain('og:image');
    expect(plain.jsonLd[0]).not.toHaveProperty('image');
  });

  it('gives `/article/about` the head of the article about, and an article category its category head', () => {
    const about = { id: 1, identifier: 'about', title: '关于我们', description: '本站简介', author: '站长' };
    const head = pageHead(pageInput('/article/about', { answers: [{ key: articleCall('about').key, data: about }] }));
    expect(head).toMatchObject({
      title: '关于我们 - 魔豆文库',
      description: '本站简介',
      canonical: `${ORIGIN}/article/detail/about`,
    });
    expect(head.jsonLd[0]).toMatchObject({ '@type': 'Article', author: { name: '站长' } });
    expect(pageArticleKey(matchRoute('/article/about'), categories)).toBe('about');
    expect(pageArticleKey(matchRoute('/article/7'), categories)).toBeUndefined();
    expect(pageArticleKey(matchRoute('/article'), categories)).toBeUndefined();
    expect(pageHead(pageInput('/article/8'))).toMatchObject({
      title: '站务 - 魔豆文库',
      canonical: `${ORIGIN}/article/8`,
    });
    expect(pageTrail(pageInput('/article/8')).map((c) => c.name)).toEqual(['首页', '文章资讯', '公告', '站务']);
  });

  it('says when an article is missing, and keeps the route title while its data is late', () => {
    const missing = pageHead(pageInput('/article/detail/nope', { missing: true }));
    expect(missing).toMatchObject({ title: '文章不存在 - 魔豆文库', robots: 'noindex, nofollow' });
    expect(missing.canonical).toBeUndefined();
    expect(pageHead(pageInput('/article/about'))).toMatchObject({
      title: '文章详情 - 魔豆文库',
      canonical: `${ORIGIN}/article/about`,
    });
    // no description and no text: the title
    expect(
      pageHead(
        pageInput('/article/detail/3', { answers: [{ key: articleCall('3').key, data: { id: 3, title: '空文' } }] }),
      ).description,
    ).toBe('空文');
  });

  it('describes a document and an article by the plain text of a description typed with tags', () => {
    const typed = '一篇关于<b>城市</b>的<em class="x">文档</em>&amp;<br>资料：‹100元，a < b，x<2';
    const plain = '一篇关于城市的文档& 资料：‹100元，a < b，x<2';
    const docHead = pageHead(
      pageInput('/library/1/42', { answers: [{ key: documentCall(42).key, data: { ...doc, description: typed } }] }),
    );
    const articleHead = pageHead(
      pageInput('/article/detail/3', {
        answers: [{ key: articleCall('3').key, data: { id: 3, title: '城市', description: typed } }],
      }),
    );
    for (const head of [docHead, articleHead]) {
      expect(head.description).toBe(plain);
      expect(head.openGraph).toContainEqual(['og:description', plain]);
      expect(head.jsonLd[0]).toMatchObject({ description: plain });
    }
    // An escaped tag is text: decoded once, it stays.
    expect(htmlText('&lt;b&gt;粗&lt;/b&gt; &amp;lt;')).toBe('<b>粗</b> &lt;');
  });

  it('reads the text of an article body', () => {
    expect(htmlText('<h2>标题</h2><p>a&lt;b&nbsp;&#20320;&#x597D;&hellip;</p><style>p{}</style>')).toBe(
      '标题 a<b 你好&hellip;',
    );
    expect(htmlText(undefined)).toBe('');
    expect(htmlText('&#0;x')).toBe('x');
  });

  it('titles a search by its words', () => {
    // the search screen's route comes with the library screens
    const search = {
      route: { name: 'search', path: '/search', layout: 'default', access: 'public', title: '搜索' },
      params: {},
    } as const;
    const input = (path: string) => ({ ...pageInput(path), match: search });
    const head = pageHead(input('/search?wd=数学 练习'));
    expect(head).toMatchObject({
      title: '“数学 练习”的搜索结果 - 魔豆文库',
      canonical: `${ORIGIN}/search?wd=${encodeURIComponent('数学 练习')}`,
    });
    expect(pageHead(input('/search')).title).toBe('搜索 - 魔豆文库');
    // The article list pages search the articles with the same parameter.
    for (const path of ['/article?wd=数学', '/article/7?wd=%20数学'])
      expect(pageHead(pageInput(path)), path).toMatchObject({
        title: '“数学”的文章搜索结果 - 魔豆文库',
        canonical: `${ORIGIN}/article?wd=${encodeURIComponent('数学')}`,
      });
    // A page past the first is its own page, canonical to itself, the filters and order left out.
    expect(pageHead(pageInput('/article/7?wd=数学&page=2'))).toMatchObject({
      title: '“数学”的文章搜索结果（第 2 页） - 魔豆文库',
      canonical: `${ORIGIN}/article?wd=${encodeURIComponent('数学')}&page=2`,
    });
    expect(pageHead(input('/search?wd=数学&page=3&sort=views&ext=pdf'))).toMatchObject({
      title: '“数学”的搜索结果（第 3 页） - 魔豆文库',
      canonical: `${ORIGIN}/search?wd=${encodeURIComponent('数学')}&page=3`,
    });
    expect(pageHead(input('/search?wd=数学&page=1')).canonical).toBe(
      `${ORIGIN}/search?wd=${encodeURIComponent('数学')}`,
    );
    expect(pageHead(pageInput('/article?page=2'))).toMatchObject({
      title: '文章资讯（第 2 页） - 魔豆文库',
      canonical: `${ORIGIN}/article?page=2`,
    });
    expect(pageTrail(input('/search')).map((c) => c.name)).toEqual(['首页', '搜索']);
  });

  it('keeps member, admin and auth pages, unknown paths and the closed notice out of search engines', () => {
    for (const path of [
      '/member',
      '/member/order',
      '/vip/checkout',
      '/admin/dashboard',
      '/auth/login',
      '/oauth/callback',
      '/nope',
    ]) {
      const head = pageHead(pageInput(path));
      expect(head.robots, path).toBe('noindex, nofollow');
      expect(head.canonical, path).toBeUndefined();
      expect(head.openGraph, path).toEqual([]);
    }
    expect(pageHead(pageInput('/auth/login')).title).toBe('登录 - 魔豆文库');
    expect(pageHead(pageInput('/nope')).title).toBe('页面不存在 - 魔豆文库');
    expect(pageHead(pageInput('/', { closed: true }))).toMatchObject({
      title: '站点已关闭 - 魔豆文库',
      robots: 'noindex, nofollow',
    });
    expect(pageHead(pageInput('/vip'))).toMatchObject({ title: '开通 VIP - 魔豆文库', canonical: `${ORIGIN}/vip` });
  });

  it('falls back to a neutral site name and cuts long descriptions', () => {
    expect(pageHead({ ...pageInput('/library'), settings: {} }).title).toBe('文库资料 - 文库');
    expect(summary('字'.repeat(200))).toHaveLength(160);
    expect(summary('字'.repeat(200)).endsWith('…')).toBe(true);
    expect(summary(undefined)).toBe('');
    // a parent that points back at its child ends the walk
    expect(
      categoryTrail(
        [
          { id: 1, parent_id: 2 },
          { id: 2, parent_id: 1 },
        ],
        1,
      ).map((c) => c.id),
    ).toEqual([2, 1]);
  });
});

describe('robots.txt', () => {
  it('disallows the member, admin, sign-in and API paths and names the sitemap', () => {
    expect(disallowedPaths()).toEqual(
      expect.arrayContaining([
        '/admin',
        '/member',
        '/vip/checkout',
        '/auth/login',
        '/oauth/callback',
        '/api/',
        '/download/',
      ]),
    );
    expect(disallowedPaths().some((p) => p.startsWith('/admin/') || p.startsWith('/member/'))).toBe(false);
    const text = robotsTxt(ORIGIN);
    expect(text.startsWith('User-agent: *\n')).toBe(true);
    expect(text).toContain('Disallow: /admin\n');
    expect(text).not.toMatch(/Disallow: \/library|Disallow: \/$/m);
    expect(text.trimEnd().endsWith(`Sitemap: ${ORIGIN}/sitemap.xml`)).toBe(true);
  });
});
