import type { Database } from '../../db';
import { lockRows } from '../../db/dialect';
import { setDocCounts } from '../user/service';
import { visibleDocumentCounts } from './store';

// Members' `doc_count` counts the documents of theirs a visitor can see, as the author card
// under a document says (文档 N 篇): recounted wherever one of theirs is created, converted,
// fails, is reviewed, recycled or restored.
// Counted, then written: inside a transaction the members' rows are locked first (on
// PostgreSQL two changes at once would otherwise each write a count missing the other).
export async function recountAuthors(db: Database, userIds: readonly number[]): Promise<void> {
  if (db.isTransaction) await lockRows(db, 'user', userIds);
  await setDocCounts(db, await visibleDocumentCounts(db, userIds));
}
