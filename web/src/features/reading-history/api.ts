// 最近阅读 (ours, docs/api.md): the member's reading positions as a history, and clearing them.
// Clearing also marks stale the reader's saved positions (its 继续阅读 offer reads them).
import { queryOptions } from '@tanstack/react-query';
import type { Empty } from '../../../../shared/types/common';
import type { ListReadingHistoryReply } from '../../../../shared/types/document';
import { api, unwrap } from '../../api/client';
import { invalidateAfter, type WriteContext } from '../../api/query-client';
import { documentKeys } from '../document/api';
import { userKeys } from '../user/api';

/** Under `userKeys.all`: the member's own, which a sign-out drops. */
export const readingHistoryKeys = {
  all: [...userKeys.all, 'reading-history'] as const,
  list: (page: number, size: number) => [...userKeys.all, 'reading-history', 'list', page, size] as const,
};

/** A page of the member's reading history, newest first. */
export const readingHistoryQuery = (page: number, size: number) =>
  queryOptions({
    queryKey: readingHistoryKeys.list(page, size),
    queryFn: async () =>
      unwrap(await api.get<ListReadingHistoryReply>('/api/v1/document/reading/list', { page, size })),
  });

const stale = [readingHistoryKeys.all, [...documentKeys.all, 'reading']] as const;

/** Forgets where the member read one document. */
export const forgetReading = (documentId: number, context: WriteContext) =>
  invalidateAfter(api.delete<Empty>('/api/v1/document/reading', { document_id: [documentId] }), context, stale);

/** Forgets the member's whole reading history. */
export const clearReadingHistory = (context: WriteContext) =>
  invalidateAfter(api.delete<Empty>('/api/v1/document/reading/all'), context, stale);
