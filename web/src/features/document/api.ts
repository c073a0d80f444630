// DocumentAPI and RecycleAPI (docs/moredoc.md): the public library (home listing, lists,
// one document, related documents, ratings, downloads), a member's own documents, and the
// admin's review, batch changes and recycle bin. Everything about documents is kept under
// `documentKeys.all`; each write marks stale what it changes. The reader's keys
// (`documentKeys.detail`) stay stable: the page the gateway serves may carry their data.
import { queryOptions, type Query, type QueryClient } from '@tanstack/react-query';
import {
  documentCall,
  homeDocumentsCall,
  hotDocumentsCall,
  latestDocumentsCall,
  libraryCall,
  recommendedDocumentsCall,
  relatedDocumentsCall,
} from '../../../../shared/page-data';
import type { Empty } from '../../../../shared/types/common';
import type {
  CheckDocumentRequest,
  CreateDocumentRequest,
  Document,
  DocumentPurchase,
  DocumentScore,
  DownloadDocumentReply,
  ListDocumentReply,
  ListDocumentRequest,
  SetDocumentRecommendRequest,
  UploadRewardLeft,
} from '../../../../shared/types/document';
import { callQuery } from '../../api/call-query';
import { api, ApiError, unwrap } from '../../api/client';
import { invalidateAfter, type WriteContext } from '../../api/query-client';
import { categoryKeys } from '../category/api';
import { statsKeys } from '../stats/api';
import { userKeys } from '../user/api';
import { freePages } from './document-links';
import { conversionPollWait, conversionUnderway } from './conversion';
import { pageImagePath } from '../../../../shared/page-image';

export const documentKeys = {
  all: ['document'] as const,
  latest: (limit: number) => ['document', 'latest', limit] as const,
  home: (limit: number) => ['document', 'home', limit] as const,
  recommended: (limit: number) => ['document', 'recommended', limit] as const,
  list: (request: ListDocumentRequest) => ['document', 'list', request] as const,
  /** One document as the reader shows it (with its author). */
  detail: (id: number) => ['document', 'detail', id] as const,
  /** The conversion state of one document, polled while it converts. */
  progress: (id: number) => ['document', 'progress', id] as const,
  /** Whether the reader (a visitor, or the member `userId`) may see the pages past the free preview. */
  fullAccess: (id: number, userId: number) => ['document', 'full-access', id, userId] as const,
  /** The same for every reader of the document. */
  fullAccessOf: (id: number) => ['document', 'full-access', id] as const,
  /** Whether the member `userId` bought the document (and downloads it again for nothing). */
  purchase: (id: number, userId: number) => ['document', 'purchase', id, userId] as const,
  purchaseOf: (id: number) => ['document', 'purchase', id] as const,
  related: (id: number) => ['document', 'related', id] as const,
  score: (id: number) => ['document', 'score', id] as const,
  mine: ['document', 'mine'] as const,
  /** The member `userId`'s rewarded uploads left today: a new document (under `all`) changes it. */
  uploadRewardLeft: (userId: number) => ['document', 'upload-reward-left', userId] as const,
  admin: ['document', 'admin'] as const,
  recycle: ['document', 'recycle'] as const,
};

export const listDocuments = (request: ListDocumentRequest) =>
  api.get<ListDocumentReply>('/api/v1/document/list', { ...request });

// The first screens' queries are built from the calls of shared/page-data.ts, under the keys
// of `documentKeys`, so that the answers the gateway inlines into a page are found here.

/** The newest readable documents; none when the backend has no document service (404). */
export const latestDocumentsQuery = (limit = 12) => callQuery(latestDocumentsCall(limit), { whenMissing: [] });

/** Per top-level category, its `limit` latest converted documents (with their cover). */
export const homeDocumentsQuery = (limit = 6) => callQuery(homeDocumentsCall(limit), { whenMissing: [] });

/** The documents the admin recommended, most recently recommended first. */
export const recommendedDocumentsQuery = (limit = 8) => callQuery(recommendedDocumentsCall(limit), { whenMissing: [] });

/** A page of the 热门文档 ranking (the server's job recomputes it hourly). */
export const hotDocumentsQuery = (page: number, size: number) =>
  callQuery(hotDocumentsCall(page, size), { whenMissing: {} });

/** 猜你喜欢: documents for the signed-in member `userId` (by the categories they read and favourite). */
export const documentsForYouQuery = (userId: number, limit = 8) =>
  queryOptions({
    queryKey: [...documentKeys.all, 'for-you', userId, limit] as const,
    queryFn: async () => unwrap(await api.get<ListDocumentReply>('/api/v1/document/foryou', { limit })).document ?? [],
    staleTime: 5 * 60_000,
  });

