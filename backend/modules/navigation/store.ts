import { sql, type Insertable } from 'kysely';
import type { Database } from '../../db';
import { like } from '../../db/dialect';
import { now, type NavigationTable } from '../../db/schema';
import { deleteSubtrees, isInSubtree } from '../../db/tree';
import { applyPaging, countOf, likePattern, parseOrder, rowOr404 } from '../../wire/request';

// The `navigation` table: the header menu, a tree through parent_id. Seeded entries are
// `fixed` and survive deletion, with everything below them.

export const NAVIGATION_COLUMNS = [
  'id',
  'title',
  'href',
  'target',
  'color',
  'sort',
  'enable',
  'parent_id',
  'description',
  'created_at',
  'updated_at',
  'fixed',
];

export type NavigationColumns = Omit<Insertable<NavigationTable>, 'id' | 'fixed' | 'created_at' | 'updated_at'>;

export const navigationOr404 = (db: Database, id: number) => rowOr404(db, 'navigation', id, '导航不存在');

export async function findNavigation(db: Database, id: number) {
  return db.selectFrom('navigation').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function navigationExists(db: Database, id: number): Promise<boolean> {
  return (await db.selectFrom('navigation').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** Would hanging `id` under `parentId` make a cycle? */
export const isBelow = (db: Database, parentId: number, id: number) => isInSubtree(db, 'navigation', parentId, id);

export async function insertNavigation(db: Database, columns: NavigationColumns) {
  const ts = now();
  return db
    .insertInto('navigation')
    .values({ ...columns, fixed: 0, created_at: ts, updated_at: ts })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateNavigation(db: Database, id: number, columns: NavigationColumns): Promise<void> {
  await db
    .updateTable('navigation')
    .set({ ...columns, updated_at: now() })
    .where('id', '=', id)
    .execute();
}

/** The entries and all their descendants, except fixed ones (and what hangs below them stays). */
export const deleteNavigations = (db: Database, ids: number[]) => deleteSubtrees(db, 'navigation', ids, 'fixed');

export async function listNavigations(db: Database, filter: { wd: string; order: string; page: number; size: number }) {
  let query = db.selectFrom('navigation');
  if (filter.wd.trim()) {
    const p = likePattern(filter.wd);
    query = query.where((eb) => eb.or([like(db, 'title', p), like(db, 'description', p), like(db, 'href', p)]));
  }
  let rowsQuery = query.selectAll();
  const order = parseOrder(filter.order, NAVIGATION_COLUMNS);
  for (const o of order.length ? order : [{ column: sql.ref('sort'), direction: 'desc' as const }])
    rowsQuery = rowsQuery.orderBy(o.column, o.direction);
  const rows = await applyPaging(rowsQuery.orderBy('id', 'asc'), filter.page, filter.size).execute();
  return { rows, total: await countOf(query) };
}
