// Wire types of document (docs/moredoc.md §12; conventions in ./common.ts).

import type { Attachment } from './attachment';
import type { Category } from './category';
import type { PageRequest } from './common';
import type { User } from './user';

/** Ours: how far the conversion of a document has come (GetDocument, owner and admins only). */
export interface ConvertProgress {
  done?: number;
  total?: number;
}

export interface Document {
  id?: number;
  title?: string;
  keywords?: string;
  description?: string;
  user_id?: number;
  cover?: string;
  width?: number;
  height?: number;
  preview?: number;
  pages?: number;
  uuid?: string;
  download_count?: number;
  view_count?: number;
  favorite_count?: number;
  comment_count?: number;
  score?: number;
  score_count?: number;
  price?: number;
  size?: number;
  /** See constants `DocumentStatus`. */
  status?: number;
  deleted_user_id?: number;
  username?: string;
  category_id?: number[];
  deleted_username?: string;
  ext?: string;
  attachment?: Attachment;
  user?: User;
  enable_gzip?: boolean;
  convert_error?: string;
  preview_ext?: string;
  language?: string;
  content?: string;
  category?: Category[];
  created_at?: string;
  updated_at?: string;
  deleted_at?: string;
  recommend_at?: string;
  /** Ours: pages converted so far while status is 0, 1 or 5 (owner and admins). */
  convert_progress?: ConvertProgress;
}

/** A member's rating of a document: `score` 100…500 (1 to 5 stars). */
export interface DocumentScore {
  id?: number;
  document_id?: number;
  user_id?: number;
  score?: number;
  created_at?: string;
  updated_at?: string;
}

export interface SearchRecord {
  id?: number;
  user_id?: number;
  ip?: string;
  total?: number;
  page?: number;
  user_agent?: string;
  keywords?: string;
  spend_time?: number;
  username?: string;
  created_at?: string;
  updated_at?: string;
}

export interface Favorite {
  id?: number;
  user_id?: number;
  document_id?: number;
  title?: string;
  ext?: string;
  score?: number;
  size?: number;
  pages?: number;
  document_uuid?: string;
  type?: number;
  created_at?: string;
  updated_at?: string;
}

export interface Download {
  id?: number;
  user_id?: number;
  document_id?: number;
  ip?: string;
  is_pay?: boolean;
  title?: string;
  ext?: string;
  score?: number;
  size?: number;
  pages?: number;
  document_uuid?: string;
  /** Ours (ListUserDownload): the credits this paid download cost; absent when free, or paid before this was kept. */
  price?: number;
  created_at?: string;
  updated_at?: string;
}

export interface ListDocumentReply { total?: number; document?: Document[] }

/** `GET /api/v1/document/list` and `/document/recycle` (endpoints.md ListDocument). */
export interface ListDocumentRequest extends PageRequest {
  /** Single `column [asc|desc]`; default `id desc`. */
  order?: string;
  category_id?: number[];
  /** Only the first value counts; listing one's own documents gives the privileged view. */
  user_id?: number[];
  status?: number[];
  is_recommend?: boolean[];
  /** > 0: page 1 of this size, no total. */
  limit?: number;
  /** Type key `pdf|doc|ppt|xls|txt|other` (endpoints.md §5.13). */
  ext?: string;
  /** One or two dates: [from, to]. */
  created_at?: string[];
  /** `free` or `charge`. */
  fee_type?: string;
  language?: string[];
}

export interface ListDocumentForHomeRequest { limit?: number; field?: string[] }

export interface ListDocumentForHomeItem {
  category_id?: number;
  category_cover?: string;
  category_name?: string;
  document?: Document[];
}

export interface ListDocumentForHomeResponse { document?: ListDocumentForHomeItem[] }

export interface CreateDocumentItem {
  title?: string;
  attachment_id?: number;
  price?: number;
  language?: string;
  keywords?: string;
  description?: string;
}

export interface CreateDocumentRequest {
  overwrite?: boolean;
  category_id?: number[];
  document?: CreateDocumentItem[];
}

export interface GetDocumentRequest { id?: number; with_author?: boolean; uuid?: string; with_all_content?: boolean }

export interface DeleteDocumentRequest { id: number[] }

/** `status` 0, 2, 4, 5, 6 or 7. */
export interface CheckDocumentRequest { id: number[]; status?: number }

/** `type` 0 un-recommend, 1 recommend where not yet, 2 recommend again. */
export interface SetDocumentRecommendRequest { id: number[]; type?: number }

export interface SetDocumentsCategoryRequest { document_id: number[]; category_id: number[] }

export interface SetDocumentsLanguageRequest { document_id: number[]; language?: string }

/** Ours: with ids, those documents are converted again; without, every failed one (MOREDOC). */
export interface SetDocumentReconvertRequest { id?: number[] }

export interface RecoverRecycleDocumentRequest { id: number[] }

export interface GetDocumentScoreRequest { document_id: number }

