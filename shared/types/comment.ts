// Wire types of comment (contract/endpoints.md §4; conventions in ./common.ts).

import type { User } from './user';

export interface Comment {
  id?: number;
  parent_id?: number;
  content?: string;
  document_id?: number;
  /** 0 pending, 1 approved, 2 rejected. */
  status?: number;
  comment_count?: number;
  user_id?: number;
  user?: User;
  document_title?: string;
  /** 0 document comment, 1 article comment. */
  type?: number;
  document_uuid?: string;
  created_at?: string;
  updated_at?: string;
}

export interface ListCommentReply { total?: number; comment?: Comment[] }
