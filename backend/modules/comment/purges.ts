import type { Database } from '../../db';
import { TargetType } from '../../../shared/constants';
import type { BackendContext } from '../../platform/context';
import { setCommentCounts } from '../user/service';
import { approvedCountsBy, deleteAllOn } from './store';

// Comments go with the items they are about once those are deleted for good. The article
// module cannot call this module (which reads articles through it): it tells `contentChanges`
// in the transaction of the purge, and the comments are deleted in that transaction.

/** Deletes every comment on these targets and recounts their authors' comments. */
async function deleteCommentsOn(db: Database, type: number, targetIds: readonly number[]): Promise<void> {
  const authors = await deleteAllOn(db, type, targetIds);
  await setCommentCounts(db, await approvedCountsBy(db, authors));
}

/** Listens to the purges of articles; called once per app. */
export function followPurges(app: BackendContext): void {
  app.contentChanges.subscribeInTransaction(async (change, trx) => {
    if (change.purged && change.content === 'article') await deleteCommentsOn(trx, TargetType.Article, change.ids);
  });
}
