import { queryOptions } from '@tanstack/react-query';
import type { Document, ListDocumentReply } from '../../../../shared/types/document';
import { api, unwrap } from '../../api/client';

/** Document status 2 = converted (SPEC §4): what visitors can read. */
const CONVERTED = 2;

const fetchLatestDocuments = (limit: number) =>
  api.get<ListDocumentReply>('/api/v1/document/list', { limit, order: 'id desc', status: [CONVERTED] });

/** The newest readable documents; none (not an error) while the document service has none to give. */
export const latestDocumentsQuery = (limit = 12) =>
  queryOptions({
    queryKey: ['document', 'latest', limit] as const,
    queryFn: async () => {
      const result = await fetchLatestDocuments(limit);
      if (!result.ok && result.status === 404) return [];
      return unwrap(result).document ?? [];
    },
  });

/** The document's page: `/library/{category}/{id}` under its deepest category. */
export function documentPath(doc: Document): string | undefined {
  const categories = doc.category_id ?? [];
  const category = categories[categories.length - 1];
  return doc.id && category ? `/library/${category}/${doc.id}` : undefined;
}
