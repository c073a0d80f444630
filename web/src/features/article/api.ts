// ArticleAPI (docs/moredoc.md, ArticleAPI; ours in docs/api.md §13): the public lists,
// one article, related articles, the member's own articles and publish right, and the writes,
// review and recycle bin. Every write marks every article query stale (public lists and pages,
// admin lists, 我的文章), and the category lists, whose counts follow the articles.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  articleCall,
  articleListCall,
  articleNeighboursCall,
  articleSearchCall,
  recommendedArticlesCall,
  relatedArticlesCall,
} from '../../../../shared/page-data';
import { hasSearchableText } from '../../../../shared/searchable-text';
import type {
  Article,
  CheckArticlesRequest,
  ListArticleReply,
  ListArticleRequest,
} from '../../../../shared/types/article';
import type { Empty } from '../../../../shared/types/common';
import type { Favorite } from '../../../../shared/types/document';
import { callQuery } from '../../api/call-query';
import { api, unwrap } from '../../api/client';
import { invalidateAfter, type WriteContext } from '../../api/query-client';
import { rightQuery } from '../../api/right-query';
import { categoryKeys } from '../category/api';
import { favoriteKeys, FavoriteType } from '../favorite/api';

export { ARTICLE_PAGE_SIZE } from '../../../../shared/page-data';

export const articleKeys = {
  all: ['article'] as const,
  admin: ['article', 'admin'] as const,
  recycle: ['article', 'admin', 'recycle'] as const,
  mine: ['article', 'mine'] as const,
  /** Whether the signed-in member may write articles (kept per member). */
  right: (userId: number) => ['article', 'right', userId] as const,
};

export const listArticles = (query: ListArticleRequest) =>
  api.get<ListArticleReply>('/api/v1/article/list', { ...query });
export const listRecycledArticles = (query: ListArticleRequest) =>
  api.get<ListArticleReply>('/api/v1/article/recycle/list', { ...query });

// The public screens' queries are built from the calls of shared/page-data.ts, so that the
// answers the gateway inlines into an article page are found under their keys.

/** One article by id or identifier (`/article/detail/{key}`); the failure (404) is the query's error. */
export const articleQuery = (key: string) => callQuery(articleCall(key));

/** A page of published articles (`articleListRequest`); the previous page stays on screen while the next loads. */
export const articleListQuery = (request: ListArticleRequest) =>
  queryOptions({ ...callQuery(articleListCall(request)), placeholderData: keepPreviousData });

/** The recommended articles of the lists' side column. */
export const recommendedArticlesQuery = () => callQuery(recommendedArticlesCall());

/** Articles that share categories or keywords; none (not an error) when the backend finds none (404). */
export const relatedArticlesQuery = (key: string) => callQuery(relatedArticlesCall(key));

/** 上一篇 / 下一篇 in the list of the address's category (`categoryId`), or of the article's own; none from MOREDOC. */
export const articleNeighboursQuery = (key: string, categoryId?: number) =>
  callQuery(articleNeighboursCall(key, categoryId));

/**
 * Full-text search (10 hits a page, highlighted); the previous page stays while the next loads.
 * Words without anything searchable (punctuation alone) are not sent.
 */
export const searchArticlesQuery = (wd: string, page: number, categoryIds: readonly number[] = []) =>
  queryOptions({
    ...callQuery(articleSearchCall(wd, page, categoryIds)),
    placeholderData: keepPreviousData,
    enabled: hasSearchableText(wd),
  });

/** 我的文章: one page of the member's own articles in every status, newest first. */
export const myArticlesQuery = (userId: number, page: number, size: number) =>
  queryOptions({
    queryKey: [...articleKeys.mine, userId, page, size] as const,
    queryFn: async () => unwrap(await listArticles({ user_id: [userId], page, size, order: 'id desc' })),
  });

/** Whether the member may write articles, and if not why (`GET /api/v1/user/canipublisharticle`). */
export const publishRightQuery = (userId: number) =>
  rightQuery(articleKeys.right(userId), '/api/v1/user/canipublisharticle');

/** FavoriteAPI type 1: the member's favourite row of this article, or `{}` when none. */
export const articleFavoriteQuery = (id: number) =>
  queryOptions({
    queryKey: favoriteKeys.ofArticle(id),
    queryFn: async () =>
      unwrap(await api.get<Favorite>('/api/v1/favorite', { document_id: id, type: FavoriteType.Article })),
  });

/** Adds or removes the favourite; the member's favourites (this one, the lists) go stale. */
export const toggleArticleFavorite = (articleId: number, favoriteId: number | undefined, context: WriteContext) =>
  invalidateAfter<Favorite | Empty>(
    favoriteId
      ? api.delete<Empty>('/api/v1/favorite', { id: [favoriteId] })
      : api.post<Favorite>('/api/v1/favorite', { document_id: articleId, type: FavoriteType.Article }),
    context,
    [favoriteKeys.all],
  );

/** Where an article is read: under its category when the list it comes from has one. */
export function articlePath(article: Pick<Article, 'id' | 'identifier'>, categoryId?: number): string {
  const key = article.identifier || String(article.id ?? '');
  return categoryId ? `/article/${categoryId}/detail/${key}` : `/article/detail/${key}`;
}

const stale = [articleKeys.all, categoryKeys.all];

export const createArticle = (article: Article, context: WriteContext) =>
  invalidateAfter(api.post<Article>('/api/v1/article', article), context, stale);
/** Full replacement of the article's columns (identifier only for admins). */
export const updateArticle = (article: Article, context: WriteContext) =>
  invalidateAfter(api.put<Empty>('/api/v1/article', article), context, stale);
/** To the recycle bin. */
export const deleteArticles = (ids: readonly number[], context: WriteContext) =>
  invalidateAfter(api.delete<Empty>('/api/v1/article', { id: ids }), context, stale);
export const checkArticles = (request: CheckArticlesRequest, context: WriteContext) =>
  invalidateAfter(api.put<Empty>('/api/v1/article/check', request), context, stale);
export const recommendArticles = (ids: readonly number[], recommend: boolean, context: WriteContext) =>
  invalidateAfter(
    api.put<Empty>('/api/v1/article/recommend', { article_id: ids, is_recommend: recommend }),
    context,
    stale,
  );
export const setArticlesCategory = (ids: readonly number[], categoryIds: readonly number[], context: WriteContext) =>
  invalidateAfter(
    api.put<Empty>('/api/v1/article/category', { article_id: ids, category_id: categoryIds }),
    context,
    stale,
  );
export const restoreArticles = (ids: readonly number[], context: WriteContext) =>
  invalidateAfter(api.post<Empty>('/api/v1/article/recycle/restore', { id: ids }), context, stale);
export const purgeArticles = (ids: readonly number[], context: WriteContext) =>
  invalidateAfter(api.delete<Empty>('/api/v1/article/recycle', { id: ids }), context, stale);
export const emptyArticleRecycleBin = (context: WriteContext) =>
  invalidateAfter(api.delete<Empty>('/api/v1/article/recycle/empty'), context, stale);
