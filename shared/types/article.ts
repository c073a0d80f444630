// Wire types of article (docs/moredoc.md §12; conventions in ./common.ts).

import type { Category } from './category';
import type { PageRequest } from './common';
import type { User } from './user';

export interface Article {
  id?: number;
  /** Unique slug used in `/article/<identifier>` (`about`, `agreement`, …). */
  identifier?: string;
  author?: string;
  view_count?: number;
  title?: string;
  keywords?: string;
  description?: string;
  /** Sanitised HTML; lists omit it. */
  content?: string;
  category_id?: number[];
  favorite_count?: number;
  comment_count?: number;
  /** Request-only: the backend never fills it (a recommended article has `recommend_at`). */
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

/** A search hit (ours): the title and a piece of the text, HTML-escaped, the matches in `<em>…</em>`. */
export interface ArticleHit extends Article {
  title_highlight?: string;
  snippet?: string;
}

/** Full-text search: `spend` is the time taken in seconds, e.g. `"0.004"`. */
export interface SearchArticleReply { total?: number; spend?: string; article?: ArticleHit[] }

/** `id` wins over `identifier`. */
export interface GetArticleRequest { id?: number; identifier?: string }

export interface ListArticleRequest extends PageRequest {
  order?: string;
  category_id?: number[];
  /** Effective with exactly one value. */
  is_recommend?: boolean[];
  status?: number[];
  user_id?: number[];
  created_at?: string[];
  /** Search: `latest`, `views`, `comments`, `favorites`, or relevance when empty. */
  sort?: string;
}

export interface DeleteArticleRequest { id: number[] }

export interface RestoreArticleRequest { id: number[] }

export interface SetArticlesCategoryRequest { article_id: number[]; category_id: number[] }

export interface RecommendArticlesRequest { article_id: number[]; is_recommend?: boolean }

/** `rejeact_reason` is MOREDOC's spelling on the wire. */
export interface CheckArticlesRequest { article_id: number[]; status?: number; rejeact_reason?: string }
