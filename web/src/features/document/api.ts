import { latestDocumentsCall } from '../../../../shared/page-data';
import type { Document } from '../../../../shared/types/document';
import { callQuery } from '../../api/call-query';

/** The newest readable documents; none (not an error) while the document service has none to give. */
export const latestDocumentsQuery = (limit = 12) => callQuery(latestDocumentsCall(limit), { whenMissing: [] });

/** The document's page: `/library/{category}/{id}` under its deepest category. */
export function documentPath(doc: Document): string | undefined {
  const categories = doc.category_id ?? [];
  const category = categories[categories.length - 1];
  return doc.id && category ? `/library/${category}/${doc.id}` : undefined;
}