/** One page of the public library (converted documents only): `libraryRequest` of shared/page-data.ts. */
export const libraryQuery = (request: ListDocumentRequest) => callQuery(libraryCall(request));

/**
 * One document with its author and the start of its text; a visit counts once per load (with_author persists the view).
 */
export const documentQuery = (id: number) => queryOptions({ ...callQuery(documentCall(id)), staleTime: 5 * 60_000 });

/**
 * The documents `ids` as a list shows them, asked one by one without counting a view (no
 * `with_author`), without the start of their text; one gone meanwhile, or in the recycle bin
 * (which the admin may still read), is left out.
 */
export async function documentsById(ids: readonly number[]): Promise<Document[]> {
  const answers = await Promise.all(ids.map((id) => api.get<Document>('/api/v1/document', { id })));
  return answers.flatMap((answer) => {
    if (!answer.ok && answer.status === 404) return [];
    const { content: _text, user: _author, ...doc } = unwrap(answer);
    return doc.deleted_at ? [] : [doc];
  });
}

/**
 * After a write that changed the reader's document (a favourite, a rating, a download), its
 * cached copy takes the change: reading it again would count one more view.
 */
export function changeCachedDocument(
  client: QueryClient,
  id: number,
  change: (doc: Document) => Partial<Document>,
): void {
  client.setQueryData<Document>(documentKeys.detail(id), (doc) => (doc ? { ...doc, ...change(doc) } : doc));
}

/** A counter of the document moved by `delta` (the wire leaves out zeros). */
export const movedCounter = (value: number | undefined, delta: number) => Math.max((value ?? 0) + delta, 0);

/** Where the current run of asks of a polled query began: how many answers it had then. */
const pollRuns = new WeakMap<object, number>();

/**
 * What makes a query ask again while `underway(its data)` says a conversion it shows has not
 * ended: `conversionPollWait` after each answer, from the run's first one (a run ends when
 * nothing shown is underway, and the next one starts from the shortest wait again). React
 * Query stops the asking with the screen, skips it while the tab is hidden and, as the wait
 * may be long by then, asks at once when the tab shows again.
 */
export function pollWhileUnderway<Data>(underway: (data: Data | undefined) => boolean) {
  const answers = (query: Query<Data>) => query.state.dataUpdateCount + query.state.errorUpdateCount;
  return {
    refetchInterval: (query: Query<Data>) => {
      if (!underway(query.state.data)) {
        pollRuns.delete(query);
        return false;
      }
      // Not answered yet: the first answer starts the run.
      if (answers(query) === 0) return conversionPollWait(0);
      const start = pollRuns.get(query) ?? answers(query);
      pollRuns.set(query, start);
      return conversionPollWait(answers(query) - start);
    },
    refetchOnWindowFocus: (query: Query<Data>) => underway(query.state.data),
  };
}

/**
 * The document without counting a view, asked again while its conversion is underway (and
 * while it could not be asked yet: the screen showing it knows it converts).
 */
export const documentProgressQuery = (id: number) =>
  queryOptions({
    queryKey: documentKeys.progress(id),
    queryFn: async () => unwrap(await api.get<Document>('/api/v1/document', { id })),
    staleTime: 0,
    ...pollWhileUnderway<Document>((doc) => doc === undefined || conversionUnderway(doc)),
  });

/**
 * The reader's copy of a document takes what its polled state says once the conversion ended
 * (status, pages, failure): reading it again (`with_author`) would count one more view. What
 * only the reader's copy has (the author, the views counted) stays.
 */
export function takeConversionEnd(client: QueryClient, polled: Document): void {
  const { content: _text, user: _author, view_count: _views, convert_progress: _progress, ...ended } = polled;
  changeCachedDocument(client, polled.id ?? 0, () => ended);
}

/** The answers to a page past the preview that mean "not this reader" (see `fullAccessQuery`). */
const REFUSED_PAGE = [401, 403, 404];

/**
 * Whether the pages past the free preview open for this reader: the server decides (owner,
 * admin, VIP or buyer, as its settings say), so ask about a member's. Our backend says it in
 * the document it answers this member (`readable_pages`, decision 099: no refused page in the
 * console); a backend that does not (MOREDOC) is asked for the first locked page, where a 403,
 * or the 404 of one that renders only the preview, means no. A visitor (`userId` 0) is none of
 * those: never asked. Any other failure (no network, a 5xx) says nothing either way: the query
 * fails (an ApiError), so that the reader offers to ask again rather than tell an entitled
 * member to pay.
 */
