// Wire types of article (docs/moredoc.md §12; conventions in ./common.ts).

import type { Wire } from '../wire';
import type * as articleMessages from '../messages/article';
import type * as commonMessages from '../messages/common';

/**
 * `identifier`: Unique slug used in `/article/<identifier>` (`about`, `agreement`, …).
 * `content`: Sanitised HTML; lists omit it.
 * `is_recommend`: Request-only: the backend never fills it (a recommended article has `recommend_at`).
 * `status`: 0 pending, 1 published, 2 rejected.
 */
export type Article = Wire<typeof articleMessages.Article>;

export type ListArticleReply = Wire<typeof articleMessages.ListArticleReply>;

/** A search hit (ours): the title and a piece of the text, HTML-escaped, the matches in `<em>…</em>`. */
export type ArticleHit = Wire<typeof articleMessages.SearchHitArticle>;

/** Full-text search: `spend` is the time taken in seconds, e.g. `"0.004"`. */
export type SearchArticleReply = Wire<typeof articleMessages.SearchArticleReply>;

/**
 * `previous` (上一篇) is listed just before the article in its category's list, `next` (下一篇)
 * just after it; lists carry no `content`.
 */
export type ArticleNeighbours = Wire<typeof articleMessages.ArticleNeighbours>;

/** `id` wins over `identifier`. */
export type GetArticleRequest = Wire<typeof articleMessages.GetArticleRequest>;

/**
 * `is_recommend`: Effective with exactly one value.
 * `sort`: Search: `latest`, `views`, `comments`, `favorites`, or relevance when empty.
 */
export type ListArticleRequest = Wire<typeof articleMessages.ListArticleRequest>;

export type DeleteArticleRequest = Wire<ReturnType<typeof commonMessages.IdsRequest>>;

export type RestoreArticleRequest = Wire<ReturnType<typeof commonMessages.IdsRequest>>;

export type SetArticlesCategoryRequest = Wire<typeof articleMessages.SetArticlesCategoryRequest>;

export type RecommendArticlesRequest = Wire<typeof articleMessages.RecommendArticlesRequest>;

/** `rejeact_reason` is MOREDOC's spelling on the wire. */
export type CheckArticlesRequest = Wire<typeof articleMessages.CheckArticlesRequest>;
