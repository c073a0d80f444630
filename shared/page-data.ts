// The API calls the first screens of the public pages make (see api-call.ts): the gateway
// makes those of the requested page and inlines their answers; the SPA's features build their
// queries from the same declarations, so the inlined answers land under the keys the screens
// read. Keys must stay stable: a page served before a deploy seeds the keys of its time.
import { apiCall, type ApiCall, type ApiQueryValue } from './api-call';
import { documentTypeOptions } from './constants';
import { formatDate } from './format';
import type { Advertisement, ListAdvertisementReply } from './types/advertisement';
import type { Banner, ListBannerReply } from './types/banner';
import type { Stats } from './types/config';
import type {
  Document, ListDocumentForHomeItem, ListDocumentForHomeResponse, ListDocumentReply, ListDocumentRequest, SearchDocumentReply,
  SearchDocumentRequest,
} from './types/document';
import type { Friendlink, ListFriendlinkReply } from './types/friendlink';

/** Document status 2 = converted (SPEC §4): what visitors can read. */
const CONVERTED = 2;

/** Columns the cards of the library and the home page show (the lists add categories, uploader and hash). */
export const DOCUMENT_CARD_FIELDS = ['id', 'title', 'ext', 'pages', 'size', 'price', 'status', 'score', 'view_count', 'download_count', 'created_at', 'description'];

/** A request as the query string of a call: its values that are set. */
function queryOf(request: object): Record<string, ApiQueryValue> {
  return Object.fromEntries(Object.entries(request).filter((entry): entry is [string, ApiQueryValue] => entry[1] !== undefined));
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
    query: { type: [0], page: 1, size: 20 },
    select: (body: ListBannerReply) => body.banner ?? [],
  });

/** The friend links of the home page. */
export const friendlinksCall = (): ApiCall<Friendlink[]> =>
  apiCall({
    key: ['friendlink', 'list', 'public'],
    path: '/api/v1/friendlink/list',
    query: { page: 1, size: 100 },
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
    query: { limit, is_recommend: [true], order: 'recommend_at desc', status: [CONVERTED], field: DOCUMENT_CARD_FIELDS },
    select: (body: ListDocumentReply) => body.document ?? [],
  });

/** What the home page shows first. */
export const homePageCalls = (): ApiCall[] => [
  websiteBannersCall(), recommendedDocumentsCall(), homeDocumentsCall(), latestDocumentsCall(), friendlinksCall(), statsCall(),
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
  apiCall({ key: ['document', 'list', request], path: '/api/v1/document/list', query: queryOf(request), select: (body: ListDocumentReply) => body });

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
  apiCall({ key: ['search', 'results', request], path: '/api/v1/document/search', query: queryOf(request), select: (body: SearchDocumentReply) => body });

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
  apiCall({ key: ['document', 'related', id], path: '/api/v1/document/related', query: { id }, select: (body: ListDocumentReply) => body.document ?? [] });

/** What the document page shows first. */
export const documentPageCalls = (id: number): ApiCall[] => [documentCall(id), relatedDocumentsCall(id)];

/** What a library page shows first: its page of documents. */
export const libraryPageCalls = (categoryId: number | undefined, query: Readonly<Record<string, string>>): ApiCall[] => [
  libraryCall(libraryRequest(categoryId, libraryState(query))),
];

/** What a search page shows first: its page of results (none without words). */
export const searchPageCalls = (query: Readonly<Record<string, string>>, today = Date.now()): ApiCall[] => {
  const state = searchState(query);
  return state.wd ? [searchCall(searchRequest(state, today))] : [];
};
