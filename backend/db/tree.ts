import { sql } from 'kysely';
import type { Database } from './index';
import type { DB } from './schema';

// The tables that hang together through `parent_id` (categories, navigation): cycle checks
// and deleting whole branches, in SQL so that a deep tree costs one statement.

/** The tables that form a tree through `parent_id`. */
type TreeTable = 'category' | 'navigation';

/** Whether `id` is `rootId` or lies below it in the tree (moving `rootId` under `id` would make a cycle). */
export async function isInSubtree(db: Database, table: TreeTable, id: number, rootId: number): Promise<boolean> {
  // The start is cast: PostgreSQL would take a bare parameter for text, the table's ids for BIGINT.
  const { rows } = await sql<{ id: number }>`WITH RECURSIVE up(id) AS (SELECT CAST(${id} AS BIGINT)
    UNION SELECT t.parent_id FROM ${sql.table(table)} t JOIN up ON t.id = up.id WHERE t.parent_id > 0) SELECT id FROM up`.execute(
    db,
  );
  return rows.some((r) => r.id === rootId);
}

/**
 * Deletes the rows `ids` and all their descendants, except the rows whose `keep` column is
 * non-zero: those stay, and so does everything below them.
 */
export async function deleteSubtrees<T extends TreeTable>(
  db: Database,
  table: T,
  ids: readonly number[],
  keep: keyof DB[T] & string,
): Promise<void> {
  await sql`WITH RECURSIVE doomed(id) AS (SELECT id FROM ${sql.table(table)} WHERE id IN (${sql.join(ids)}) AND ${sql.ref(keep)} = 0
    UNION SELECT t.id FROM ${sql.table(table)} t JOIN doomed d ON t.parent_id = d.id WHERE ${sql.ref(`t.${keep}`)} = 0)
    DELETE FROM ${sql.table(table)} WHERE id IN (SELECT id FROM doomed)`.execute(db);
}
