import type { BackendContext } from '../../platform/context';
import { insertSearchRecord, type NewSearchRecord } from './store';

// What other modules may ask of the search-record module: logging a search (documents and
// articles) under the security config's retention.

export { SearchTarget, type NewSearchRecord } from './store';

/** Stores the search unless `security.search_record_retention_days` is 0 (searches not recorded). */
export async function recordSearch(app: BackendContext, record: NewSearchRecord): Promise<void> {
  const retentionDays = (await app.settings.snapshot()).int('security', 'search_record_retention_days');
  if (retentionDays <= 0) return;
  await insertSearchRecord(app.db, { ...record, keywords: [...record.keywords].slice(0, 255).join(''), userAgent: record.userAgent.slice(0, 512) });
}
