import { VIP_PLAN_MAX_DAYS, VipAction } from '../../../shared/vip';
import { databaseNow, lockRows } from '../../db/dialect';
import { badRequest } from '../../wire/errors';
import { checkText, positiveIds, requireIds } from '../../wire/request';
import { assertHoldsNoMore } from '../../platform/auth/session';
import { defineService, rpc } from '../../platform/rpc';
import { existingUserIds, userIdsMatching, usernamesOf } from '../user/service';
import {
  GrantUserVipRequest,
  ListUserVipLogReply,
  ListUserVipLogRequest,
  ListUserVipReply,
  ListUserVipRequest,
  RevokeUserVipRequest,
  UserVip,
} from '../../../shared/messages/vip';
import { extendVip, revokeVip } from './period';
import { tell, vipGranted, vipRevoked } from '../message/service';
import { listVipLogs, listVips, type UserVipRow } from './store';

// UserVipAPI (ours, docs/api.md §9): a member reads their own VIP period; admins list the
// members who have or had one, grant or extend it, and revoke it, each with a reason kept.

/** `status` filter of ListUserVip: 1 active, 2 expired. */
const VipStatus = { Active: 1, Expired: 2 } as const;

/** A limited admin grants or revokes no VIP period of an account holding more than they do (decision 089). */
const CHANGING_VIP = '变更其会员';

function reasonOf(value: string): string {
  return checkText(value.trim(), '原因', { required: true, max: 255, multiline: true });
}

/** `at`: the database's now, as every VIP time (period.ts). */
function userVipOf(row: UserVipRow, username: string, at: Date) {
  return { ...row, username, active: Date.parse(row.end_at) > at.getTime() };
}

export const vipService = defineService('UserVipAPI', [
  rpc('GetUserVip', {
    http: 'GET /api/v1/vip',
    response: UserVip,
    auth: 'login',
    input: 'none',
    async handler(_req, ctx) {
      const me = ctx.requireUser();
      const at = await databaseNow(ctx.db);
      const { rows } = await listVips(ctx.db, { userIds: [me.id], active: [], at, page: 1, size: 1 });
      const username = (await usernamesOf(ctx.db, [me.id])).get(me.id) ?? '';
      return rows[0] ? userVipOf(rows[0], username, at) : { user_id: me.id, username, active: false };
    },
  }),

  rpc('ListUserVip', {
    http: 'GET /api/v1/vip/list',
    request: ListUserVipRequest,
    response: ListUserVipReply,
    auth: 'perm',
    permission: '获取会员列表',
    async handler(req, ctx) {
      let userIds: number[] | null = positiveIds(req.user_id);
      if (!userIds.length) userIds = null;
      if (req.wd.trim()) {
        const matching = await userIdsMatching(ctx.db, req.wd);
        userIds = userIds ? userIds.filter((id) => matching.includes(id)) : matching;
      }
      const statuses = new Set(req.status);
      const active = [
        ...(statuses.has(VipStatus.Active) ? [true] : []),
        ...(statuses.has(VipStatus.Expired) ? [false] : []),
      ];
      const at = await databaseNow(ctx.db);
      const { rows, total } = await listVips(ctx.db, {
        userIds,
        active,
        at,
        page: req.page,
        size: req.size > 0 ? Math.min(req.size, 100) : 10,
      });
      const names = await usernamesOf(
        ctx.db,
        rows.map((r) => r.user_id),
      );
      return { total, user_vip: rows.map((row) => userVipOf(row, names.get(row.user_id) ?? '', at)) };
    },
  }),

  rpc('GrantUserVip', {
    http: 'POST /api/v1/vip/grant',
    request: GrantUserVipRequest,
    auth: 'perm',
    permission: '开通或延长会员',
    async handler(req, ctx) {
      const admin = ctx.requireUser();
      const userIds = positiveIds(req.user_id);
      if (!userIds.length) throw badRequest('请选择用户');
      if (!Number.isInteger(req.days) || req.days < 1 || req.days > VIP_PLAN_MAX_DAYS)
        throw badRequest(`天数须为 1 到 ${VIP_PLAN_MAX_DAYS} 的整数`);
      const reason = reasonOf(req.reason);
      if ((await existingUserIds(ctx.db, userIds)).length !== userIds.length) throw badRequest('用户不存在');
      for (const id of userIds) await assertHoldsNoMore(ctx.db, admin.id, id, CHANGING_VIP);
      const names = await usernamesOf(ctx.db, userIds);
      // One member whose period would end past VIP_END_MAX refuses the grant for all (400).
      await ctx.db.transaction().execute(async (trx) => {
        await lockRows(trx, 'user', userIds);
        for (const userId of userIds) {
          const added = await extendVip(trx, userId, req.days, {
            action: VipAction.Grant,
            operatorId: admin.id,
            reason,
            member: names.get(userId) ?? String(userId),
          });
          // The member is told, in the transaction: a grant refused for another member (400) tells nobody.
          await tell(trx, [vipGranted(userId, req.days, added.until, added.extended)]);
        }
      });
      return {};
    },
  }),

  rpc('RevokeUserVip', {
    http: 'PUT /api/v1/vip/revoke',
    request: RevokeUserVipRequest,
    auth: 'perm',
    permission: '取消会员',
    async handler(req, ctx) {
      const admin = ctx.requireUser();
      const userIds = requireIds(req.user_id, '会员');
      const reason = reasonOf(req.reason);
      for (const id of userIds) await assertHoldsNoMore(ctx.db, admin.id, id, CHANGING_VIP);
      await ctx.db.transaction().execute(async (trx) => {
        await lockRows(trx, 'user', userIds);
        for (const userId of userIds)
          if (await revokeVip(trx, userId, { action: VipAction.Revoke, operatorId: admin.id, reason }))
            await tell(trx, [vipRevoked(userId)]);
      });
      return {};
    },
  }),

  rpc('ListUserVipLog', {
    http: 'GET /api/v1/vip/log',
    request: ListUserVipLogRequest,
    response: ListUserVipLogReply,
    auth: 'perm',
    permission: '查看会员变更记录',
    async handler(req, ctx) {
      if (req.user_id <= 0) throw badRequest('请选择会员（参数 user_id）');
      const { rows, total } = await listVipLogs(
        ctx.db,
        req.user_id,
        req.page,
        req.size > 0 ? Math.min(req.size, 100) : 10,
      );
      const names = await usernamesOf(
        ctx.db,
        rows.map((r) => r.operator_id).filter((id) => id > 0),
      );
      return {
        total,
        log: rows.map((row) => ({
          ...row,
          operator: row.operator_id ? (names.get(row.operator_id) ?? `用户 ${row.operator_id}`) : '',
        })),
      };
    },
  }),
]);
