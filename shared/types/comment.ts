// Wire types of comment (docs/moredoc.md §12; conventions in ./common.ts).

import type { PageRequest } from './common';
import type { User } from './user';

export interface Comment {
  id?: number;
  /** 0 (or absent) = top level; else the comment this one replies to. */
  parent_id?: number;
  /** Plain text (never HTML). */
  content?: string;
  /** The document id (type 0) or the article id (type 1). */
  document_id?: number;
  /** 0 pending, 1 approved, 2 rejected. */
  status?: number;
  /** Approved replies. */
  comment_count?: number;
  user_id?: number;
  user?: User;
  document_title?: string;
  /** 0 document comment, 1 article comment. */
  type?: number;
  /** The document's uuid or the article's identifier. */
  document_uuid?: string;
  created_at?: string;
  updated_at?: string;
}

export interface ListCommentReply { total?: number; comment?: Comment[] }

export interface CreateCommentRequest {
  document_id: number;
  parent_id?: number;
  content: string;
  captcha_id?: string;
  captcha?: string;
  /** 0 document, 1 article. */
  type?: number;
}

export interface ListCommentRequest extends PageRequest {
  order?: string;
  status?: number[];
  document_id?: number;
  user_id?: number;
  parent_id?: number[];
  with_document_title?: boolean;
  type?: number[];
}

export interface GetCommentRequest { id: number }

export interface DeleteCommentRequest { id: number[] }

export interface CheckCommentRequest { id: number[]; status?: number }
