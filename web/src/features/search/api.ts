// Document search (DocumentAPI.SearchDocument: full text, with highlighted snippets) and the
// admin's search records (SearchRecordAPI).
import { queryOptions } from '@tanstack/react-query';
import type { Empty } from '../../../../shared/types/common';
import type { ListSearchRecordReply, ListSearchRecordRequest, SearchDocumentReply, SearchDocumentRequest } from '../../../../shared/types/document';
import { api, unwrap } from '../../api/client';
import { invalidateAfter, type WriteContext } from '../../api/query-client';

/** The server answers 10 results a page (contract: SearchDocument). */
export const SEARCH_PAGE_SIZE = 10;

export const searchKeys = {
  all: ['search'] as const,
  results: (request: SearchDocumentRequest) => ['search', 'results', request] as const,
  records: ['search', 'records'] as const,
};

export const searchQuery = (request: SearchDocumentRequest) =>
  queryOptions({
    queryKey: searchKeys.results(request),
    queryFn: async () => unwrap(await api.get<SearchDocumentReply>('/api/v1/document/search', { ...request })),
    enabled: (request.wd ?? '').trim() !== '',
  });

export const listSearchRecords = (request: ListSearchRecordRequest) =>
  api.get<ListSearchRecordReply>('/api/v1/searchrecord/list', { ...request });

export const deleteSearchRecords = (ids: readonly number[], context: WriteContext) =>
  invalidateAfter(api.delete<Empty>('/api/v1/searchrecord', { id: ids }), context, [searchKeys.records]);
