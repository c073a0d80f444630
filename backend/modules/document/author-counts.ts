import type { Database } from '../../db';
import { setDocCounts } from '../user/service';
import { visibleDocumentCounts } from './store';

// Members' `doc_count` counts the documents of theirs a visitor can see, as the author card
// under a document says (文档 N 篇): recounted wherever one of theirs is created, converted,
// fails, is reviewed, recycled or restored.
export async function recountAuthors(db: Database, userIds: readonly number[]): Promise<void> {
  await setDocCounts(db, await visibleDocumentCounts(db, userIds));
}
