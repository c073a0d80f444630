import { sql } from 'kysely';
import type { Database } from '../../db';
import { now } from '../../db/schema';
import { hashPassword, verifyPassword } from '../../platform/auth/password';
import { deniedMessage } from '../../platform/auth/session';
import { SUPER_USER_ID, grpcPermissionPath } from '../../../shared/permissions';
import { ApiError, Code, badRequest, conflict, forbidden } from '../../wire/errors';
import { message } from '../../wire/message';
import { User } from '../../wire/messages';
import { rpc } from '../../platform/rpc';
import { checkText, clamp, likePattern, mapUnique, offsetOf, parseOrder, pick, positiveIds, requireIds, rowOr404 } from '../../wire/request';
import { assertValid } from '../../wire/request';
import {
  DynamicType, PUBLIC_LIST_COLUMNS, PUBLIC_PROFILE_COLUMNS, USER_COLUMNS, addDynamic, assertGroupsExist, emailTaken, findUserByUsername, groupIdsOf, refreshGroupCounts, setUserGroups, withoutPassword,
} from './store';
import { emailProblems, passwordProblems, phoneProblems, usernameProblems } from '../../../shared/validation';

// UserAPI: profiles, passwords and the admin's user management.

const GetUserRequest = message('GetUserRequest', { id: 'int64' });
const UpdateUserPasswordRequest = message('UpdateUserPasswordRequest', { id: 'int64', old_password: 'string', new_password: 'string' });
const DeleteUserRequest = message('DeleteUserRequest', { id: 'int64[]', password: 'string' });
const SetUserRequest = message('SetUserRequest', { id: 'int64', username: 'string', password: 'string', group_id: 'int64[]', email: 'string' });
const ListUserRequest = message('ListUserRequest', {
  page: 'int64', size: 'int64', wd: 'string', sort: 'string', id: 'int64[]', group_id: 'int64[]', status: 'int32[]',
  limit: 'int64', field: 'string[]',
});
const ListUserReply = message('ListUserReply', { total: 'int64', user: [User] });

const UPDATE_PASSWORD_PATH = grpcPermissionPath('UserAPI', 'UpdateUserPassword');

const userOr404 = (ctx: { db: Database }, id: number) => rowOr404(ctx.db, 'user', id, '用户不存在');

