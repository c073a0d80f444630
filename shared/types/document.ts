// Wire types of document (docs/moredoc.md §12; conventions in ./common.ts).

import type { Wire } from '../wire';
import type * as commonMessages from '../messages/common';
import type * as documentMessages from '../messages/document';
import type * as documentSearchMessages from '../messages/document-search';
import type * as downloadMessages from '../messages/download';
import type * as favoriteMessages from '../messages/favorite';
import type * as searchRecordMessages from '../messages/search-record';

/** Ours: how far the conversion of a document has come (GetDocument, owner and admins only). */
export type ConvertProgress = Wire<typeof documentMessages.ConvertProgress>;

/**
 * `status`: See constants `DocumentStatus`.
 * `convert_progress`: Ours: pages converted so far while status is 0, 1 or 5, or 6 while its conversion is underway
 * (owner and admins).
 * `readable_pages`: Ours (GetDocument): how many pages the caller may read (every page for the owner, the admins,
 * buyers and VIP readers; the free ones for anybody else).
 */
export type Document = Wire<typeof documentMessages.Document>;

/** A member's rating of a document: `score` 100…500 (1 to 5 stars). */
export type DocumentScore = Wire<typeof documentMessages.DocumentScore>;

export type SearchRecord = Wire<typeof searchRecordMessages.SearchRecord>;

export type Favorite = Wire<typeof favoriteMessages.Favorite>;

/**
 * Ours (ListUserDownload): `price`, the document's price at the download (what a paid one cost, what a VIP's free one
 * would have; absent when 0, or recorded before it was kept); `reason`, a DownloadReason (absent before it was kept).
 */
export type Download = Wire<typeof downloadMessages.Download>;
export type { DownloadReason } from '../messages/download';

export type ListDocumentReply = Wire<typeof documentMessages.ListDocumentReply>;

/**
 * `GET /api/v1/document/list` and `/document/recycle` (docs/moredoc.md §6, docs/api.md §7).
 * `order`: Single `column [asc|desc]`; default `id desc`.
 * `user_id`: Only the first value counts; listing one's own documents gives the privileged view.
 * `limit`: > 0: page 1 of this size, no total.
 * `ext`: Type key `pdf|doc|ppt|xls|txt|other` (docs/moredoc.md §12).
 * `created_at`: One or two dates: [from, to].
 * `fee_type`: `free` or `charge`.
 */
export type ListDocumentRequest = Wire<typeof documentMessages.ListDocumentRequest>;

export type ListDocumentForHomeRequest = Wire<typeof documentMessages.ListDocumentForHomeRequest>;

export type ListDocumentForHomeItem = Wire<typeof documentMessages.ListDocumentForHomeItem>;

export type ListDocumentForHomeResponse = Wire<typeof documentMessages.ListDocumentForHomeResponse>;

export type CreateDocumentItem = Wire<typeof documentMessages.CreateDocumentItem>;

export type CreateDocumentRequest = Wire<typeof documentMessages.CreateDocumentRequest>;

export type GetDocumentRequest = Wire<typeof documentMessages.GetDocumentRequest>;

export type DeleteDocumentRequest = Wire<typeof documentMessages.DeleteDocumentRequest>;

/** `status` 0, 2, 4, 5, 6 or 7. */
export type CheckDocumentRequest = Wire<typeof documentMessages.CheckDocumentRequest>;

/** `type` 0 un-recommend, 1 recommend where not yet, 2 recommend again. */
export type SetDocumentRecommendRequest = Wire<typeof documentMessages.SetDocumentRecommendRequest>;

export type SetDocumentsCategoryRequest = Wire<typeof documentMessages.SetDocumentsCategoryRequest>;

export type SetDocumentsLanguageRequest = Wire<typeof documentMessages.SetDocumentsLanguageRequest>;

/** Ours: with ids, those documents are converted again; without, every failed one (MOREDOC). */
export type SetDocumentReconvertRequest = Wire<typeof documentMessages.SetDocumentReconvertRequest>;

export type RecoverRecycleDocumentRequest = Wire<typeof documentMessages.RecoverRecycleDocumentRequest>;

export type GetDocumentScoreRequest = Wire<typeof documentMessages.DocumentScore>;

export type SetDocumentScoreRequest = Wire<typeof documentMessages.DocumentScore>;

export type ListSearchRecordReply = Wire<typeof searchRecordMessages.ListSearchRecordReply>;

/**
 * `GET /api/v1/searchrecord/list`: `keywords` and `ip` are LIKE filters OR-ed together; `order` e.g. `id desc,total`.
 */
export type ListSearchRecordRequest = Wire<typeof searchRecordMessages.ListSearchRecordRequest>;

export type DeleteSearchRecordRequest = Wire<ReturnType<typeof commonMessages.IdsRequest>>;

export type ListFavoriteReply = Wire<typeof favoriteMessages.ListFavoriteReply>;

/** `type` 0 document, 1 article (then `document_id` is the article's id). */
export type CreateFavoriteRequest = Wire<typeof favoriteMessages.Favorite>;

export type GetFavoriteRequest = Wire<typeof favoriteMessages.GetFavoriteRequest>;

export type ListFavoriteRequest = Wire<typeof favoriteMessages.ListFavoriteRequest>;

