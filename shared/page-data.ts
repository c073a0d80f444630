// The API calls the first screens of the public pages make (see api-call.ts): the gateway
// makes those of the requested page and inlines their answers; the SPA's features build their
// queries from the same declarations, so the inlined answers land under the keys the screens
// read. Keys must stay stable: a page served before a deploy seeds the keys of its time.
import { apiCall, type ApiCall, type ApiQueryValue } from './api-call';
import { documentTypeOptions, LISTED_DOCUMENT_STATUS, PUBLISHED_ARTICLE_STATUS } from './constants';
import { formatDate } from './format';
import { hasSearchableText } from './searchable-text';
import type { Advertisement, ListAdvertisementReply } from './types/advertisement';
import type {
  Article,
  ArticleHit,
  ArticleNeighbours,
  ListArticleReply,
  ListArticleRequest,
  SearchArticleReply,
} from './types/article';
import type { Banner, ListBannerReply } from './types/banner';
import type { Category } from './types/category';
import type { Stats } from './types/config';
import type {
  Document,
  ListDocumentForHomeItem,
  ListDocumentForHomeResponse,
  ListDocumentReply,
  ListDocumentRequest,
  SearchDocumentReply,
  SearchDocumentRequest,
} from './types/document';
import type { Friendlink, ListFriendlinkReply } from './types/friendlink';

/** Document status 2 = converted (docs/product.md §4): what visitors can read, and what their counts count. */
const CONVERTED = LISTED_DOCUMENT_STATUS;

/**
 * The rows a public list shows: the enabled ones. The list calls answer a visitor those only,
 * but every row, disabled ones too, to a user with the list permission (an admin): the public
 * pages ask for the enabled ones, whoever looks (the articles, likewise, for the published ones).
 */
const ENABLED_ONLY = { enable: [true] };

/** Columns the cards of the library and the home page show (the lists add categories, uploader and hash). */
export const DOCUMENT_CARD_FIELDS = [
  'id',
  'title',
  'ext',
  'pages',
  'size',
  'price',
  'status',
  'score',
  'view_count',
  'download_count',
  'created_at',
  'description',
];

/** A request as the query string of a call: its values that are set. */
function queryOf(request: object): Record<string, ApiQueryValue> {
  return Object.fromEntries(
    Object.entries(request).filter((entry): entry is [string, ApiQueryValue] => entry[1] !== undefined),
  );
}

/** Every live ad (all slots, within their dates): one answer that every slot of a page reads. */
export const liveAdsCall = (): ApiCall<Advertisement[]> =>
  apiCall({
    key: ['advertisement', 'live'],
    path: '/api/v1/advertisement/position',
    select: (body: ListAdvertisementReply) => body.advertisement ?? [],
  });

/** The website carousel (banner type 0) of the home page. */
export const websiteBannersCall = (): ApiCall<Banner[]> =>
  apiCall({
    key: ['banner', 'list', 'website'],
    path: '/api/v1/banner/list',
    query: { type: [0], ...ENABLED_ONLY, page: 1, size: 20 },
    select: (body: ListBannerReply) => body.banner ?? [],
  });

/** The friend links of the home page. */
export const friendlinksCall = (): ApiCall<Friendlink[]> =>
  apiCall({
    key: ['friendlink', 'list', 'public'],
    path: '/api/v1/friendlink/list',
    query: { ...ENABLED_ONLY, page: 1, size: 100 },
    select: (body: ListFriendlinkReply) => body.friendlink ?? [],
  });

/** The site's figures (home page counts; the admin dashboard reads more of them). */
export const statsCall = (): ApiCall<Stats> =>
  apiCall({ key: ['stats'], path: '/api/v1/stats', select: (body: Stats) => body });

/** The newest readable documents. */
export const latestDocumentsCall = (limit = 12): ApiCall<Document[]> =>
  apiCall({
    key: ['document', 'latest', limit],
    path: '/api/v1/document/list',
    query: { limit, order: 'id desc', status: [CONVERTED] },
    select: (body: ListDocumentReply) => body.document ?? [],
  });

