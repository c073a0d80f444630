import type { Database } from './index';

// The tables whose rows go to a recycle bin (`deleted_at` set) before they are purged:
// documents and articles. A row outside it is live, whatever its status.

/** The tables with a recycle bin. */
type RecycledTable = 'document' | 'article';

/** Does any of these users own a row of `table` outside the recycle bin, in any status (DeleteUser refuses them)? */
export async function ownsLiveRows(db: Database, table: RecycledTable, userIds: readonly number[]): Promise<boolean> {
  if (!userIds.length) return false;
  const row = await db
    .selectFrom(table)
    .select('id')
    .where('user_id', 'in', [...userIds])
    .where('deleted_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
