import { sql, type Insertable } from 'kysely';
import type { Database } from '../../db';
import { databaseNowText, like } from '../../db/dialect';
import { now, type PunishmentTable } from '../../db/schema';
import { SUPER_USER_ID } from '../../../shared/permissions';
import { applyPaging, countOf, likePattern, parseOrder, rowOr404 } from '../../wire/request';

// The `punishment` table: restrictions of a user, each with its type, end and the history
// of the admins who touched it (`operators`).

export const PUNISHMENT_COLUMNS = [
  'id',
  'user_id',
  'type',
  'enable',
  'end_time',
  'operators',
  'remark',
  'reason',
  'created_at',
  'updated_at',
];

/** Punishment types (docs/moredoc.md §12): a disabled account is barred from everything. */
export const PunishmentType = {
  Disabled: 1,
  NoComment: 2,
  NoUpload: 3,
  NoDownload: 4,
  NoFavorite: 5,
  NoArticle: 6,
} as const;
export type PunishmentType = (typeof PunishmentType)[keyof typeof PunishmentType];

type PunishmentColumns = Omit<Insertable<PunishmentTable>, 'id' | 'created_at' | 'updated_at'>;

export const punishmentOr404 = (db: Database, id: number) => rowOr404(db, 'punishment', id, '处罚记录不存在');

export async function insertPunishments(db: Database, rows: PunishmentColumns[]): Promise<void> {
  const ts = now();
  for (const row of rows)
    await db
      .insertInto('punishment')
      .values({ ...row, created_at: ts, updated_at: ts })
      .execute();
}

export async function updatePunishment(db: Database, id: number, columns: Partial<PunishmentColumns>): Promise<void> {
  await db
    .updateTable('punishment')
    .set({ ...columns, updated_at: now() })
    .where('id', '=', id)
    .execute();
}

export async function operatorsOf(db: Database, ids: number[]) {
  return db.selectFrom('punishment').select(['id', 'operators']).where('id', 'in', ids).execute();
}

export async function listPunishments(
  db: Database,
  filter: {
    userIds: number[];
    types: number[];
    enable: number[];
    wd: string;
    order: string;
    page: number;
    size: number;
  },
) {
  let query = db.selectFrom('punishment');
  if (filter.userIds.length) query = query.where('user_id', 'in', filter.userIds);
  if (filter.types.length) query = query.where('type', 'in', filter.types);
  if (filter.enable.length) query = query.where('enable', 'in', filter.enable);
  if (filter.wd.trim()) {
    const p = likePattern(filter.wd);
    query = query.where((eb) => eb.or([like(db, 'reason', p), like(db, 'remark', p)]));
  }
  let rowsQuery = query.selectAll();
  const order = parseOrder(filter.order, PUNISHMENT_COLUMNS, { nullable: ['end_time'] });
  for (const o of order.length ? order : [{ column: sql.ref('id'), direction: 'desc' as const }])
    rowsQuery = rowsQuery.orderBy(o.column, o.direction);
  const rows = await applyPaging(rowsQuery, filter.page, filter.size).execute();
  return { rows, total: await countOf(query) };
}

/**
 * Punishment types currently active for a user (user 1 is never punished): ended by the database's
 * clock, so that every machine lifts a punishment at the same moment.
 */
async function activePunishments(db: Database, userId: number): Promise<Set<number>> {
  if (userId === SUPER_USER_ID) return new Set();
  const rows = await db
    .selectFrom('punishment')
    .select('type')
    .where('user_id', '=', userId)
    .where('enable', '=', 1)
    .where((eb) => eb.or([eb('end_time', 'is', null), eb('end_time', '>', databaseNowText(db))]))
    .execute();
  return new Set(rows.map((r) => r.type));
}

/** Is the user barred from what `type` forbids, by that punishment or a disabled account? */
export async function isBarred(db: Database, userId: number, type: PunishmentType): Promise<boolean> {
  const active = await activePunishments(db, userId);
  return active.has(PunishmentType.Disabled) || active.has(type);
}

/**
 * Why the user is barred from what `type` forbids (the punishment's reason, '' when it gives
 * none), or null when nothing bars them. A disabled account bars everything.
 */
export async function barReason(db: Database, userId: number, type: PunishmentType): Promise<string | null> {
  if (userId === SUPER_USER_ID) return null;
  const row = await db
    .selectFrom('punishment')
    .select('reason')
    .where('user_id', '=', userId)
    .where('enable', '=', 1)
    .where('type', 'in', [PunishmentType.Disabled, type])
    .where((eb) => eb.or([eb('end_time', 'is', null), eb('end_time', '>', databaseNowText(db))]))
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row ? row.reason : null;
}
