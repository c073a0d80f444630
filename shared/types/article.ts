// Wire types of article (contract/endpoints.md §4; conventions in ./common.ts).

import type { Category } from './category';
import type { User } from './user';

export interface Article {
  id?: number;
  identifier?: string;
  author?: string;
  view_count?: number;
  title?: string;
  keywords?: string;
  description?: string;
  content?: string;
  category_id?: number[];
  favorite_count?: number;
  comment_count?: number;
  is_recommend?: boolean;
  user_id?: number;
  user?: User;
  /** 0 pending, 1 published, 2 rejected. */
  status?: number;
  reject_reason?: string;
  category?: Category[];
  created_at?: string;
  updated_at?: string;
  deleted_at?: string;
  recommend_at?: string;
}

export interface ListArticleReply { total?: number; article?: Article[] }
