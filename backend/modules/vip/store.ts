import type { Insertable, Selectable } from 'kysely';
import type { Database } from '../../db';
import type { UserVipTable, VipLogTable } from '../../db/schema';
import { applyPaging, countOf } from '../../wire/request';

// The `user_vip` table (a member's current period; an `end_at` in the past is an expired
// one) and `vip_log` (every change of a period, with who made it and why).

export type UserVipRow = Selectable<UserVipTable>;

export async function findVip(db: Database, userId: number): Promise<UserVipRow | undefined> {
  return db.selectFrom('user_vip').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export async function vipsOf(db: Database, userIds: number[]): Promise<UserVipRow[]> {
  return userIds.length
    ? db
        .selectFrom('user_vip')
        .selectAll()
        .where('user_id', 'in', [...new Set(userIds)])
        .execute()
    : [];
}

/** `at`: the database's now (period.ts), the change's updated_at. */
export async function saveVip(
  db: Database,
  row: Omit<UserVipRow, 'created_at' | 'updated_at'>,
  at: string,
): Promise<void> {
  await db
    .insertInto('user_vip')
    .values({ ...row, created_at: at, updated_at: at })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({
        plan_code: row.plan_code,
        plan_title: row.plan_title,
        start_at: row.start_at,
        end_at: row.end_at,
        updated_at: at,
      }),
    )
    .execute();
}

export async function insertVipLog(
  db: Database,
  log: Omit<Insertable<VipLogTable>, 'id' | 'created_at'>,
  at: string,
): Promise<void> {
  await db
    .insertInto('vip_log')
    .values({ ...log, created_at: at })
    .execute();
}

/**
 * Members with a period, newest change first. `active`: [true] current, [false] expired, [] both,
 * at `at` (the database's now, as every VIP time).
 */
export async function listVips(
  db: Database,
  filter: { userIds: number[] | null; active: boolean[]; at: Date; page: number; size: number },
) {
  let query = db.selectFrom('user_vip');
  if (filter.userIds)
    query = filter.userIds.length ? query.where('user_id', 'in', filter.userIds) : query.where('user_id', '=', 0);
  if (filter.active.length === 1) query = query.where('end_at', filter.active[0] ? '>' : '<=', filter.at.toISOString());
  const rows = await applyPaging(
    query.selectAll().orderBy('updated_at', 'desc').orderBy('user_id', 'desc'),
    filter.page,
    filter.size,
  ).execute();
  return { rows, total: await countOf(query) };
}

export async function listVipLogs(db: Database, userId: number, page: number, size: number) {
  const query = db.selectFrom('vip_log').where('user_id', '=', userId);
  const rows = await applyPaging(query.selectAll().orderBy('id', 'desc'), page, size).execute();
  return { rows, total: await countOf(query) };
}
