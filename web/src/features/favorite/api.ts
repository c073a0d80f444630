// FavoriteAPI (contract: endpoints.md): a member's favourite documents. Writes refresh the
// member's list, the reader's favourite state and the document's counter.
import { queryOptions } from '@tanstack/react-query';
import type { Empty } from '../../../../shared/types/common';
import type { Favorite, ListFavoriteReply } from '../../../../shared/types/document';
import { api, unwrap } from '../../api/client';
import { invalidateAfter, type WriteContext } from '../../api/query-client';
import { documentKeys } from '../document/api';

/** Favourites of documents (1 would be articles). */
const DOCUMENT_TYPE = 0;

export const favoriteKeys = {
  all: ['favorite'] as const,
  ofDocument: (documentId: number) => ['favorite', 'document', documentId] as const,
  list: (page: number, size: number) => ['favorite', 'list', page, size] as const,
};

/** The member's favourite row of a document, or `{}` when it is not one. */
export const favoriteOfDocumentQuery = (documentId: number) =>
  queryOptions({
    queryKey: favoriteKeys.ofDocument(documentId),
    queryFn: async () => unwrap(await api.get<Favorite>('/api/v1/favorite', { document_id: documentId, type: DOCUMENT_TYPE })),
  });

export const favoritesQuery = (page: number, size: number) =>
  queryOptions({
    queryKey: favoriteKeys.list(page, size),
    queryFn: async () => unwrap(await api.get<ListFavoriteReply>('/api/v1/favorite/list', { page, size, type: DOCUMENT_TYPE })),
  });

export const addFavorite = (documentId: number, context: WriteContext) =>
  invalidateAfter(api.post<Favorite>('/api/v1/favorite', { document_id: documentId, type: DOCUMENT_TYPE }), context, [
    favoriteKeys.all,
    documentKeys.detail(documentId),
  ]);

export const removeFavorites = (ids: readonly number[], context: WriteContext) =>
  invalidateAfter(api.delete<Empty>('/api/v1/favorite', { id: ids }), context, [favoriteKeys.all, documentKeys.all]);
