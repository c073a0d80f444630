// What the reader asks about the text of a document's pages: where a page's characters are
// (its text layer and find marks) and the lines holding some words (find in the document). The
// server answers both only for the pages this reader may read.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { FindInDocumentReply, PagePositions } from '../../../../shared/types/document';
import { api, unwrap } from '../../api/client';
import { documentKeys } from '../document/api';

export const pageTextKeys = {
  positions: (hash: string, page: number) => [...documentKeys.all, 'positions', hash, page] as const,
  find: (id: number, words: string) => [...documentKeys.all, 'find', id, words] as const,
};

/** Where page `page`'s characters are; null when the document has none kept (converted before, not yet filled in). */
export const pagePositionsQuery = (hash: string, page: number) =>
  queryOptions({
    queryKey: pageTextKeys.positions(hash, page),
    queryFn: async ({ signal }) => {
      const result = await api.get<PagePositions>(`/view/page/${hash}/${page}.json`, undefined, { signal });
      if (!result.ok && result.status === 404) return null;
      return unwrap(result);
    },
    staleTime: Infinity,
    retry: false,
  });

/** The lines of the document holding `words`, by page (the first 500). */
export const findInDocumentQuery = (id: number, words: string) =>
  queryOptions({
    queryKey: pageTextKeys.find(id, words),
    queryFn: async ({ signal }) =>
      unwrap(await api.get<FindInDocumentReply>('/api/v1/document/find', { id, wd: words }, { signal })),
    enabled: words.trim() !== '',
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
  });
