// FavoriteAPI (docs/moredoc.md): a member's favourite documents and articles. Writes
// refresh the member's lists and the reader's favourite state, and change the reader's cached
// document's counter (reading it again would count a view).
import { queryOptions } from '@tanstack/react-query';
import type { Empty } from '../../../../shared/types/common';
import type { Favorite, ListFavoriteReply } from '../../../../shared/types/document';
import { api, unwrap } from '../../api/client';
import { invalidateAfter, type WriteContext } from '../../api/query-client';
import { changeCachedDocument, documentKeys, movedCounter } from '../document/api';
import { userKeys } from '../user/api';

/** FavoriteAPI's `type`: what a favourite's `document_id` is the id of. */
export const FavoriteType = { Document: 0, Article: 1 } as const;
export type FavoriteType = (typeof FavoriteType)[keyof typeof FavoriteType];

const DOCUMENT_TYPE = FavoriteType.Document;

/** Under `userKeys.all`: the member's own, which a sign-out drops. */
export const favoriteKeys = {
  all: [...userKeys.all, 'favorite'] as const,
  ofDocument: (documentId: number) => [...userKeys.all, 'favorite', 'document', documentId] as const,
  ofArticle: (articleId: number) => [...userKeys.all, 'favorite', 'article', articleId] as const,
  list: (type: FavoriteType, page: number, size: number) =>
    [...userKeys.all, 'favorite', 'list', type, page, size] as const,
};

/** The member's favourite row of a document, or `{}` when it is not one. */
export const favoriteOfDocumentQuery = (documentId: number) =>
  queryOptions({
    queryKey: favoriteKeys.ofDocument(documentId),
    queryFn: async () =>
      unwrap(await api.get<Favorite>('/api/v1/favorite', { document_id: documentId, type: DOCUMENT_TYPE })),
  });

/** The member's favourites of one type, a page at a time. */
export const favoritesQuery = (type: FavoriteType) => (page: number, size: number) =>
  queryOptions({
    queryKey: favoriteKeys.list(type, page, size),
    queryFn: async () => unwrap(await api.get<ListFavoriteReply>('/api/v1/favorite/list', { page, size, type })),
  });

/** Adds the document to the member's favourites; the reader's count takes it. */
export async function addFavorite(documentId: number, context: WriteContext) {
  const result = await invalidateAfter(
    api.post<Favorite>('/api/v1/favorite', { document_id: documentId, type: DOCUMENT_TYPE }),
    context,
    [favoriteKeys.all],
  );
  if (result.ok)
    changeCachedDocument(context.client, documentId, (doc) => ({
      favorite_count: movedCounter(doc.favorite_count, 1),
    }));
  return result;
}

/**
 * Removes favourites (documents' or articles'). `documentId`: the reader's document whose
 * favourite it is, whose count follows; without it (the member's list) the documents kept
 * in the cache are marked stale without being read again, each read counting a view.
 */
export async function removeFavorites(ids: readonly number[], context: WriteContext, documentId?: number) {
  const result = await invalidateAfter(api.delete<Empty>('/api/v1/favorite', { id: ids }), context, [favoriteKeys.all]);
  if (!result.ok) return result;
  if (documentId)
    changeCachedDocument(context.client, documentId, (doc) => ({
      favorite_count: movedCounter(doc.favorite_count, -ids.length),
    }));
  else await context.client.invalidateQueries({ queryKey: documentKeys.all, refetchType: 'none' });
  return result;
}
