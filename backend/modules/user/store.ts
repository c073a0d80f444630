import type { Kysely, Selectable } from 'kysely';
import type { DB, UserTable } from '../../db/schema';
import { now } from '../../db/schema';
import { badRequest, unavailable } from '../../wire/errors';
import { SUPER_USER_ID } from '../../../shared/permissions';

// Database functions around users, shared by the UserAPI modules and uploads.

export type UserRow = Selectable<UserTable>;
type Tx = Kysely<DB>;

/** Columns of a user visible to everybody (GetUser of another user without permission). */
export const PUBLIC_PROFILE_COLUMNS = [
  'id', 'username', 'avatar', 'signature', 'doc_count', 'follow_count', 'fans_count',
  'favorite_count', 'comment_count', 'credit_count', 'article_count',
] as const;

/** Columns of a user in ListUser without the ListUser permission. */
export const PUBLIC_LIST_COLUMNS = [
  'id', 'username', 'signature', 'avatar', 'realname', 'doc_count', 'follow_count', 'fans_count',
  'favorite_count', 'comment_count', 'created_at', 'updated_at', 'login_at', 'credit_count',
] as const;

export const USER_COLUMNS = [
  'id', 'username', 'mobile', 'email', 'address', 'signature', 'last_login_ip', 'register_ip',
  'doc_count', 'follow_count', 'fans_count', 'favorite_count', 'comment_count', 'avatar', 'identity',
  'realname', 'credit_count', 'article_count', 'remark', 'login_at', 'created_at', 'updated_at',
] as const;

/** The row without its password hash. */
export function withoutPassword(row: UserRow): Omit<UserRow, 'password'> {
  const { password: _password, ...rest } = row;
  return rest;
}

export async function findUserByUsername(db: Tx, username: string): Promise<UserRow | undefined> {
  return db.selectFrom('user').selectAll().where('username', '=', username).executeTakeFirst();
}

export async function emailTaken(db: Tx, email: string, exceptUserId = 0): Promise<boolean> {
  if (!email) return false;
  const row = await db.selectFrom('user').select('id').where('email', '=', email).where('id', '!=', exceptUserId).executeTakeFirst();
  return row !== undefined;
}

export async function defaultGroupId(db: Tx): Promise<number> {
  const row = await db.selectFrom('group').select('id').where('is_default', '=', 1).orderBy('id').executeTakeFirst();
  if (!row) throw unavailable('请联系管理员设置系统默认用户组');
  return row.id;
}

export async function assertGroupsExist(db: Tx, groupIds: number[]): Promise<void> {
  if (!groupIds.length) throw badRequest('用户组不能为空');
  const rows = await db.selectFrom('group').select('id').where('id', 'in', groupIds).execute();
  if (rows.length !== groupIds.length) throw badRequest('用户组不存在');
}

/** Replaces a user's memberships and keeps every group's user_count right. */
export async function setUserGroups(db: Tx, userId: number, groupIds: number[]): Promise<void> {
  const ts = now();
  const current = (await db.selectFrom('user_group').select('group_id').where('user_id', '=', userId).execute()).map((r) => r.group_id);
  const removed = current.filter((id) => !groupIds.includes(id));
  const added = groupIds.filter((id) => !current.includes(id));
  if (removed.length) {
    await db.deleteFrom('user_group').where('user_id', '=', userId).where('group_id', 'in', removed).execute();
  }
  if (added.length) {
    await db.insertInto('user_group').values(added.map((group_id) => ({ user_id: userId, group_id, created_at: ts, updated_at: ts }))).execute();
  }
  await refreshGroupCounts(db, [...removed, ...added]);
}

export async function refreshGroupCounts(db: Tx, groupIds: number[]): Promise<void> {
  for (const id of new Set(groupIds)) {
    const { n } = await db.selectFrom('user_group').select((eb) => eb.fn.countAll<number>().as('n')).where('group_id', '=', id).executeTakeFirstOrThrow();
    await db.updateTable('group').set({ user_count: Number(n) }).where('id', '=', id).execute();
  }
}

export async function groupIdsOf(db: Tx, userIds: number[]): Promise<Map<number, number[]>> {
  const map = new Map<number, number[]>();
  if (!userIds.length) return map;
  const rows = await db.selectFrom('user_group').select(['user_id', 'group_id']).where('user_id', 'in', userIds).orderBy('group_id').execute();
  for (const r of rows) map.set(r.user_id, [...(map.get(r.user_id) ?? []), r.group_id]);
  return map;
}

/** Dynamic (activity) types, endpoints.md §5.8. */
export const DynamicType = {
  Comment: 1, Favorite: 2, Upload: 3, Download: 4, Login: 5, Register: 6, Avatar: 7, Password: 8,
  Profile: 9, Identity: 10, Sign: 11, Share: 12, Follow: 13, DeleteDocument: 14,
} as const;

export async function addDynamic(db: Tx, userId: number, type: number, content: string): Promise<void> {
  const ts = now();
  await db.insertInto('dynamic').values({ user_id: userId, type, content, created_at: ts, updated_at: ts }).execute();
}

/** Punishment types currently active for a user (user 1 is never punished). */
export async function activePunishments(db: Tx, userId: number): Promise<Set<number>> {
  if (userId === SUPER_USER_ID) return new Set();
  const rows = await db.selectFrom('punishment').select('type')
    .where('user_id', '=', userId).where('enable', '=', 1)
    .where((eb) => eb.or([eb('end_time', 'is', null), eb('end_time', '>', now())]))
    .execute();
  return new Set(rows.map((r) => r.type));
}

/** Does any of the user's groups have this feature flag on? */
export async function groupAllows(db: Tx, userId: number, flag: 'enable_upload' | 'enable_article' | 'enable_comment'): Promise<boolean> {
  const row = await db.selectFrom('user_group as ug').innerJoin('group as g', 'g.id', 'ug.group_id')
    .select('g.id').where('ug.user_id', '=', userId).where(`g.${flag}`, '=', 1).executeTakeFirst();
  return row !== undefined;
}
/** Local calendar date as the integer YYYYMMDD (MOREDOC's sign-in key). */
export function localDateKey(date = new Date()): number {
  return date.getFullYear() * 10000 + (date.getMonth() + 1) * 100 + date.getDate();
}

