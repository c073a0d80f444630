import type { Database } from './index';

// The tables whose rows go to a recycle bin (`deleted_at` set) before they are purged:
// documents and articles. A row outside it is live, whatever its status.

/** The tables with a recycle bin. */
type RecycledTable = 'document' | 'article';

/** Those of these users who own a row of `table` outside the recycle bin, in any status (DeleteUser refuses them). */
export async function ownersOfLiveRows(
  db: Database,
  table: RecycledTable,
  userIds: readonly number[],
): Promise<number[]> {
  if (!userIds.length) return [];
  const rows = await db
    .selectFrom(table)
    .select('user_id')
    .distinct()
    .where('user_id', 'in', [...userIds])
    .where('deleted_at', 'is', null)
    .execute();
  return rows.map((row) => row.user_id);
}
