import type { Insertable } from 'kysely';
import type { Database } from '../../db';
import { databaseNowText, like } from '../../db/dialect';
import { now, type AdvertisementTable } from '../../db/schema';
import { applyPaging, countOf, likePattern } from '../../wire/request';

// The `advertisement` table: the ads of the slots of docs/product.md §9.

export type AdvertisementColumns = Omit<Insertable<AdvertisementTable>, 'id' | 'user_id' | 'created_at' | 'updated_at'>;

export async function insertAdvertisement(db: Database, userId: number, columns: AdvertisementColumns) {
  const ts = now();
  return db
    .insertInto('advertisement')
    .values({ ...columns, user_id: userId, created_at: ts, updated_at: ts })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** false when there is no such advertisement. */
export async function updateAdvertisement(db: Database, id: number, columns: AdvertisementColumns): Promise<boolean> {
  const result = await db
    .updateTable('advertisement')
    .set({ ...columns, updated_at: now() })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteAdvertisements(db: Database, ids: number[]): Promise<void> {
  await db.deleteFrom('advertisement').where('id', 'in', ids).execute();
}

export const findAdvertisement = (db: Database, id: number) =>
  db.selectFrom('advertisement').selectAll().where('id', '=', id).executeTakeFirst();

export async function listAdvertisements(
  db: Database,
  filter: { positions: string[]; enable: number[]; wd: string; page: number; size: number },
) {
  let query = db.selectFrom('advertisement');
  if (filter.positions.length) query = query.where('position', 'in', filter.positions);
  if (filter.enable.length) query = query.where('enable', 'in', filter.enable);
  if (filter.wd.trim()) {
    const p = likePattern(filter.wd);
    query = query.where((eb) => eb.or([like(db, 'title', p), like(db, 'content', p), like(db, 'remark', p)]));
  }
  const rows = await applyPaging(query.selectAll().orderBy('id', 'desc'), filter.page, filter.size).execute();
  return { rows, total: await countOf(query) };
}

/**
 * Enabled ads of these positions (all when none) whose time has come and not passed by the
 * database's clock: every machine starts and ends an ad at the same moment.
 */
export function liveAdvertisements(db: Database, positions: string[]) {
  let query = db
    .selectFrom('advertisement')
    .selectAll()
    .where('enable', '=', 1)
    .where('start_time', '<=', databaseNowText(db))
    .where('end_time', '>=', databaseNowText(db));
  if (positions.length) query = query.where('position', 'in', positions);
  return query.orderBy('id', 'desc').execute();
}
