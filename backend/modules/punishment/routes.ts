import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import type { Database } from '../../db';
import type { PunishmentTable } from '../../db/schema';
import { flag, now } from '../../db/schema';
import { SUPER_USER_ID } from '../../../shared/permissions';
import { badRequest } from '../../wire/errors';
import { message } from '../../wire/message';
import { IdRequest, IdsRequest, Punishment } from '../../wire/messages';
import { defineService, rpc } from '../../platform/rpc';
import { applyPaging, checkText, likePattern, parseOrder, pick, positiveIds, requireIds, rowOr404, selectedFields } from '../../wire/request';

// PunishmentAPI: temporary or permanent restrictions of a user (endpoints.md §5.6).

const CreatePunishmentRequest = message('CreatePunishmentRequest', {
  end_time: 'time', id: 'int64', user_id: 'int64[]', type: 'int32[]', enable: 'bool', remark: 'string', reason: 'string',
});
const ListPunishmentRequest = message('ListPunishmentRequest', {
  page: 'int64', size: 'int64', wd: 'string', field: 'string[]', order: 'string', type: 'int32[]', enable: 'int32[]', user_id: 'int64[]',
});
const ListPunishmentReply = message('ListPunishmentReply', { total: 'int64', punishment: [Punishment] });

const COLUMNS = ['id', 'user_id', 'type', 'enable', 'end_time', 'operators', 'remark', 'reason', 'created_at', 'updated_at'];
const TYPES = [1, 2, 3, 4, 5, 6];
/** `operators` entries: `t` is what the admin did — 1 created, 2 updated, 3 cancelled. */
const Action = { Create: 1, Update: 2, Cancel: 3 } as const;

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
  if (clean.some((t) => !TYPES.includes(t))) throw badRequest('处罚类型必须在1到6之间');
  return clean;
}

function checkEndTime(endTime: Date | null): string | null {
  if (endTime && endTime.getTime() <= Date.now()) throw badRequest('处罚结束时间必须晚于当前时间');
  return endTime ? endTime.toISOString() : null;
}

async function withUsernames(db: Database, rows: Partial<Selectable<PunishmentTable>>[], ids: number[]) {
  const users = ids.length ? await db.selectFrom('user').select(['id', 'username']).where('id', 'in', [...new Set(ids)]).execute() : [];
  const names = new Map(users.map((u) => [u.id, u.username]));
  return rows.map((r, i) => ({ ...r, username: names.get(ids[i]!) ?? '' }));
}

const punishmentOr404 = (db: Database, id: number) => rowOr404(db, 'punishment', id, '处罚记录不存在');

export const punishmentService = defineService('PunishmentAPI', [
  rpc('CreatePunishment', {
    http: 'POST /api/v1/punishment', request: CreatePunishmentRequest, auth: 'perm', permission: '添加用户处罚',
    async handler(req, ctx) {
      const admin = ctx.requireUser();
      const userIds = positiveIds(req.user_id);
      if (!userIds.length) throw badRequest('请选择用户');
      const types = checkTypes(req.type);
      const endTime = checkEndTime(req.end_time);
      const reason = checkText(req.reason, '处罚原因', { max: 255, multiline: true });
      const remark = checkText(req.remark, '备注', { max: 255, multiline: true });
      const found = await ctx.db.selectFrom('user').select('id').where('id', 'in', userIds).execute();
      if (found.length !== userIds.length) throw badRequest('用户不存在');
      const targets = userIds.filter((id) => id !== SUPER_USER_ID); // the super user can never be punished
      await ctx.db.transaction().execute(async (trx) => {
        const ts = now();
        for (const userId of targets) {
          for (const type of types) {
            await trx.insertInto('punishment').values({
              user_id: userId, type, enable: flag(req.enable), end_time: endTime, reason, remark,
              operators: operators('', admin.id, Action.Create), created_at: ts, updated_at: ts,
            }).execute();
          }
        }
      });
      return {};
    },
  }),

  rpc('UpdatePunishment', {
    http: 'PUT /api/v1/punishment', request: Punishment, auth: 'perm', permission: '更新用户处罚',
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
      if (!(await ctx.db.selectFrom('user').select('id').where('id', '=', userId).executeTakeFirst())) throw badRequest('用户不存在');
      await ctx.db.updateTable('punishment').set({
        user_id: userId, type: type!, enable: flag(req.enable), end_time: endTime, reason, remark,
        operators: operators(current.operators, admin.id, Action.Update), updated_at: now(),
      }).where('id', '=', req.id).execute();
      return {};
    },
  }),

  rpc('GetPunishment', {
    http: 'GET /api/v1/punishment', request: IdRequest('GetPunishmentRequest'), response: Punishment, auth: 'perm', permission: '获取单个处罚信息',
    async handler(req, ctx) {
      const row = await punishmentOr404(ctx.db, req.id);
      return (await withUsernames(ctx.db, [row], [row.user_id]))[0]!;
    },
  }),

  rpc('ListPunishment', {
    http: 'GET /api/v1/punishment/list', request: ListPunishmentRequest, response: ListPunishmentReply, auth: 'perm', permission: '获取用户处罚列表',
    async handler(req, ctx) {
      let query = ctx.db.selectFrom('punishment');
      const userIds = positiveIds(req.user_id);
      if (userIds.length) query = query.where('user_id', 'in', userIds);
      if (req.type.length) query = query.where('type', 'in', [...new Set(req.type)]);
      if (req.enable.length) query = query.where('enable', 'in', [...new Set(req.enable.map((e) => (e ? 1 : 0)))]);
      if (req.wd.trim()) {
        const p = likePattern(req.wd);
        query = query.where((eb) => eb.or([eb('reason', 'like', p), eb('remark', 'like', p)]));
      }
      let rowsQuery = query.selectAll();
      const order = parseOrder(req.order, COLUMNS);
      for (const o of order.length ? order : [{ column: sql.ref('id'), direction: 'desc' as const }]) rowsQuery = rowsQuery.orderBy(o.column, o.direction);
      const rows = await applyPaging(rowsQuery, req.page, req.size).execute();
      const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      const fields = selectedFields(req.field, COLUMNS);
      const punishment = await withUsernames(ctx.db, rows.map((r) => pick(r, fields)), rows.map((r) => r.user_id));
      return { punishment, total: Number(total) };
    },
  }),

  rpc('CancelPunishment', {
    http: 'PUT /api/v1/punishment/cancel', request: IdsRequest('CancelPunishmentRequest'), auth: 'perm', permission: '取消用户处罚',
    async handler(req, ctx) {
      const admin = ctx.requireUser();
      const ids = requireIds(req.id, '处罚记录');
      await ctx.db.transaction().execute(async (trx) => {
        const rows = await trx.selectFrom('punishment').select(['id', 'operators']).where('id', 'in', ids).execute();
        const ts = now();
        for (const row of rows) {
          await trx.updateTable('punishment').set({ enable: 0, operators: operators(row.operators, admin.id, Action.Cancel), updated_at: ts })
            .where('id', '=', row.id).execute();
        }
      });
      return {};
    },
  }),
]);
