// Document search (DocumentAPI.SearchDocument: full text, with highlighted snippets) and the
// admin's search records (SearchRecordAPI).
import { queryOptions } from '@tanstack/react-query';
import { searchCall } from '../../../../shared/page-data';
import { hasSearchableText } from '../../../../shared/searchable-text';
import type { Empty } from '../../../../shared/types/common';
import type {
  ListSearchRecordReply,
  ListSearchRecordRequest,
  SearchDocumentRequest,
} from '../../../../shared/types/document';
import { callQuery } from '../../api/call-query';
import { api } from '../../api/client';
import { invalidateAfter, type WriteContext } from '../../api/query-client';

export const searchKeys = {
  all: ['search'] as const,
  results: (request: SearchDocumentRequest) => ['search', 'results', request] as const,
  records: ['search', 'records'] as const,
};

/**
 * One page of results (`searchRequest` of shared/page-data.ts), the call the gateway makes for the
 * page it serves; none for words without anything searchable (none, or punctuation alone).
 */
export const searchQuery = (request: SearchDocumentRequest) =>
  queryOptions({ ...callQuery(searchCall(request)), enabled: hasSearchableText(request.wd ?? '') });

export const listSearchRecords = (request: ListSearchRecordRequest) =>
  api.get<ListSearchRecordReply>('/api/v1/searchrecord/list', { ...request });

export const deleteSearchRecords = (ids: readonly number[], context: WriteContext) =>
  invalidateAfter(api.delete<Empty>('/api/v1/searchrecord', { id: ids }), context, [searchKeys.records]);