/** Per top-level category, its `limit` latest converted documents (with their cover). */
export const homeDocumentsCall = (limit = 6): ApiCall<ListDocumentForHomeItem[]> =>
  apiCall({
    key: ['document', 'home', limit],
    path: '/api/v1/document/home',
    query: { limit, field: ['price', 'size', 'created_at'] },
    select: (body: ListDocumentForHomeResponse) => body.document ?? [],
  });

/** The documents the admin recommended, most recently recommended first. */
export const recommendedDocumentsCall = (limit = 8): ApiCall<Document[]> =>
  apiCall({
    key: ['document', 'recommended', limit],
    path: '/api/v1/document/list',
    query: {
      limit,
      is_recommend: [true],
      order: 'recommend_at desc',
      status: [CONVERTED],
      field: DOCUMENT_CARD_FIELDS,
    },
    select: (body: ListDocumentReply) => body.document ?? [],
  });

/** A page of the 热门文档 ranking (views, downloads and favourites of the last 30 days). */
export const hotDocumentsCall = (page = 1, size = HOT_PAGE_SIZE): ApiCall<ListDocumentReply> =>
  apiCall({
    key: ['document', 'hot', page, size],
    path: '/api/v1/document/hot',
    query: { page, size },
    select: (body: ListDocumentReply) => body,
  });

/**
 * Whether `page` lies past the last page of a list of `total` items (an empty list has no such
 * page): the screens say 没有第 N 页, the gateway answers 404 (shared/page-head.ts isPastTheEnd).
 */
export const isPastLastPage = (page: number, total: number, pageSize: number) =>
  total > 0 && page > Math.ceil(total / pageSize);

/** What /hot says it ranks (its screen and its description). */
export const HOT_SUMMARY = '近 30 天浏览、下载与收藏最多的文档';

/** Documents a page of /hot lists; the home page shows the first HOT_ON_HOME. */
export const HOT_PAGE_SIZE = 20;
export const HOT_ON_HOME = 8;

/** The page of /hot its `?page=` names (the first when absent or not a page number). */
export const hotPageOf = (query: Readonly<Record<string, string>>): number => {
  const page = Number(query.page);
  return Number.isInteger(page) && page >= 1 && page <= 1000 ? page : 1;
};

/** What /hot shows first: its page of the ranking. */
export const hotPageCalls = (query: Readonly<Record<string, string>>): ApiCall[] => [
  hotDocumentsCall(hotPageOf(query)),
];

/** What the home page shows first. */
export const homePageCalls = (): ApiCall[] => [
  websiteBannersCall(),
  recommendedDocumentsCall(),
  hotDocumentsCall(1, HOT_ON_HOME),
  homeDocumentsCall(),
  latestDocumentsCall(),
  friendlinksCall(),
  statsCall(),
];

/** The server gives strangers at most 24 documents a page (contract: ListDocument). */
export const LIBRARY_PAGE_SIZE = 24;

export const LIBRARY_ORDERS = [
  { value: 'latest', label: '最新上传', order: 'id desc' },
  { value: 'views', label: '最多浏览', order: 'view_count desc' },
  { value: 'downloads', label: '最多下载', order: 'download_count desc' },
  { value: 'rating', label: '评分最高', order: 'score desc' },
] as const;

/** What the library's address says: format, industry, order and page (unknown values fall back). */
export interface LibraryState {
  ext?: string;
  language?: string;
  sort: string;
  page: number;
}

