// Wire types of document (contract/endpoints.md §4; conventions in ./common.ts).

import type { Attachment } from './attachment';
import type { Category } from './category';
import type { PageRequest } from './common';
import type { User } from './user';

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
  created_at?: string;
  updated_at?: string;
}

export interface ListDocumentReply { total?: number; document?: Document[] }

export interface ListSearchRecordReply { total?: number; search_record?: SearchRecord[] }

export interface ListFavoriteReply { total?: number; favorite?: Favorite[] }

export interface ListDownloadReply { total?: number; download?: Download[] }

/** `POST /api/v1/upload/document` (contract README §8.1). */
export interface UploadDocumentReply {
  code?: number;
  message?: string;
  data?: { id?: number };
}

/** `GET /api/v1/document` (id wins over uuid). */
export interface GetDocumentRequest {
  id?: number;
  uuid?: string;
  with_author?: boolean;
  with_all_content?: boolean;
}

/** `GET /api/v1/document/list` and the recycle bin's list; arrays travel as repeated keys. */
export interface ListDocumentRequest extends PageRequest {
  /** A single `column [asc|desc]`, default `id desc`. */
  order?: string;
  category_id?: number[];
  /** Only the first value is used; `[caller]` is the caller's own (privileged) view. */
  user_id?: number[];
  status?: number[];
  is_recommend?: boolean[];
  /** > 0: page 1 of this size, no total. */
  limit?: number;
  /** Type key (contract §5.13): pdf, doc, ppt, xls, txt, other. */
  ext?: string;
  /** 1–2 dates: [start, end]. */
  created_at?: string[];
  /** `free` or `charge`. */
  fee_type?: string;
  language?: string[];
}

/** `GET /api/v1/document/search`. */
export interface SearchDocumentRequest {
  page?: number;
  size?: number;
  wd?: string;
  category_id?: number[];
  /** `latest`, or a column name sorted descending. */
  sort?: string;
  ext?: string;
  user_id?: number;
  created_at?: string[];
  language?: string[];
}

export interface SearchDocumentReply {
  total?: number;
  /** Seconds taken, 3 decimals. */
  spend?: string;
  document?: Document[];
}

/** `GET /api/v1/document/home`: `limit` documents per top-level category. */
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

/** `POST /api/v1/document`: `category_id` applies to every document. */
export interface CreateDocumentRequest {
  overwrite?: boolean;
  category_id?: number[];
  document?: CreateDocumentItem[];
}

export interface DeleteDocumentRequest { id: number[] }

/** `PUT /api/v1/document/check`: review (2 approve, 7 reject) or disable (4). */
export interface CheckDocumentRequest { id: number[]; status?: number }

/** `PUT /api/v1/document/recommend`: 0 un-recommend, 1 recommend, 2 recommend again. */
export interface SetDocumentRecommendRequest { id: number[]; type?: number }

export interface SetDocumentsCategoryRequest { document_id: number[]; category_id: number[] }

export interface SetDocumentsLanguageRequest { document_id: number[]; language?: string }

export interface RecoverRecycleDocumentRequest { id: number[] }

/** A member's rating: `score` 100…500 for 1…5 stars. */
export interface DocumentScore {
  id?: number;
  document_id?: number;
  user_id?: number;
  score?: number;
  created_at?: string;
  updated_at?: string;
}

/** `GET /api/v1/document/download`: the signed `/download/<token>` link. */
export interface DownloadDocumentReply { url?: string }

export interface GetFavoriteRequest { document_id: number; type?: number }

export interface ListFavoriteRequest { page?: number; size?: number; type?: number }

export interface DeleteFavoriteRequest { id: number[] }

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
