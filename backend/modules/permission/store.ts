import { sql } from 'kysely';
import type { Database } from '../../db';
import { like } from '../../db/dialect';
import { now } from '../../db/schema';
import { applyPaging, countOf, likePattern, rowOr404 } from '../../wire/request';

// The `permission` table: one row per RPC and upload route, created by the seed from the
// route table. Grants live with the groups; who holds what is platform/auth's question.

export const permissionOr404 = (db: Database, id: number) => rowOr404(db, 'permission', id, '权限不存在');

/** Renames a permission; false when there is no such row. */
export async function describePermission(
  db: Database,
  id: number,
  title: string,
  description: string,
): Promise<boolean> {
  const result = await db
    .updateTable('permission')
    .set({ title, description, updated_at: now() })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0;
}

export async function listPermissions(
  db: Database,
  filter: { methods: string[]; wd: string; path: string; page: number; size: number },
) {
  let query = db.selectFrom('permission');
  if (filter.methods.length) query = query.where(sql<string>`upper(method)`, 'in', filter.methods);
  const likes: [string, string][] = [];
  if (filter.wd.trim()) likes.push(['title', likePattern(filter.wd)], ['description', likePattern(filter.wd)]);
  if (filter.path.trim()) likes.push(['path', likePattern(filter.path)]);
  // All LIKE conditions are OR-ed together, as in MOREDOC (docs/moredoc.md §6).
  if (likes.length) query = query.where((eb) => eb.or(likes.map(([c, p]) => like(db, sql.ref(c), p))));
  const rows = await applyPaging(query.selectAll().orderBy('path', 'asc'), filter.page, filter.size).execute();
  return { rows, total: await countOf(query) };
}

/** Do all of these (distinct) ids name permission rows? */
export async function permissionsExist(db: Database, ids: number[]): Promise<boolean> {
  const { n } = await db
    .selectFrom('permission')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('id', 'in', ids)
    .executeTakeFirstOrThrow();
  return Number(n) === ids.length;
}