export const fullAccessQuery = (doc: Document, userId: number) =>
  queryOptions({
    queryKey: documentKeys.fullAccess(doc.id ?? 0, userId),
    queryFn: async () => {
      const firstLocked = pageImagePath(doc, freePages(doc) + 1);
      if (!(userId > 0 && firstLocked)) return false;
      // Without `with_author`: no view counted.
      const mine = unwrap(await api.get<Document>('/api/v1/document', { id: doc.id ?? 0 }));
      if (mine.readable_pages !== undefined) return mine.readable_pages > freePages(mine);
      const answer = await api.request<unknown>('HEAD', firstLocked);
      if (answer.ok || REFUSED_PAGE.includes(answer.status)) return answer.ok;
      throw new ApiError({ status: answer.status, data: answer.data });
    },
    staleTime: 5 * 60_000,
  });

export const relatedDocumentsQuery = (id: number) =>
  queryOptions({ ...callQuery(relatedDocumentsCall(id), { whenMissing: [] }), staleTime: 5 * 60_000 });

/** The member's own rating of a document (`{}` when none). */
export const documentScoreQuery = (documentId: number) =>
  queryOptions({
    queryKey: documentKeys.score(documentId),
    queryFn: async () => unwrap(await api.get<DocumentScore>('/api/v1/document/score', { document_id: documentId })),
  });

/**
 * Rates a document 1–5 stars (one rating per member; the wire takes 100…500). The reader's
 * average and count take the vote (the server's average of every vote, rounded).
 */
export async function rateDocument(documentId: number, stars: number, context: WriteContext) {
  const result = await invalidateAfter(
    api.post<Empty>('/api/v1/document/score', { document_id: documentId, score: stars * 100 }),
    context,
    [documentKeys.score(documentId)],
  );
  if (result.ok) {
    changeCachedDocument(context.client, documentId, (doc) => {
      // Nobody rated: the stored score is MOREDOC's default (300), no one's vote.
      const count = doc.score_count ?? 0;
      const total = count > 0 ? (doc.score ?? 0) * count : 0;
      return { score: Math.round((total + stars * 100) / (count + 1)), score_count: count + 1 };
    });
  }
  return result;
}

/**
 * The signed link of a download; the credits it moves and the record it writes refresh the
 * member's account and downloads, the reader's count takes it, and the reader asks again
 * whether the pages past the preview open (a buyer reads every page).
 */
/**
 * Whether the member `userId` paid for the document within download.free_download_duration days (`GET
 * /api/v1/document/purchase`).
 */
export const purchaseQuery = (id: number, userId: number) =>
  queryOptions({
    queryKey: documentKeys.purchase(id, userId),
    queryFn: async () => unwrap(await api.get<DocumentPurchase>('/api/v1/document/purchase', { id })).bought === true,
  });

export async function downloadDocument(id: number, agreed: number, context: WriteContext) {
  const result = await invalidateAfter(
    api.get<DownloadDocumentReply>('/api/v1/document/download', { id, price: agreed, check_price: true }),
    context,
    [userKeys.all, documentKeys.fullAccessOf(id), documentKeys.purchaseOf(id)],
  );
  if (result.ok)
    changeCachedDocument(context.client, id, (doc) => ({ download_count: movedCounter(doc.download_count, 1) }));
  else if (result.data.code === PRICE_CHANGED) await refreshCachedPrice(context.client, id);
  return result;
}

/** DownloadDocument's refusal of a download that would cost more than the reader agreed to. */
const PRICE_CHANGED = 9;

/** The price the reader is shown, asked again (without counting a view) after the server said it changed. */
async function refreshCachedPrice(client: QueryClient, id: number): Promise<void> {
  const current = await api.get<Document>('/api/v1/document', { id });
  if (current.ok) changeCachedDocument(client, id, () => ({ price: current.data.price ?? 0 }));
}

/** The member's own documents (every status), newest first; asked again while one of them converts. */
export const myDocumentsQuery = (userId: number, page: number, size: number) =>
  queryOptions({
    queryKey: [...documentKeys.mine, userId, page, size] as const,
    queryFn: async () => unwrap(await listDocuments({ user_id: [userId], page, size, order: 'id desc' })),
    ...pollWhileUnderway<ListDocumentReply>((reply) => (reply?.document ?? []).some(conversionUnderway)),
  });

/** How many documents the member has, in every status as 我的文档 lists them (their summary's 文档). */
export const myDocumentCountQuery = (userId: number) =>
  queryOptions({
    queryKey: [...documentKeys.mine, userId, 'count'] as const,
    queryFn: async () => unwrap(await listDocuments({ user_id: [userId], page: 1, size: 1 })).total ?? 0,
  });