export const adminRpcs = [
  rpc('GetUser', {
    http: 'GET /api/v1/user', request: GetUserRequest, response: User, auth: 'public', permission: '根据ID查询用户',
    async handler(req, ctx) {
      const id = req.id > 0 ? req.id : ctx.user?.id;
      if (!id) throw badRequest('ID错误');
      const user = withoutPassword(await userOr404(ctx, id));
      const full = ctx.permitted || id === ctx.user?.id;
      return { ...pick(user, full ? null : PUBLIC_PROFILE_COLUMNS), remark: '' };
    },
  }),

  rpc('UpdateUserPassword', {
    http: 'PUT /api/v1/user/password', request: UpdateUserPasswordRequest, auth: 'login', permission: '修改他人密码',
    async handler(req, ctx) {
      const me = ctx.requireUser();
      const targetId = req.id > 0 ? req.id : me.id;
      assertValid(passwordProblems(req.new_password, '新密码'));
      const target = await userOr404(ctx, targetId);
      if (targetId === me.id) {
        if (!(await verifyPassword(req.old_password, target.password))) throw badRequest('原密码不正确');
      } else if (!ctx.permitted) {
        throw forbidden(await deniedMessage(ctx.db, 'GRPC', UPDATE_PASSWORD_PATH));
      }
      const password = await hashPassword(req.new_password, ctx.app.passwordCost);
      await ctx.db.transaction().execute(async (trx) => {
        await trx.updateTable('user').set({ password, updated_at: now() }).where('id', '=', targetId).execute();
        if (targetId === me.id) await addDynamic(trx, me.id, DynamicType.Password, '修改了登录密码');
      });
      return {};
    },
  }),

  rpc('UpdateUserProfile', {
    http: 'PUT /api/v1/user/profile', request: User, auth: 'login', permission: '更新用户资料',
    async handler(req, ctx) {
      const me = ctx.requireUser();
      if (!ctx.permitted && req.id !== me.id) throw forbidden('您没有权限更改他人信息');
      const target = await userOr404(ctx, req.id);
      assertValid(emailProblems(req.email, false));
      assertValid(phoneProblems(req.mobile));
      if (req.avatar && !/^(\/uploads\/|https?:\/\/)/.test(req.avatar)) throw badRequest('头像地址必须是上传后的图片地址');
      const fields = {
        mobile: checkText(req.mobile, '手机号', { max: 20 }),
        email: req.email,
        address: checkText(req.address, '地址', { max: 255 }),
        signature: checkText(req.signature, '个性签名', { max: 255 }),
        avatar: checkText(req.avatar, '头像', { max: 255 }),
        realname: checkText(req.realname, '真实姓名', { max: 64 }),
        identity: checkText(req.identity, '身份证号', { max: 32 }),
        ...(ctx.permitted ? { remark: checkText(req.remark, '备注', { max: 1000, multiline: true }) } : {}),
      };
      if (await emailTaken(ctx.db, req.email, target.id)) throw conflict('邮箱已存在');
      await ctx.db.transaction().execute(async (trx) => {
        await trx.updateTable('user').set({ ...fields, updated_at: now() }).where('id', '=', target.id).execute();
        if (target.id === me.id) await addDynamic(trx, me.id, DynamicType.Profile, '更新了个人资料');
      });
      return {};
    },
  }),

  rpc('DeleteUser', {
    http: 'DELETE /api/v1/user', request: DeleteUserRequest, auth: 'perm', permission: '删除用户',
    async handler(req, ctx) {
      const me = ctx.requireUser();
      const ids = requireIds(req.id, '用户').filter((id) => id !== SUPER_USER_ID);
      if (ids.includes(me.id)) throw badRequest('不能删除自己的账号');
      const caller = await userOr404(ctx, me.id);
      if (!req.password || !(await verifyPassword(req.password, caller.password))) throw badRequest('密码错误');
      if (!ids.length) return {};
      const busy = await ctx.db.selectFrom('user').select('id').where('id', 'in', ids)
        .where((eb) => eb.or([eb('doc_count', '>', 0), eb('article_count', '>', 0)])).executeTakeFirst();
      if (busy) throw new ApiError(Code.FailedPrecondition, '用户存在文档或文章，不允许删除');
      // Every table with a user_id column loses the deleted users' rows (MOREDOC does the same).
      const tables = await sql<{ name: string }>`SELECT m.name FROM sqlite_master m JOIN pragma_table_info(m.name) c
        WHERE m.type = 'table' AND c.name = 'user_id'`.execute(ctx.db);
      await ctx.db.transaction().execute(async (trx) => {
        const groups = await trx.selectFrom('user_group').select('group_id').where('user_id', 'in', ids).execute();
        for (const { name } of tables.rows) {
          await sql`DELETE FROM ${sql.table(name)} WHERE user_id IN (${sql.join(ids)})`.execute(trx);
        }
        await trx.deleteFrom('user').where('id', 'in', ids).execute();
        await refreshGroupCounts(trx, groups.map((g) => g.group_id));
      });
      return {};
    },
  }),

  rpc('AddUser', {
    http: 'POST /api/v1/user', request: SetUserRequest, auth: 'perm', permission: '新增用户',
    async handler(req, ctx) {
      const groupIds = positiveIds(req.group_id);
      assertValid([...usernameProblems(req.username), ...passwordProblems(req.password), ...emailProblems(req.email, false),
        ...(groupIds.length ? [] : ['用户组不能为空'])]);
      await assertGroupsExist(ctx.db, groupIds);
      if (await findUserByUsername(ctx.db, req.username)) throw conflict('用户名已存在');
      if (await emailTaken(ctx.db, req.email)) throw conflict('邮箱已存在');
      const password = await hashPassword(req.password, ctx.app.passwordCost);
      await mapUnique(ctx.db.transaction().execute(async (trx) => {
        const ts = now();
        const user = await trx.insertInto('user').values({ username: req.username, password, email: req.email, created_at: ts, updated_at: ts })
          .returning('id').executeTakeFirstOrThrow();
        await setUserGroups(trx, user.id, groupIds);
      }), '用户名已存在');
      return {};
    },
  }),

  rpc('SetUser', {
    http: 'PUT /api/v1/user', request: SetUserRequest, auth: 'perm', permission: '设置用户密码与分组',
    async handler(req, ctx) {
      if (req.id <= 0) throw badRequest('请选择用户（参数 id）');
      const groupIds = positiveIds(req.group_id);
      assertValid([...(groupIds.length ? [] : ['用户组不能为空']), ...(req.password ? passwordProblems(req.password) : [])]);
      await userOr404(ctx, req.id);
      await assertGroupsExist(ctx.db, groupIds);
      const password = req.password ? await hashPassword(req.password, ctx.app.passwordCost) : null;
      await ctx.db.transaction().execute(async (trx) => {
        await setUserGroups(trx, req.id, groupIds);
        if (password) await trx.updateTable('user').set({ password, updated_at: now() }).where('id', '=', req.id).execute();
      });
      return {};
    },
  }),

  rpc('ListUser', {
    http: 'GET /api/v1/user/list', request: ListUserRequest, response: ListUserReply, auth: 'public', permission: '查看用户列表',
    async handler(req, ctx) {
      const limited = req.limit > 0;
      const size = clamp(limited ? req.limit : req.size, 10, 1000);
      const page = limited ? 1 : Math.max(req.page, 1);
      const ids = positiveIds(req.id);
      // Quirk kept from MOREDOC: a `status` filter replaces (and so disables) the group filter.
      const groupIds = req.status.length ? [] : positiveIds(req.group_id);
      let query = ctx.db.selectFrom('user');
      if (ids.length) query = query.where('user.id', 'in', ids);
      if (groupIds.length) {
        query = query.where('user.id', 'in', (eb) => eb.selectFrom('user_group').select('user_id').where('group_id', 'in', groupIds));
      }
      if (ctx.permitted && req.wd.trim()) {
        const pattern = likePattern(req.wd);
        query = query.where((eb) => eb.or(['username', 'realname', 'email', 'mobile'].map((c) => eb(sql.ref(`user.${c}`), 'like', pattern))));
      }
      const order = parseOrder(req.sort, USER_COLUMNS);
      let rowsQuery = query.selectAll('user');
      for (const o of order.length ? order : [{ column: sql.ref('id'), direction: 'desc' as const }]) rowsQuery = rowsQuery.orderBy(o.column, o.direction);
      const rows = await rowsQuery.limit(size).offset(offsetOf(page, size)).execute();
      const groups = await groupIdsOf(ctx.db, rows.map((r) => r.id));
      const user = rows.map((row) => ({
        ...pick(withoutPassword(row), ctx.permitted ? null : PUBLIC_LIST_COLUMNS),
        group_id: groups.get(row.id) ?? [],
      }));
      if (limited || ids.length) return { user };
      const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      return { user, total: Number(total) };
    },
  }),
];
