// Wire types of group (docs/moredoc.md §12; conventions in ./common.ts).

import type { PageRequest } from './common';

export interface Group {
  id?: number;
  title?: string;
  color?: string;
  is_default?: boolean;
  is_display?: boolean;
  description?: string;
  user_count?: number;
  /** Higher first. */
  sort?: number;
  enable_upload?: boolean;
  enable_comment_approval?: boolean;
  enable_comment?: boolean;
  enable_document_review?: boolean;
  enable_article?: boolean;
  enable_article_approval?: boolean;
  created_at?: string;
  updated_at?: string;
}

export interface GroupPermissions {
  permission_id?: number[];
}

export interface ListGroupReply { total?: number; group?: Group[] }

export interface GetGroupRequest { id: number }

export interface DeleteGroupRequest { id: number[] }

export interface ListGroupRequest extends PageRequest { sort?: string }

export interface GetGroupPermissionRequest { id: number }

export interface UpdateGroupPermissionRequest {
  group_id: number;
  /** Replaces the group's grants. */
  permission_id: number[];
}
