import type { Database } from '../../db';
import { lockRows } from '../../db/dialect';
import { recountCategories } from '../category/service';
import { setDocCounts } from '../user/service';
import { listedDocumentCounts } from './store';

// The counts visitors see count the documents they can list (store.ts `listedDocuments`:
// converted, outside the recycle bin; docs/api.md "Counts visitors see"): a member's
// `doc_count` (the author card's 文档 N 篇) and each document category's `doc_count` (the home
// page's categories). Both are recounted wherever a document may enter or leave the lists: it is
// created, converted, fails, is reviewed or disabled, sent to the converter again, recycled,
// restored or purged; the categories also when documents are filed elsewhere.
// Counted, then written: inside a transaction the members' rows are locked first (on
// PostgreSQL two changes at once would otherwise each write a count missing the other), then
// the categories' recount takes its turn (a lock after the users', as every recount takes it).
export async function recountListed(db: Database, userIds: readonly number[]): Promise<void> {
  if (db.isTransaction) await lockRows(db, 'user', userIds);
  await recountCategories(db, 0);
  await setDocCounts(db, await listedDocumentCounts(db, userIds));
}
