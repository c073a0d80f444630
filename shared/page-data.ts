// The API calls the first screens of the public pages make (see api-call.ts): the gateway
// makes those of the requested page and inlines their answers; the SPA's features build their
// queries from the same declarations, so the inlined answers land under the keys the screens
// read. Keys must stay stable: a page served before a deploy seeds the keys of its time.
import { apiCall, type ApiCall } from './api-call';
import type { Advertisement, ListAdvertisementReply } from './types/advertisement';
import type { Banner, ListBannerReply } from './types/banner';
import type { Stats } from './types/config';
import type { Document, ListDocumentReply } from './types/document';
import type { Friendlink, ListFriendlinkReply } from './types/friendlink';

/** Document status 2 = converted (SPEC §4): what visitors can read. */
const CONVERTED = 2;

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

/** What the home page shows first. */
export const homePageCalls = (): ApiCall[] => [websiteBannersCall(), latestDocumentsCall(), friendlinksCall(), statsCall()];

/** How much of a document's text its page keeps (the crawler content shows it; GetDocument gives 8,192 characters). */
export const DOCUMENT_TEXT_CHARS = 3000;

/** One document as the reader shows it, with its author and the start of its text (`with_author` counts a view). */
export const documentCall = (id: number): ApiCall<Document> =>
  apiCall({
    key: ['document', 'detail', id],
    path: '/api/v1/document',
    query: { id, with_author: true },
    select: (body: Document) => (body.content ? { ...body, content: [...body.content].slice(0, DOCUMENT_TEXT_CHARS).join('') } : body),
    subject: true,
  });

/** Documents like it (shared categories, keywords). */
export const relatedDocumentsCall = (id: number): ApiCall<Document[]> =>
  apiCall({ key: ['document', 'related', id], path: '/api/v1/document/related', query: { id }, select: (body: ListDocumentReply) => body.document ?? [] });

/** What the document page shows first. */
export const documentPageCalls = (id: number): ApiCall[] => [documentCall(id), relatedDocumentsCall(id)];
