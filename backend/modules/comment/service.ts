// What other modules may ask of the comment module: removing the comments of items that are
// deleted for good (their authors' counters follow), and the count of the dashboard.
import type { Database } from '../../db';
import { setCommentCounts } from '../user/service';
import { approvedCountsBy, deleteAllOn } from './store';

export { countComments } from './store';

/** Deletes every comment on these targets and recounts their authors' comments. */
export async function deleteCommentsOn(db: Database, type: number, targetIds: readonly number[]): Promise<void> {
  const authors = await deleteAllOn(db, type, targetIds);
  await setCommentCounts(db, await approvedCountsBy(db, authors));
}
