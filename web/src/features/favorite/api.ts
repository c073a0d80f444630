// FavoriteAPI (contract: endpoints.md): a member's favourite documents and articles. Writes
// refresh the member's lists, the reader's favourite state and the document's counter.
import { queryOptions } from '@tanstack/react-query';
import type { Empty } from '../../../../shared/types/common';
import type { Favorite, ListFavoriteReply } from '../../../../shared/types/document';
import { api, unwrap } from '../../api/client';
import { invalidateAfter, type WriteContext } from '../../api/query-client';
import { documentKeys } from '../document/api';

/** FavoriteAPI's `type`: what a favourite's `document_id` is the id of. */
export const FavoriteType = { Document: 0, Article: 1 } as const;
export type FavoriteType = (typeof FavoriteType)[keyof typeof FavoriteType];

const DOCUMENT_TYPE = FavoriteType.Document;

export const favoriteKeys = {
  all: ['favorite'] as const,
  ofDocument: (documentId: number) => ['favorite', 'document', documentId] as const,
  ofArticle: (articleId: number) => ['favorite', 'article', articleId] as const,
  list: (type: FavoriteType, page: number, size: number) => ['favorite', 'list', type, page, size] as const,
};

/** The member's favourite row of a document, or `{}` when it is not one. */
export const favoriteOfDocumentQuery = (documentId: number) =>
  queryOptions({
    queryKey: favoriteKeys.ofDocument(documentId),
    queryFn: async () => unwrap(await api.get<Favorite>('/api/v1/favorite', { document_id: documentId, type: DOCUMENT_TYPE })),
  });

/** The member's favourites of one type, a page at a time. */
export const favoritesQuery = (type: FavoriteType) => (page: number, size: number) =>
  queryOptions({
    queryKey: favoriteKeys.list(type, page, size),
    queryFn: async () => unwrap(await api.get<ListFavoriteReply>('/api/v1/favorite/list', { page, size, type })),
  });

export const addFavorite = (documentId: number, context: WriteContext) =>
  invalidateAfter(api.post<Favorite>('/api/v1/favorite', { document_id: documentId, type: DOCUMENT_TYPE }), context, [
    favoriteKeys.all,
    documentKeys.detail(documentId),
  ]);

export const removeFavorites = (ids: readonly number[], context: WriteContext) =>
  invalidateAfter(api.delete<Empty>('/api/v1/favorite', { id: ids }), context, [favoriteKeys.all, documentKeys.all]);
