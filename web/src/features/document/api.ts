import { latestDocumentsCall } from '../../../../shared/page-data';
import { documentPagePath } from '../../../../shared/page-paths';
import type { Document } from '../../../../shared/types/document';
import { callQuery } from '../../api/call-query';

/** The newest readable documents; none (not an error) while the document service has none to give. */
export const latestDocumentsQuery = (limit = 12) => callQuery(latestDocumentsCall(limit), { whenMissing: [] });

/** The document's page: `/library/{category}/{id}` under its last category. */
export const documentPath = (doc: Document): string | undefined => documentPagePath(doc);