export type DeleteFavoriteRequest = Wire<ReturnType<typeof commonMessages.IdsRequest>>;

/**
 * A hit of `GET /api/v1/document/search`: the document plus fields of ours (docs/api.md §10): the highlights, HTML with
 * the text escaped and the matches in `<em>…</em>`, and the snippet's page.
 * `title_highlight`: The whole title.
 * `snippet`: About 120 characters of the free pages' text around the first match, `…` where cut; never text of a page
 * past the free preview.
 * `snippet_page`: The page of the text the snippet is cut from (1-based, within the free preview); absent when it is not
 * from the text.
 * `match_page`: When only pages past the free preview match: the first of them (a number, none of its text); the
 * snippet is then the description. Absent otherwise.
 * `match_words`: With `match_page`: the query's words found on that page, as the query holds them (folded: lower
 * case, NFKC), in its order; never the page's own spelling of them. Absent when none is known.
 */
export type SearchedDocument = Wire<typeof documentSearchMessages.SearchHitDocument>;

/**
 * `spend`: Seconds taken, three decimals (`"0.004"`).
 */
export type SearchDocumentReply = Wire<typeof documentSearchMessages.SearchDocumentReply>;

/**
 * `sort`: `latest` or a counter column (`view_count`, `download_count`, …); `ext`: a type key
 * (`pdf|doc|ppt|xls|txt|other`).
 */
export type SearchDocumentRequest = Wire<typeof documentSearchMessages.SearchDocumentRequest>;

/**
 * `GET /api/v1/document/download` and `/download/bereviewed`: `/download/<token>?user_id=…&document_id=…&filename=…`.
 */
export type DownloadDocumentReply = Wire<typeof downloadMessages.DownloadDocumentReply>;

/** `GET /api/v1/document/purchase?id=` (ours): the caller paid for it within download.free_download_duration days. */
export type DocumentPurchase = Wire<typeof downloadMessages.DocumentPurchase>;

/** `POST /api/v1/upload/document` (docs/moredoc.md §8; `hash`, the file's MD5, is ours: docs/api.md §7). */
export interface UploadDocumentReply {
  code?: number;
  message?: string;
  /**
   * `hash` (ours): the file's MD5. `document` (ours): the uploader's own document already made
   * from the same bytes on the same rendering route, when there is one (not in the recycle bin),
   * with its `status` (a `DocumentStatus`), which says whether visitors can read it yet.
   */
  data?: { id?: number; hash?: string; document?: { id?: number; title?: string; status?: number } };
}

/** Ours: find words in one document (GET /api/v1/document/find). */
export type FindInDocumentRequest = Wire<typeof documentMessages.FindInDocumentRequest>;

/** A line holding the words: its page, its text, where the words are in it (UTF-16 units). */
export type FoundLine = Wire<typeof documentMessages.FoundLine>;

/** `readable`: the pages searched (those the caller may read); `total`: all the hits, of which the first `hit`. */
export type FindInDocumentReply = Wire<typeof documentMessages.FindInDocumentReply>;

/**
 * Where a page's characters are (`/view/page/<hash>/<n>.json`, ours): per line its box, its
 * text and where each character starts, in tenths of a point from the page's top left (`w`,
 * `h`: the page in points). Step i is where character i starts after character i − 1 (the
 * first after x0, or y0 when `vertical`); a character ends where the next starts, the last at
 * x1 (y1).
 */
export type PositionsLine = [
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  text: string,
  steps: number[],
  vertical?: 1,
];

export interface PagePositions {
  v: number;
  w: number;
  h: number;
  l: PositionsLine[];
}

/** Ours: where a member last read a document (GET/PUT /api/v1/document/reading). */
export type ReadingPosition = Wire<typeof documentMessages.ReadingPosition>;

/** Ours: a page of the 热门文档 ranking (GET /api/v1/document/hot; ListDocumentReply answers it). */
export type ListHotDocumentsRequest = Wire<typeof documentMessages.ListHotDocumentsRequest>;

/**
 * Ours: a document of a member's reading history (最近阅读): the page read last, and when.
 * `category_id`: The document's categories, root → leaf.
 */
export type ReadingRecord = Wire<typeof documentMessages.ReadingRecord>;

/** Ours: GET /api/v1/document/reading/list. */
export type ListReadingHistoryRequest = Wire<typeof documentMessages.ListReadingHistoryRequest>;
export type ListReadingHistoryReply = Wire<typeof documentMessages.ListReadingHistoryReply>;

/** Ours: DELETE /api/v1/document/reading (DELETE /api/v1/document/reading/all forgets everything). */
export type DeleteReadingHistoryRequest = Wire<typeof documentMessages.DeleteReadingHistoryRequest>;

/** Ours: 猜你喜欢 (GET /api/v1/document/foryou, login; ListDocumentReply answers it). */
export type ListDocumentsForYouRequest = Wire<typeof documentMessages.ListDocumentsForYouRequest>;

/**
 * Ours: GET /api/v1/document/uploadreward (login): how many more documents the member publishes
 * today with GetSettings' `upload_document_credits` (0 when publishing pays nothing).
 */
export type UploadRewardLeft = Wire<typeof documentMessages.UploadRewardLeft>;
