import type { Insertable } from 'kysely';
import type { Database } from '../../db';
import { likeAny } from '../../db/dialect';
import { now, type FriendlinkTable } from '../../db/schema';
import { countOf, enabledFirstPage, likePattern, rowOr404 } from '../../wire/request';

// The `friendlink` table: the footer's friend links.

export const FRIENDLINK_COLUMNS = ['id', 'title', 'link', 'description', 'sort', 'enable', 'created_at', 'updated_at'];

export type FriendlinkColumns = Omit<Insertable<FriendlinkTable>, 'id' | 'created_at' | 'updated_at'>;

export const friendlinkOr404 = (db: Database, id: number) => rowOr404(db, 'friendlink', id, '友链不存在');

export async function insertFriendlink(db: Database, columns: FriendlinkColumns) {
  const ts = now();
  return db
    .insertInto('friendlink')
    .values({ ...columns, created_at: ts, updated_at: ts })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateFriendlink(db: Database, id: number, columns: FriendlinkColumns): Promise<void> {
  await db
    .updateTable('friendlink')
    .set({ ...columns, updated_at: now() })
    .where('id', '=', id)
    .execute();
}

export async function deleteFriendlinks(db: Database, ids: number[]): Promise<void> {
  await db.deleteFrom('friendlink').where('id', 'in', ids).execute();
}

export async function listFriendlinks(
  db: Database,
  filter: { enable: number[]; wd: string; page: number; size: number },
) {
  let query = db.selectFrom('friendlink');
  if (filter.enable.length) query = query.where('enable', 'in', filter.enable);
  if (filter.wd.trim()) query = query.where(likeAny(db, ['title', 'description'], likePattern(filter.wd)));
  return enabledFirstPage(query, filter.page, filter.size);
}

export const countFriendlinks = (db: Database) => countOf(db.selectFrom('friendlink'));
