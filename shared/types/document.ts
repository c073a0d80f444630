// Wire types of document (contract/endpoints.md §4; conventions in ./common.ts).

import type { Attachment } from './attachment';
import type { Category } from './category';
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

export interface ListDownloadReply { total?: number; download?: Download[] }

/** `POST /api/v1/upload/document` (contract README §8.1). */
export interface UploadDocumentReply {
  code?: number;
  message?: string;
  data?: { id?: number };
}