export interface SetDocumentScoreRequest { document_id: number; score: number }

export interface ListSearchRecordReply { total?: number; search_record?: SearchRecord[] }

/** `GET /api/v1/searchrecord/list`: `keywords` and `ip` are LIKE filters OR-ed together; `order` e.g. `id desc,total`. */
export interface ListSearchRecordRequest {
  page?: number;
  size?: number;
  keywords?: string;
  field?: string[];
  order?: string;
  user_id?: number[];
  ip?: string;
}

export interface DeleteSearchRecordRequest { id: number[] }

export interface ListFavoriteReply { total?: number; favorite?: Favorite[] }

/** `type` 0 document, 1 article (then `document_id` is the article's id). */
export interface CreateFavoriteRequest { document_id: number; type?: number }

export interface GetFavoriteRequest { document_id: number; type?: number }

export interface ListFavoriteRequest { page?: number; size?: number; type?: number }

export interface DeleteFavoriteRequest { id: number[] }

export interface ListDownloadReply { total?: number; download?: Download[] }

/**
 * A hit of `GET /api/v1/document/search`: the document plus fields of ours (docs/api.md
 * §10): the highlights, HTML with the text escaped and the matches in `<em>…</em>`, and the
 * snippet's page.
 */
export interface SearchedDocument extends Document {
  /** The whole title. */
  title_highlight?: string;
  /** About 120 characters of the text around the first match, `…` where cut. */
  snippet?: string;
  /** The page of the text the snippet is cut from (1-based); absent when it is not from the text. */
  snippet_page?: number;
}

export interface SearchDocumentReply {
  total?: number;
  /** Seconds taken, three decimals (`"0.004"`). */
  spend?: string;
  document?: SearchedDocument[];
}

/** `sort`: `latest` or a counter column (`view_count`, `download_count`, …); `ext`: a type key (`pdf|doc|ppt|xls|txt|other`). */
export interface SearchDocumentRequest {
  page?: number;
  size?: number;
  wd?: string;
  category_id?: number[];
  sort?: string;
  ext?: string;
  user_id?: number;
  created_at?: string[];
  language?: string[];
}

/** `GET /api/v1/document/download` and `/download/bereviewed`: `/download/<token>?user_id=…&document_id=…&filename=…`. */
export interface DownloadDocumentReply { url?: string }

/** `GET /api/v1/document/purchase?id=` (ours): the caller paid for it within download.free_download_duration days. */
export interface DocumentPurchase { bought?: boolean }

/** `POST /api/v1/upload/document` (contract README §8.1). */
export interface UploadDocumentReply {
  code?: number;
  message?: string;
  data?: { id?: number };
}

/** Ours: find words in one document (GET /api/v1/document/find). */
export interface FindInDocumentRequest { id?: number; wd?: string }

/** A line holding the words: its page, its text, where the words are in it (UTF-16 units). */
export interface FoundLine { page?: number; text?: string; start?: number; length?: number }

/** `readable`: the pages searched (those the caller may read); `total`: all the hits, of which the first `hit`. */
export interface FindInDocumentReply { hit?: FoundLine[]; total?: number; readable?: number }

/**
 * Where a page's characters are (`/view/page/<hash>/<n>.json`, ours): per line its box, its
 * text and where each character starts, in tenths of a point from the page's top left (`w`,
 * `h`: the page in points). Step i is where character i starts after character i − 1 (the
 * first after x0, or y0 when `vertical`); a character ends where the next starts, the last at
 * x1 (y1).
 */
export type PositionsLine = [x0: number, y0: number, x1: number, y1: number, text: string, steps: number[], vertical?: 1];

export interface PagePositions {
  v: number;
  w: number;
  h: number;
  l: PositionsLine[];
}

/** Ours: where a member last read a document (GET/PUT /api/v1/document/reading). */
export interface ReadingPosition { document_id?: number; page?: number; updated_at?: string }

/** Ours: a page of the 热门文档 ranking (GET /api/v1/document/hot; ListDocumentReply answers it). */
export interface ListHotDocumentsRequest { page?: number; size?: number }

/** Ours: a document of a member's reading history (最近阅读): the page read last, and when. */
export interface ReadingRecord {
  document_id?: number;
  title?: string;
  ext?: string;
  pages?: number;
  page?: number;
  updated_at?: string;
  /** The document's categories, root → leaf. */
  category_id?: number[];
}

/** Ours: GET /api/v1/document/reading/list. */
export interface ListReadingHistoryRequest { page?: number; size?: number }
export interface ListReadingHistoryReply { total?: number; reading?: ReadingRecord[] }

/** Ours: DELETE /api/v1/document/reading (DELETE /api/v1/document/reading/all forgets everything). */
export interface DeleteReadingHistoryRequest { document_id?: number[] }

/** Ours: 猜你喜欢 (GET /api/v1/document/foryou, login; ListDocumentReply answers it). */
export interface ListDocumentsForYouRequest { limit?: number }
