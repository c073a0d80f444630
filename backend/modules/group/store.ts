import type { Insertable } from 'kysely';
import type { Database } from '../../db';
import { like, lockRows } from '../../db/dialect';
import { now, type GroupTable } from '../../db/schema';
import { badRequest, unavailable } from '../../wire/errors';
import { applyPaging, countOf, likePattern, rowOr404 } from '../../wire/request';

// The tables of the group module: `group` (roles and their feature flags), `user_group`
// (memberships, with each group's user_count kept right) and `group_permission` (grants).

export type GroupColumns = Omit<Insertable<GroupTable>, 'id' | 'user_count' | 'created_at' | 'updated_at'>;
export type FeatureFlag = 'enable_upload' | 'enable_article' | 'enable_comment';

export async function groupOr404(db: Database, id: number) {
  if (id <= 0) throw badRequest('请选择用户组（参数 id）');
  return rowOr404(db, 'group', id, '用户组不存在');
}

export async function findGroup(db: Database, id: number) {
  return db.selectFrom('group').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertGroup(db: Database, columns: GroupColumns) {
  const ts = now();
  return db
    .insertInto('group')
    .values({ ...columns, created_at: ts, updated_at: ts })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateGroup(db: Database, id: number, columns: GroupColumns): Promise<void> {
  await db
    .updateTable('group')
    .set({ ...columns, updated_at: now() })
    .where('id', '=', id)
    .execute();
}

/** Takes the default flag off every group but `keepId`. */
export async function clearDefaultFlag(db: Database, keepId = 0): Promise<void> {
  await db.updateTable('group').set({ is_default: 0 }).where('id', '!=', keepId).execute();
}

export async function otherDefaultExists(db: Database, id: number): Promise<boolean> {
  const other = await db
    .selectFrom('group')
    .select('id')
    .where('is_default', '=', 1)
    .where('id', '!=', id)
    .executeTakeFirst();
  return other !== undefined;
}

/** Is any of `ids` the default group or a group with members? */
export async function anyInUse(db: Database, ids: number[]): Promise<boolean> {
  const blocked = await db
    .selectFrom('group')
    .select('id')
    .where('id', 'in', ids)
    .where((eb) =>
      eb.or([
        eb('is_default', '=', 1),
        eb('user_count', '>', 0),
        eb.exists(eb.selectFrom('user_group').select('id').whereRef('user_group.group_id', '=', 'group.id')),
      ]),
    )
    .executeTakeFirst();
  return blocked !== undefined;
}

export async function deleteGroups(db: Database, ids: number[]): Promise<void> {
  await db.deleteFrom('group').where('id', 'in', ids).execute();
}

export async function listGroups(db: Database, filter: { wd: string; page: number; size: number }) {
  let query = db.selectFrom('group');
  if (filter.wd.trim()) query = query.where(like(db, 'title', likePattern(filter.wd)));
  const rows = await applyPaging(
    query.selectAll().orderBy('sort', 'desc').orderBy('id', 'asc'),
    filter.page,
    filter.size,
  ).execute();
  return { rows, total: await countOf(query) };
}

export async function grantedPermissionIds(db: Database, groupId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('group_permission')
    .select('permission_id')
    .where('group_id', '=', groupId)
    .orderBy('permission_id')
    .execute();
  return rows.map((r) => r.permission_id);
}

/** The permission rows the groups grant, together. */
export async function permissionIdsOfGroups(db: Database, groupIds: readonly number[]): Promise<number[]> {
  if (!groupIds.length) return [];
  const rows = await db
    .selectFrom('group_permission')
    .select('permission_id')
    .distinct()
    .where('group_id', 'in', [...groupIds])
    .execute();
  return rows.map((r) => r.permission_id);
}

/** Replaces the group's grants. */
export async function setGrants(db: Database, groupId: number, permissionIds: number[]): Promise<void> {
  const ts = now();
  await db.deleteFrom('group_permission').where('group_id', '=', groupId).execute();
  if (permissionIds.length) {
    await db
      .insertInto('group_permission')
      .values(
        permissionIds.map((permission_id) => ({ group_id: groupId, permission_id, created_at: ts, updated_at: ts })),
      )
      .execute();
  }
}

export async function defaultGroupId(db: Database): Promise<number> {
  const row = await db.selectFrom('group').select('id').where('is_default', '=', 1).orderBy('id').executeTakeFirst();
  if (!row) throw unavailable('请联系管理员设置系统默认用户组');
  return row.id;
}

/** Whether the group new members join has a feature (false when no group is the default). */
export async function defaultGroupAllows(db: Database, flag: FeatureFlag): Promise<boolean> {
  const row = await db
    .selectFrom('group')
    .select('id')
    .where('is_default', '=', 1)
    .where(flag, '=', 1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The oldest group: the super administrators' group the seed creates first. */
export async function firstGroupId(db: Database): Promise<number> {
  return (await db.selectFrom('group').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow()).id;
}

export async function assertGroupsExist(db: Database, groupIds: number[]): Promise<void> {
  if (!groupIds.length) throw badRequest('用户组不能为空');
  const rows = await db.selectFrom('group').select('id').where('id', 'in', groupIds).execute();
  if (rows.length !== groupIds.length) throw badRequest('用户组不存在');
}

/** Replaces a user's memberships and keeps every group's user_count right. */
export async function setUserGroups(db: Database, userId: number, groupIds: number[]): Promise<void> {
  // Read, then written: changes of one user's memberships take turns.
  await lockRows(db, 'user', [userId]);
  const ts = now();
  const current = (await db.selectFrom('user_group').select('group_id').where('user_id', '=', userId).execute()).map(
    (r) => r.group_id,
  );
  const removed = current.filter((id) => !groupIds.includes(id));
  const added = groupIds.filter((id) => !current.includes(id));
  if (removed.length) {
    await db.deleteFrom('user_group').where('user_id', '=', userId).where('group_id', 'in', removed).execute();
  }
  if (added.length) {
    await db
      .insertInto('user_group')
      .values(added.map((group_id) => ({ user_id: userId, group_id, created_at: ts, updated_at: ts })))
      .execute();
  }
  await refreshGroupCounts(db, [...removed, ...added]);
}

export async function refreshGroupCounts(db: Database, groupIds: number[]): Promise<void> {
  await lockRows(db, 'group', groupIds);
  for (const id of new Set(groupIds)) {
    const { n } = await db
      .selectFrom('user_group')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('group_id', '=', id)
      .executeTakeFirstOrThrow();
    await db
      .updateTable('group')
      .set({ user_count: Number(n) })
      .where('id', '=', id)
      .execute();
  }
}

export async function groupIdsOf(db: Database, userIds: number[]): Promise<Map<number, number[]>> {
  const map = new Map<number, number[]>();
  if (!userIds.length) return map;
  const rows = await db
    .selectFrom('user_group')
    .select(['user_id', 'group_id'])
    .where('user_id', 'in', userIds)
    .orderBy('group_id')
    .execute();
  for (const r of rows) map.set(r.user_id, [...(map.get(r.user_id) ?? []), r.group_id]);
  return map;
}

/** The ids of the members of any of `groupIds`, as a subquery (`where('id', 'in', …)`). */
export function memberIds(db: Database, groupIds: number[]) {
  return db.selectFrom('user_group').select('user_id').where('group_id', 'in', groupIds);
}

export async function groupsOfUser(db: Database, userId: number) {
  return db
    .selectFrom('group as g')
    .innerJoin('user_group as ug', 'ug.group_id', 'g.id')
    .selectAll('g')
    .where('ug.user_id', '=', userId)
    .orderBy('g.id')
    .execute();
}

/** Does any of the user's groups have this feature flag on? */
export async function groupAllows(db: Database, userId: number, flag: FeatureFlag): Promise<boolean> {
  const row = await db
    .selectFrom('user_group as ug')
    .innerJoin('group as g', 'g.id', 'ug.group_id')
    .select('g.id')
    .where('ug.user_id', '=', userId)
    .where(`g.${flag}`, '=', 1)
    .executeTakeFirst();
  return row !== undefined;
}