/**
 * The member's newest documents, to follow what an upload created (CreateDocument answers
 * `{}`): asked again while one of them converts (in review too, until it has pages or failed).
 */
export const recentUploadsQuery = (userId: number, size: number) =>
  queryOptions({
    queryKey: [...documentKeys.mine, userId, 'recent', size] as const,
    queryFn: async () =>
      unwrap(await listDocuments({ user_id: [userId], page: 1, size, order: 'id desc' })).document ?? [],
    staleTime: 0,
    ...pollWhileUnderway<Document[]>((docs) => (docs ?? []).some(conversionUnderway)),
  });

/** How many more documents the member `userId` publishes today with the reward (GetUploadRewardLeft, ours). */
export const uploadRewardLeftQuery = (userId: number) =>
  queryOptions({
    queryKey: documentKeys.uploadRewardLeft(userId),
    queryFn: async () => unwrap(await api.get<UploadRewardLeft>('/api/v1/document/uploadreward')).left ?? 0,
    staleTime: 0,
  });

/** Creates the documents of uploaded files; lists, counts and the day's rewards left change. */
export const createDocuments = (request: CreateDocumentRequest, context: WriteContext) =>
  invalidateAfter(api.post<Empty>('/api/v1/document', request), context, [
    documentKeys.all,
    statsKeys.all,
    categoryKeys.all,
  ]);

/** Title, keywords, description, price, language and categories (plus status for admins). */
export const updateDocument = (doc: Document, context: WriteContext) =>
  invalidateAfter(api.put<Empty>('/api/v1/document', doc), context, [
    documentKeys.all,
    categoryKeys.all,
    statsKeys.all,
  ]);

/**
 * An owner's edit of their document, then its status (undefined when it cannot be read): new
 * words of a published document go back to review when the owner's uploads would.
 */
export async function updateOwnDocument(doc: Document, context: WriteContext): Promise<number | undefined> {
  unwrap(await updateDocument(doc, context));
  const saved = await api.get<Document>('/api/v1/document', { id: doc.id });
  return saved.ok ? saved.data.status : undefined;
}

/** Moves documents to the recycle bin. */
export const deleteDocuments = (ids: readonly number[], context: WriteContext) =>
  invalidateAfter(api.delete<Empty>('/api/v1/document', { id: ids }), context, [
    documentKeys.all,
    statsKeys.all,
    categoryKeys.all,
  ]);

// Admin: review, recommendation and batch changes.
const adminStale = [documentKeys.all, categoryKeys.all, statsKeys.all];

/** Approve (2: converted, or queued for conversion when it has no pages yet), reject (7), disable (4). */
export const checkDocuments = (request: CheckDocumentRequest, context: WriteContext) =>
  invalidateAfter(api.put<Empty>('/api/v1/document/check', request), context, adminStale);

export const recommendDocuments = (request: SetDocumentRecommendRequest, context: WriteContext) =>
  invalidateAfter(api.put<Empty>('/api/v1/document/recommend', request), context, adminStale);

/** Converts the given documents again (our addition: MOREDOC's call takes no ids and requeues every failed one). */
export const reconvertDocuments = (ids: readonly number[], context: WriteContext) =>
  invalidateAfter(api.put<Empty>('/api/v1/document/reconvert', { id: ids }), context, adminStale);

export const setDocumentsCategory = (
  documentIds: readonly number[],
  categoryIds: readonly number[],
  context: WriteContext,
) =>
  invalidateAfter(
    api.put<Empty>('/api/v1/document/category', { document_id: documentIds, category_id: categoryIds }),
    context,
    adminStale,
  );

export const setDocumentsLanguage = (documentIds: readonly number[], language: string, context: WriteContext) =>
  invalidateAfter(
    api.put<Empty>('/api/v1/document/language', { document_id: documentIds, language }),
    context,
    adminStale,
  );

// The recycle bin.
export const listRecycledDocuments = (request: ListDocumentRequest) =>
  api.get<ListDocumentReply>('/api/v1/document/recycle', { ...request });

export const recoverDocuments = (ids: readonly number[], context: WriteContext) =>
  invalidateAfter(api.put<Empty>('/api/v1/document/recycle', { id: ids }), context, adminStale);

export const purgeDocuments = (ids: readonly number[], context: WriteContext) =>
  invalidateAfter(api.delete<Empty>('/api/v1/document/recycle', { id: ids }), context, [
    documentKeys.recycle,
    documentKeys.admin,
  ]);

export const emptyRecycleBin = (context: WriteContext) =>
  invalidateAfter(api.delete<Empty>('/api/v1/document/recycle/all'), context, [
    documentKeys.recycle,
    documentKeys.admin,
  ]);