/** The library's state from its query string (first value of each key). */
export function libraryState(query: Readonly<Record<string, string>>): LibraryState {
  const ext = query.ext;
  const sort = query.sort ?? 'latest';
  const page = Number(query.page ?? '1');
  return {
    ext: documentTypeOptions.some((o) => o.value === ext) ? ext : undefined,
    language: query.language || undefined,
    sort: LIBRARY_ORDERS.some((o) => o.value === sort) ? sort : 'latest',
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** The list request of a library page: the category's (or every) converted document, as the cards show them. */
export function libraryRequest(categoryId: number | undefined, state: LibraryState): ListDocumentRequest {
  return {
    page: state.page,
    size: LIBRARY_PAGE_SIZE,
    order: LIBRARY_ORDERS.find((o) => o.value === state.sort)?.order ?? 'id desc',
    ...(categoryId ? { category_id: [categoryId] } : {}),
    ...(state.ext ? { ext: state.ext } : {}),
    ...(state.language ? { language: [state.language] } : {}),
    status: [CONVERTED],
    field: DOCUMENT_CARD_FIELDS,
  };
}

/** One page of the library (the whole reply: its total pages the list). */
export const libraryCall = (request: ListDocumentRequest): ApiCall<ListDocumentReply> =>
  apiCall({
    key: ['document', 'list', request],
    path: '/api/v1/document/list',
    query: queryOf(request),
    select: (body: ListDocumentReply) => body,
  });

/** The server answers 10 results a page (contract: SearchDocument). */
export const SEARCH_PAGE_SIZE = 10;

export const SEARCH_SORTS = [
  { value: '', label: '相关度' },
  { value: 'latest', label: '最新' },
  { value: 'download_count', label: '下载最多' },
  { value: 'view_count', label: '浏览最多' },
] as const;

export const SEARCH_PERIODS = [
  { value: '', label: '全部时间', days: 0 },
  { value: 'week', label: '一周内', days: 7 },
  { value: 'month', label: '一个月内', days: 30 },
  { value: 'year', label: '一年内', days: 365 },
] as const;

const DAY_MS = 86_400_000;

/** What the search's address says: the words, the filters, the order and the page. */
export interface SearchState {
  wd: string;
  page: number;
  category?: number;
  ext?: string;
  language?: string;
  period: string;
  sort: string;
}

/** The search's state from its query string (first value of each key). */
export function searchState(query: Readonly<Record<string, string>>): SearchState {
  const page = Number(query.page ?? '1');
  const category = Number(query.category_id ?? '');
  const ext = query.ext;
  const period = query.period ?? '';
  const sort = query.sort ?? '';
  return {
    wd: (query.wd ?? '').trim(),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    category: Number.isInteger(category) && category > 0 ? category : undefined,
    ext: documentTypeOptions.some((o) => o.value === ext) ? ext : undefined,
    language: query.language || undefined,
    period: SEARCH_PERIODS.some((p) => p.value === period) ? period : '',
    sort: SEARCH_SORTS.some((s) => s.value === sort) ? sort : '',
  };
}

/** The search request of a state; a period counts back from `today` (ms), in the site's time zone. */
export function searchRequest(state: SearchState, today: number): SearchDocumentRequest {
  const days = SEARCH_PERIODS.find((p) => p.value === state.period)?.days ?? 0;
  return {
    wd: state.wd,
    page: state.page,
    size: SEARCH_PAGE_SIZE,
    ...(state.category ? { category_id: [state.category] } : {}),
    ...(state.ext ? { ext: state.ext } : {}),
    ...(state.language ? { language: [state.language] } : {}),
    ...(days ? { created_at: [formatDate(today - days * DAY_MS, 'YYYY-MM-DD')] } : {}),
    ...(state.sort ? { sort: state.sort } : {}),
  };
}

/** One page of search results, with their highlights. */
export const searchCall = (request: SearchDocumentRequest): ApiCall<SearchDocumentReply> =>
  apiCall({
    key: ['search', 'results', request],
    path: '/api/v1/document/search',
    query: queryOf(request),
    select: (body: SearchDocumentReply) => body,
  });

/**
 * One document as the reader shows it, with its author (`with_author` counts a view). The
 * start of its text that GetDocument adds (8,192 characters) is left out: the reader does not
 * show it, and only the gateway's crawler content uses it, from the answer itself.
 */
export const documentCall = (id: number): ApiCall<Document> =>
  apiCall({
    key: ['document', 'detail', id],
    path: '/api/v1/document',
    query: { id, with_author: true },
    select: ({ content: _text, ...doc }: Document) => doc,
    subject: true,
  });

/** Documents like it (shared categories, keywords). */
export const relatedDocumentsCall = (id: number): ApiCall<Document[]> =>
  apiCall({
    key: ['document', 'related', id],
    path: '/api/v1/document/related',
    query: { id },
    select: (body: ListDocumentReply) => body.document ?? [],
  });

/** What the document page shows first. */
export const documentPageCalls = (id: number): ApiCall[] => [documentCall(id), relatedDocumentsCall(id)];

/** What a library page shows first: its page of documents. */
export const libraryPageCalls = (
  categoryId: number | undefined,
  query: Readonly<Record<string, string>>,
): ApiCall[] => [libraryCall(libraryRequest(categoryId, libraryState(query)))];

/** What a search page shows first: its page of results (none without words the index can match). */
export const searchPageCalls = (query: Readonly<Record<string, string>>, today = Date.now()): ApiCall[] => {
  const state = searchState(query);
  return hasSearchableText(state.wd) ? [searchCall(searchRequest(state, today))] : [];
};

/** Articles a page of the article lists shows. */
export const ARTICLE_PAGE_SIZE = 10;
/** Recommended articles in the side column of the article lists. */
export const RECOMMENDED_ARTICLES = 8;
/** Category type 1: article categories. */
const ARTICLE_CATEGORY = 1;

/** A numeric key is an article's id, anything else its identifier (`about`). */
export function articleKeyQuery(key: string): { id: number } | { identifier: string } {
  return /^[1-9][0-9]*$/.test(key) ? { id: Number(key) } : { identifier: key };
}

/** One article by id or identifier (`/article/detail/{key}`), as the reader shows it. */
export const articleCall = (key: string): ApiCall<Article> =>
  apiCall({
    key: ['article', 'one', key],
    path: '/api/v1/article',
    query: articleKeyQuery(key),
    select: (body: Article) => body,
    subject: true,
  });

/** Articles that share its categories or keywords; the backend's 404 means none. */
export const relatedArticlesCall = (key: string): ApiCall<Article[]> =>
  apiCall({
    key: ['article', 'related', key],
    path: '/api/v1/article/related',
    query: articleKeyQuery(key),
    select: (body: ListArticleReply) => body.article ?? [],
    whenMissing: [],
  });

/**
 * 上一篇 / 下一篇 of the article read under `categoryId` (the address's category, if any): none
 * where the backend has no such call (MOREDOC's 404).
 */
export const articleNeighboursCall = (key: string, categoryId?: number): ApiCall<ArticleNeighbours> =>
  apiCall({
    key: ['article', 'neighbours', key, categoryId ?? 0],
    path: '/api/v1/article/neighbours',
    query: { ...articleKeyQuery(key), ...(categoryId ? { category_id: categoryId } : {}) },
    select: (body: ArticleNeighbours) => body,
    whenMissing: {},
  });

export interface ArticlePage {
  articles: Article[];
  total: number;
}

/** A page of published articles. */
export const articleListCall = (request: ListArticleRequest): ApiCall<ArticlePage> =>
  apiCall({
    key: ['article', 'list', request],
    path: '/api/v1/article/list',
    query: queryOf(request),
    select: (body: ListArticleReply) => ({ articles: body.article ?? [], total: body.total ?? 0 }),
  });

/** The recommended articles of the article lists' side column. */
export const recommendedArticlesCall = (): ApiCall<ArticlePage> =>
  articleListCall({ page: 1, size: RECOMMENDED_ARTICLES, is_recommend: [true], status: [PUBLISHED_ARTICLE_STATUS] });

export interface ArticleHits {
  hits: ArticleHit[];
  total: number;
  spend: string;
}

/**
 * One page of the articles' full-text search (10 hits, highlighted), in these categories (a
 * category's page: the category and those below it) or in all when none.
 */
export const articleSearchCall = (
  wd: string,
  page: number,
  categoryIds: readonly number[] = [],
): ApiCall<ArticleHits> =>
  apiCall({
    key: ['article', 'search', wd, page, ...(categoryIds.length ? [categoryIds.join(',')] : [])],
    path: '/api/v1/article/search',
    query: { wd, page, ...(categoryIds.length ? { category_id: [...categoryIds] } : {}) },
    select: (body: SearchArticleReply) => ({
      hits: body.article ?? [],
      total: body.total ?? 0,
      spend: body.spend ?? '',
    }),
  });

/**
 * The article category `/article/{x}` lists: x is the id of an enabled article category.
 * Anything else (`about`, or an id no such category has) names an article: MOREDOC's footer links.
 */
export function articleCategoryOf(categories: readonly Category[], x: string | undefined): Category | undefined {
  if (!x || !/^[1-9][0-9]{0,15}$/.test(x)) return undefined;
  const id = Number(x);
  return categories.find((c) => c.id === id && (c.type ?? 0) === ARTICLE_CATEGORY && c.enable !== false);
}

/**
 * The category and every enabled article category below it, depth first in the list's order:
 * what its list shows. A parent that is not an enabled article category counts as none.
 */
export function articleCategoryIds(categories: readonly Category[], id: number): number[] {
  const shown = categories.filter((c) => (c.type ?? 0) === ARTICLE_CATEGORY && c.enable !== false);
  const known = new Set(shown.map((c) => c.id));
  const parentOf = (c: Category) => (c.parent_id && known.has(c.parent_id) ? c.parent_id : 0);
  const ids: number[] = [];
  const visit = (current: number) => {
    if (ids.includes(current)) return;
    ids.push(current);
    for (const child of shown) if (child.id && parentOf(child) === current) visit(child.id);
  };
  if (known.has(id)) visit(id);
  return ids;
}

/** What an article list's address says: the page, and the search words (`wd`), if any. */
export function articleListState(query: Readonly<Record<string, string>>): { page: number; wd: string } {
  const page = Number(query.page ?? '1');
  return { page: Number.isInteger(page) && page >= 1 ? page : 1, wd: (query.wd ?? '').trim() };
}

/**
 * The list request of a page of the published articles in these categories (all when none):
 * what an article category's `doc_count` counts (docs/api.md, "Counts visitors see").
 */
export function articleListRequest(categoryIds: readonly number[], page: number): ListArticleRequest {
  return {
    page,
    size: ARTICLE_PAGE_SIZE,
    ...(categoryIds.length ? { category_id: [...categoryIds] } : {}),
    status: [PUBLISHED_ARTICLE_STATUS],
  };
}

/** What an article's page shows first: the article, 上一篇 / 下一篇 and the related ones. */
export const articlePageCalls = (key: string, categoryId?: number): ApiCall[] => [
  articleCall(key),
  articleNeighboursCall(key, categoryId),
  relatedArticlesCall(key),
];

/**
 * What `/article/{x?}` shows first: the list of the category x (or of every article), or its
 * search hits, with the recommended articles; where x is no article category, the article x.
 */
export function articleListPageCalls(
  categories: readonly Category[],
  x: string | undefined,
  query: Readonly<Record<string, string>>,
): ApiCall[] {
  const category = articleCategoryOf(categories, x);
  if (x !== undefined && !category) return articlePageCalls(x);
  const state = articleListState(query);
  const categoryIds = category?.id ? articleCategoryIds(categories, category.id) : [];
  // Words the index cannot match (`。。`) are not searched: the page says why.
  if (state.wd && !hasSearchableText(state.wd)) return [recommendedArticlesCall()];
  const list = state.wd
    ? articleSearchCall(state.wd, state.page, categoryIds)
    : articleListCall(articleListRequest(categoryIds, state.page));
  return [list, recommendedArticlesCall()];
}
