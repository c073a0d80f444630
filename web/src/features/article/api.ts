// ArticleAPI (contract: endpoints.md, ArticleAPI; ours in docs/api.md §13): the public lists,
// one article, related articles, and the admin's writes, review and recycle bin. Every write
// marks every article query stale (public lists and pages, admin lists), and the category
// lists, whose counts follow the articles.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Article, CheckArticlesRequest, ListArticleReply, ListArticleRequest, SearchArticleReply } from '../../../../shared/types/article';
import type { Empty } from '../../../../shared/types/common';
import type { Favorite } from '../../../../shared/types/document';
import { api, unwrap } from '../../api/client';
import { invalidateAfter, type WriteContext } from '../../api/query-client';
import { categoryKeys } from '../category/api';

export const ARTICLE_PAGE_SIZE = 10;

export const articleKeys = {
  all: ['article'] as const,
  list: (query: ListArticleRequest) => ['article', 'list', query] as const,
  one: (key: string) => ['article', 'one', key] as const,
  related: (key: string) => ['article', 'related', key] as const,
  search: (wd: string, page: number) => ['article', 'search', wd, page] as const,
  favorite: (id: number) => ['article', 'favorite', id] as const,
  admin: ['article', 'admin'] as const,
  recycle: ['article', 'admin', 'recycle'] as const,
};

export const listArticles = (query: ListArticleRequest) => api.get<ListArticleReply>('/api/v1/article/list', { ...query });
export const listRecycledArticles = (query: ListArticleRequest) => api.get<ListArticleReply>('/api/v1/article/recycle/list', { ...query });

/** A numeric key is an id, anything else an identifier (`about`). */
export function articleKeyQuery(key: string): { id: number } | { identifier: string } {
  return /^[1-9][0-9]*$/.test(key) ? { id: Number(key) } : { identifier: key };
}

export const fetchArticle = (key: string) => api.get<Article>('/api/v1/article', articleKeyQuery(key));

/** One article by id or identifier (`/article/detail/{key}`); the failure (404) is the query's error. */
export const articleQuery = (key: string) =>
  queryOptions({ queryKey: articleKeys.one(key), queryFn: async () => unwrap(await fetchArticle(key)) });

/** A page of published articles; the previous page stays on screen while the next loads. */
export const articleListQuery = (query: ListArticleRequest) =>
  queryOptions({
    queryKey: articleKeys.list(query),
    queryFn: async () => {
      const reply = unwrap(await listArticles(query));
      return { articles: reply.article ?? [], total: reply.total ?? 0 };
    },
    placeholderData: keepPreviousData,
  });

/** Articles that share categories or keywords; none (not an error) when the backend finds none (404). */
export const relatedArticlesQuery = (key: string) =>
  queryOptions({
    queryKey: articleKeys.related(key),
    queryFn: async () => {
      const result = await api.get<ListArticleReply>('/api/v1/article/related', articleKeyQuery(key));
      if (!result.ok && result.status === 404) return [];
      return unwrap(result).article ?? [];
    },
  });

/** Full-text search (10 hits a page, highlighted); the previous page stays while the next loads. */
export const searchArticlesQuery = (wd: string, page: number) =>
  queryOptions({
    queryKey: articleKeys.search(wd, page),
    queryFn: async () => {
      const reply = unwrap(await api.get<SearchArticleReply>('/api/v1/article/search', { wd, page }));
      return { hits: reply.article ?? [], total: reply.total ?? 0, spend: reply.spend ?? '' };
    },
    placeholderData: keepPreviousData,
  });

/** FavoriteAPI type 1: the member's favourite row of this article, or `{}` when none. */
export const articleFavoriteQuery = (id: number) =>
  queryOptions({
    queryKey: articleKeys.favorite(id),
    queryFn: async () => unwrap(await api.get<Favorite>('/api/v1/favorite', { document_id: id, type: 1 })),
  });

const FAVORITE_TYPE_ARTICLE = 1;

/** Adds or removes the favourite; the article (its favourite count) and the favourite itself go stale. */
export const toggleArticleFavorite = (articleId: number, favoriteId: number | undefined, context: WriteContext) =>
  invalidateAfter<Favorite | Empty>(
    favoriteId
      ? api.delete<Empty>('/api/v1/favorite', { id: [favoriteId] })
      : api.post<Favorite>('/api/v1/favorite', { document_id: articleId, type: FAVORITE_TYPE_ARTICLE }),
    context,
    [articleKeys.favorite(articleId)],
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
  invalidateAfter(api.put<Empty>('/api/v1/article/recommend', { article_id: ids, is_recommend: recommend }), context, stale);
export const setArticlesCategory = (ids: readonly number[], categoryIds: readonly number[], context: WriteContext) =>
  invalidateAfter(api.put<Empty>('/api/v1/article/category', { article_id: ids, category_id: categoryIds }), context, stale);
export const restoreArticles = (ids: readonly number[], context: WriteContext) =>
  invalidateAfter(api.post<Empty>('/api/v1/article/recycle/restore', { id: ids }), context, stale);
export const purgeArticles = (ids: readonly number[], context: WriteContext) =>
  invalidateAfter(api.delete<Empty>('/api/v1/article/recycle', { id: ids }), context, stale);
export const emptyArticleRecycleBin = (context: WriteContext) =>
  invalidateAfter(api.delete<Empty>('/api/v1/article/recycle/empty'), context, stale);
