import type { Database } from '../../db';
import { flag } from '../../db/schema';
import { databaseNow } from '../../db/dialect';
import { SUPER_USER_ID } from '../../../shared/permissions';
import { badRequest } from '../../wire/errors';
import { IdRequest, IdsRequest } from '../../../shared/messages/common';
import { checkText, pick, positiveIds, requireIds, selectedFields } from '../../wire/request';
import { assertHoldsNoMore } from '../../platform/auth/session';
import { defineService, rpc } from '../../platform/rpc';
import { existingUserIds, usernamesOf } from '../user/service';
import {
  CreatePunishmentRequest,
  ListPunishmentReply,
  ListPunishmentRequest,
  Punishment,
} from '../../../shared/messages/punishment';
import {
  PUNISHMENT_COLUMNS,
  PunishmentType,
  insertPunishments,
  listPunishments,
  operatorsOf,
  punishmentOr404,
  updatePunishment,
} from './store';

// PunishmentAPI: temporary or permanent restrictions of a user (docs/moredoc.md §12).

const TYPES: readonly number[] = Object.values(PunishmentType);
/** `operators` entries: `t` is what the admin did — 1 created, 2 updated, 3 cancelled. */
const Action = { Create: 1, Update: 2, Cancel: 3 } as const;
/** What a limited admin may not do to an account that holds more than they do (decision 089). */
const PUNISHING = '处罚该用户';

function operators(previous: string, adminId: number, action: number): string {
  let list: unknown[] = [];
  try {
    const parsed: unknown = JSON.parse(previous || '[]');
    if (Array.isArray(parsed)) list = parsed;
  } catch {
    list = [];
  }
  return JSON.stringify([...list, { u: adminId, t: action, ts: Math.floor(Date.now() / 1000) }]);
}

function checkTypes(types: number[]): number[] {
  const clean = [...new Set(types)];
  if (!clean.length) throw badRequest('请选择处罚类型');
  if (clean.some((t) => !TYPES.includes(t))) throw badRequest('处罚类型必须在 1 到 6 之间');
  return clean;
}

/** Later than the database's now, which a punishment's end is compared with (punishment/store.ts). */
async function checkEndTime(db: Database, endTime: Date | null): Promise<string | null> {
  if (endTime && endTime.getTime() <= (await databaseNow(db)).getTime())
    throw badRequest('处罚结束时间必须晚于当前时间');
  return endTime ? endTime.toISOString() : null;
}

/** The rows with the `username` of the user each one punishes (`userIds[i]` for `rows[i]`). */
async function withUsernames<T extends object>(db: Database, rows: T[], userIds: number[]) {
  const names = await usernamesOf(db, userIds);
  return rows.map((r, i) => ({ ...r, username: names.get(userIds[i]!) ?? '' }));
}

export const punishmentService = defineService('PunishmentAPI', [
  rpc('CreatePunishment', {
    http: 'POST /api/v1/punishment',
    request: CreatePunishmentRequest,
    auth: 'perm',
    permission: '添加用户处罚',
    async handler(req, ctx) {
      const admin = ctx.requireUser();
      const userIds = positiveIds(req.user_id);
      if (!userIds.length) throw badRequest('请选择用户');
      const types = checkTypes(req.type);
      const endTime = await checkEndTime(ctx.db, req.end_time);
      const reason = checkText(req.reason, '处罚原因', { max: 255, multiline: true });
      const remark = checkText(req.remark, '备注', { max: 255, multiline: true });
      if ((await existingUserIds(ctx.db, userIds)).length !== userIds.length) throw badRequest('用户不存在');
      const targets = userIds.filter((id) => id !== SUPER_USER_ID); // the super user can never be punished
      for (const id of targets) await assertHoldsNoMore(ctx.db, admin.id, id, PUNISHING);
      const rows = targets.flatMap((userId) =>
        types.map((type) => ({
          user_id: userId,
          type,
          enable: flag(req.enable),
          end_time: endTime,
          reason,
          remark,
          operators: operators('', admin.id, Action.Create),
        })),
      );
      await ctx.db.transaction().execute((trx) => insertPunishments(trx, rows));
      return {};
    },
  }),

  rpc('UpdatePunishment', {
    http: 'PUT /api/v1/punishment',
    request: Punishment,
    auth: 'perm',
    permission: '更新用户处罚',
    async handler(req, ctx) {
      const admin = ctx.requireUser();
      if (req.id <= 0) throw badRequest('请选择处罚记录（参数 id）');
      const [type] = checkTypes([req.type]);
      const endTime = req.end_time ? req.end_time.toISOString() : null;
      const reason = checkText(req.reason, '处罚原因', { max: 255, multiline: true });
      const remark = checkText(req.remark, '备注', { max: 255, multiline: true });
      const current = await punishmentOr404(ctx.db, req.id);
      const userId = req.user_id > 0 ? req.user_id : current.user_id;
      if (userId === SUPER_USER_ID) throw badRequest('不能处罚超级管理员');
      if (!(await existingUserIds(ctx.db, [userId])).length) throw badRequest('用户不存在');
      // Neither the punished account nor the one it moves to may hold more than the caller.
      for (const id of new Set([current.user_id, userId])) await assertHoldsNoMore(ctx.db, admin.id, id, PUNISHING);
      await updatePunishment(ctx.db, req.id, {
        user_id: userId,
        type: type!,
        enable: flag(req.enable),
        end_time: endTime,
        reason,
        remark,
        operators: operators(current.operators, admin.id, Action.Update),
      });
      return {};
    },
  }),

  rpc('GetPunishment', {
    http: 'GET /api/v1/punishment',
    request: IdRequest('GetPunishmentRequest'),
    response: Punishment,
    auth: 'perm',
    permission: '获取单个处罚信息',
    async handler(req, ctx) {
      const row = await punishmentOr404(ctx.db, req.id);
      return (await withUsernames(ctx.db, [row], [row.user_id]))[0]!;
    },
  }),

  rpc('ListPunishment', {
    http: 'GET /api/v1/punishment/list',
    request: ListPunishmentRequest,
    response: ListPunishmentReply,
    auth: 'perm',
    permission: '获取用户处罚列表',
    async handler(req, ctx) {
      const { rows, total } = await listPunishments(ctx.db, {
        userIds: positiveIds(req.user_id),
        types: [...new Set(req.type)],
        enable: [...new Set(req.enable.map((e) => (e ? 1 : 0)))],
        wd: req.wd,
        order: req.order,
        page: req.page,
        size: req.size,
      });
      const fields = selectedFields(req.field, PUNISHMENT_COLUMNS);
      const punishment = await withUsernames(
        ctx.db,
        rows.map((r) => pick(r, fields)),
        rows.map((r) => r.user_id),
      );
      return { punishment, total };
    },
  }),

  rpc('CancelPunishment', {
    http: 'PUT /api/v1/punishment/cancel',
    request: IdsRequest('CancelPunishmentRequest'),
    auth: 'perm',
    permission: '取消用户处罚',
    async handler(req, ctx) {
      const admin = ctx.requireUser();
      const ids = requireIds(req.id, '处罚记录');
      await ctx.db.transaction().execute(async (trx) => {
        for (const row of await operatorsOf(trx, ids)) {
          await updatePunishment(trx, row.id, {
            enable: 0,
            operators: operators(row.operators, admin.id, Action.Cancel),
          });
        }
      });
      return {};
    },
  }),
]);
