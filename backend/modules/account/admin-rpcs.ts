import { CREDIT_ADJUST_MAX, CREDIT_BALANCE_MAX } from '../../../shared/constants';
import { SUPER_USER_ID, grpcPermissionPath } from '../../../shared/permissions';
import {
  cleanName,
  emailProblems,
  normalizeMainlandMobile,
  passwordProblems,
  usernameProblems,
  EMAIL_TAKEN,
  MOBILE_TAKEN,
  USERNAME_TAKEN,
  WRONG_OLD_PASSWORD,
} from '../../../shared/validation';
import type { Database } from '../../db';
import { lockRows } from '../../db/dialect';
import { ownersOfLiveRows } from '../../db/recycle-bin';
import { ApiError, Code, badRequest, conflict, forbidden } from '../../wire/errors';
import { assertValid, checkName, checkText, clamp, mapUnique, pick, positiveIds, requireIds } from '../../wire/request';
import { hashPassword, verifyPassword } from '../../platform/auth/password';
import { assertHoldsNoMore, deniedMessage, firstPermissionNotHeld } from '../../platform/auth/session';
import { rpc } from '../../platform/rpc';
import {
  assertGroupsExist,
  groupIdsOf,
  permissionIdsOfGroups,
  refreshGroupCounts,
  setUserGroups,
} from '../group/service';
import { vipPeriodOf } from '../vip/service';
import {
  DynamicType,
  PUBLIC_LIST_COLUMNS,
  PUBLIC_PROFILE_COLUMNS,
  addCredit,
  addDynamic,
  dynamicCredits,
  dynamicTitle,
  deleteUsers,
  emailTaken,
  findUserByUsername,
  insertUser,
  listUsers,
  mobileTaken,
  setPassword,
  updateProfile,
  userOr404,
  usernamesOf,
  withoutPassword,
  type UserRow,
} from '../user/service';
import {
  AdjustUserCreditRequest,
  DeleteUserRequest,
  GetUserRequest,
  ListUserReply,
  ListUserRequest,
  SetUserRequest,
  UpdateUserPasswordRequest,
  User,
} from '../../../shared/messages/user';

// UserAPI: profiles, passwords and the admin's user management.

/** Owners named in DeleteUser's refusal at most; the rest are counted. */
const NAMED_OWNERS = 3;

/**
 * Why DeleteUser deletes nothing: MOREDOC's words for one user; for a batch, which of them still
 * own documents or articles, so that the admin can leave them out and delete the rest.
 */
async function stillOwn(db: Database, asked: readonly number[], owners: readonly number[]): Promise<ApiError> {
  if (asked.length === 1) return new ApiError(Code.FailedPrecondition, '用户存在文档或文章，不允许删除');
  const sorted = asked.filter((id) => owners.includes(id));
  const names = await usernamesOf(db, sorted.slice(0, NAMED_OWNERS));
  const named = sorted
    .slice(0, NAMED_OWNERS)
    .map((id) => `“${names.get(id) ?? id}”`)
    .join('、');
  const more = sorted.length > NAMED_OWNERS ? `等 ${sorted.length} 位` : '';
  const rest = sorted.length < asked.length ? '；取消选择后可删除其余用户' : '';
  return new ApiError(Code.FailedPrecondition, `用户${named}${more}存在文档或文章，不允许删除${rest}`);
}

const UPDATE_PASSWORD_PATH = grpcPermissionPath('UserAPI', 'UpdateUserPassword');

/**
 * User 1 holds every permission whatever its groups, so whoever sets its password, e-mail
 * address or mobile number (the find-password flows send their codes there) could sign in as
 * it: a holder of one user permission (修改他人密码, 更新用户资料, 设置用户密码与分组) would
 * take the whole site. Only user 1 changes its own account, as nobody deletes or punishes it.
 */
function assertMayChangeAccount(callerId: number, targetId: number): void {
  if (targetId === SUPER_USER_ID && callerId !== SUPER_USER_ID) throw forbidden('超级管理员的账号只能由其本人修改');
}

/**
 * A new avatar is an image uploaded to this site (`/uploads/…`): one on another host would tell
 * that host the address of everybody who sees it. The avatar an account already has (an OAuth
 * provider's) may stay.
 */
const UPLOADED_IMAGE = /^\/uploads\/(?:[\w-]+\/)*[\w-]+\.[a-z0-9]+$/i;

/** Nor puts anybody, themselves included, into groups that grant more than they hold (decision 089). */
async function assertMayHandOut(db: Database, callerId: number, groupIds: readonly number[]): Promise<void> {
  const notHeld = await firstPermissionNotHeld(db, callerId, await permissionIdsOfGroups(db, groupIds));
  if (notHeld) throw forbidden(`所选用户组拥有您没有的权限【${notHeld.title}】，您不能把用户加入其中`);
}

/**
 * The mobile number UpdateUserProfile stores. A member changes it only by SMS code
 * (BindMobile), so an unchanged value passes and another is refused; holders of the
 * permission (admins) may set any mainland number not bound elsewhere, or clear it.
 */
async function profileMobile(db: Database, target: UserRow, input: string, permitted: boolean): Promise<string> {
  const typed = input.trim();
  if (typed === target.mobile || (typed !== '' && normalizeMainlandMobile(typed) === target.mobile))
    return target.mobile;
  if (!permitted) throw badRequest('手机号需通过短信验证码绑定');
  if (typed === '') return '';
  const mobile = normalizeMainlandMobile(typed);
  if (!mobile) throw badRequest('请输入正确的中国大陆手机号码');
  if (await mobileTaken(db, mobile, target.id)) throw conflict(MOBILE_TAKEN);
  return mobile;
}

export const adminRpcs = [
  rpc('GetUser', {
    http: 'GET /api/v1/user',
    request: GetUserRequest,
    response: User,
    auth: 'public',
    permission: '根据ID查询用户',
    async handler(req, ctx) {
      const id = req.id > 0 ? req.id : ctx.user?.id;
      if (!id) throw badRequest('ID错误');
      const user = withoutPassword(await userOr404(ctx.db, id));
      const self = id === ctx.user?.id;
      const full = ctx.permitted || self;
      // Oneself: whether VIP and until when (the gateway inlines this user in the start data).
      const vip = self ? await vipPeriodOf(ctx.db, id) : null;
      return {
        ...pick(user, full ? null : PUBLIC_PROFILE_COLUMNS),
        remark: '',
        is_vip: vip?.active ?? false,
        vip_end_at: vip?.endAt ?? null,
      };
    },
  }),

  rpc('UpdateUserPassword', {
    http: 'PUT /api/v1/user/password',
    request: UpdateUserPasswordRequest,
    auth: 'login',
    permission: '修改他人密码',
    async handler(req, ctx) {
      const me = ctx.requireUser();
      const targetId = req.id > 0 ? req.id : me.id;
      assertMayChangeAccount(me.id, targetId);
      assertValid(passwordProblems(req.new_password, '新密码'));
      const target = await userOr404(ctx.db, targetId);
      if (targetId === me.id) {
        if (!(await verifyPassword(req.old_password, target.password))) throw badRequest(WRONG_OLD_PASSWORD);
      } else if (!ctx.permitted) {
        throw forbidden(await deniedMessage(ctx.db, 'GRPC', UPDATE_PASSWORD_PATH));
      } else {
        await assertHoldsNoMore(ctx.db, me.id, targetId, '修改其账号');
      }
      const password = await hashPassword(req.new_password, ctx.app.passwordCost);
      await ctx.db.transaction().execute(async (trx) => {
        // The member's own change keeps the session that made it; an admin's change of someone else's keeps none.
        await setPassword(trx, targetId, password, targetId === me.id ? me.uuid : null);
        if (targetId === me.id) await addDynamic(trx, me.id, DynamicType.Password, '修改了登录密码');
      });
      return {};
    },
  }),

  rpc('UpdateUserProfile', {
    http: 'PUT /api/v1/user/profile',
    request: User,
    auth: 'login',
    permission: '更新用户资料',
    async handler(req, ctx) {
      const me = ctx.requireUser();
      if (!ctx.permitted && req.id !== me.id) throw forbidden('您没有权限更改他人信息');
      assertMayChangeAccount(me.id, req.id);
      const target = await userOr404(ctx.db, req.id);
      await assertHoldsNoMore(ctx.db, me.id, target.id, '修改其账号');
      assertValid(emailProblems(req.email, false));
      const mobile = await profileMobile(ctx.db, target, req.mobile, ctx.permitted);
      if (req.avatar && req.avatar !== target.avatar && !UPLOADED_IMAGE.test(req.avatar))
        throw badRequest('头像地址必须是上传后的图片地址');
      const fields = {
        mobile,
        email: req.email,
        address: checkText(req.address, '地址', { max: 255 }),
        signature: checkText(req.signature, '个性签名', { max: 255 }),
        avatar: checkText(req.avatar, '头像', { max: 255 }),
        realname: checkName(req.realname, '真实姓名', { max: 64 }),
        identity: checkText(req.identity, '身份证号', { max: 32 }),
        ...(ctx.permitted ? { remark: checkText(req.remark, '备注', { max: 1000, multiline: true }) } : {}),
      };
      if (await emailTaken(ctx.db, req.email, target.id)) throw conflict(EMAIL_TAKEN);
      // mapUnique: a number bound elsewhere meanwhile loses with 409, not 500.
      await mapUnique(
        ctx.db.transaction().execute(async (trx) => {
          await updateProfile(trx, target.id, fields);
          if (target.id === me.id) await addDynamic(trx, me.id, DynamicType.Profile, '更新了个人资料');
        }),
        MOBILE_TAKEN,
      );
      return {};
    },
  }),

  rpc('DeleteUser', {
    http: 'DELETE /api/v1/user',
    request: DeleteUserRequest,
    auth: 'perm',
    permission: '删除用户',
    async handler(req, ctx) {
      const me = ctx.requireUser();
      const ids = requireIds(req.id, '用户').filter((id) => id !== SUPER_USER_ID);
      if (ids.includes(me.id)) throw badRequest('不能删除自己的账号');
      const caller = await userOr404(ctx.db, me.id);
      if (!req.password || !(await verifyPassword(req.password, caller.password))) throw badRequest('密码错误');
      if (!ids.length) return {};
      for (const id of ids) await assertHoldsNoMore(ctx.db, me.id, id, '修改其账号');
      // What they own in any status, not their counts (which count what visitors can list).
      const owners = new Set([
        ...(await ownersOfLiveRows(ctx.db, 'document', ids)),
        ...(await ownersOfLiveRows(ctx.db, 'article', ids)),
      ]);
      if (owners.size) throw await stillOwn(ctx.db, ids, [...owners]);
      await ctx.db.transaction().execute(async (trx) => {
        const groups = [...(await groupIdsOf(trx, ids)).values()].flat();
        await deleteUsers(trx, ids);
        await refreshGroupCounts(trx, groups);
      });
      return {};
    },
  }),

  rpc('AddUser', {
    http: 'POST /api/v1/user',
    request: SetUserRequest,
    auth: 'perm',
    permission: '新增用户',
    async handler(req, ctx) {
      const groupIds = positiveIds(req.group_id);
      const username = cleanName(req.username);
      assertValid([
        ...usernameProblems(username),
        ...passwordProblems(req.password),
        ...emailProblems(req.email, false),
        ...(groupIds.length ? [] : ['用户组不能为空']),
      ]);
      await assertGroupsExist(ctx.db, groupIds);
      await assertMayHandOut(ctx.db, ctx.requireUser().id, groupIds);
      if (await findUserByUsername(ctx.db, username)) throw conflict(USERNAME_TAKEN);
      if (await emailTaken(ctx.db, req.email)) throw conflict(EMAIL_TAKEN);
      const password = await hashPassword(req.password, ctx.app.passwordCost);
      await mapUnique(
        ctx.db.transaction().execute(async (trx) => {
          const user = await insertUser(trx, { username, password, email: req.email });
          await setUserGroups(trx, user.id, groupIds);
        }),
        USERNAME_TAKEN,
      );
      return {};
    },
  }),

  rpc('SetUser', {
    http: 'PUT /api/v1/user',
    request: SetUserRequest,
    auth: 'perm',
    permission: '设置用户密码与分组',
    async handler(req, ctx) {
      if (req.id <= 0) throw badRequest('请选择用户（参数 id）');
      assertMayChangeAccount(ctx.requireUser().id, req.id);
      const groupIds = positiveIds(req.group_id);
      assertValid([
        ...(groupIds.length ? [] : ['用户组不能为空']),
        ...(req.password ? passwordProblems(req.password) : []),
      ]);
      await userOr404(ctx.db, req.id);
      await assertGroupsExist(ctx.db, groupIds);
      const me = ctx.requireUser();
      await assertHoldsNoMore(ctx.db, me.id, req.id, '修改其账号');
      await assertMayHandOut(ctx.db, me.id, groupIds);
      const password = req.password ? await hashPassword(req.password, ctx.app.passwordCost) : null;
      await ctx.db.transaction().execute(async (trx) => {
        await setUserGroups(trx, req.id, groupIds);
        if (password) await setPassword(trx, req.id, password, req.id === me.id ? me.uuid : null);
      });
      return {};
    },
  }),

  // Ours (docs/decisions/076): MOREDOC has no call that changes a member's credits.
  rpc('AdjustUserCredit', {
    http: 'PUT /api/v1/user/credit',
    request: AdjustUserCreditRequest,
    auth: 'perm',
    permission: '调整用户积分',
    async handler(req, ctx) {
      if (req.id <= 0) throw badRequest('请选择用户（参数 id）');
      const { amount } = req;
      if (!Number.isInteger(amount) || amount === 0 || Math.abs(amount) > CREDIT_ADJUST_MAX)
        throw badRequest(`调整数量须为 -${CREDIT_ADJUST_MAX} 到 ${CREDIT_ADJUST_MAX} 之间的非零整数`);
      const reason = checkText(req.reason.trim(), '原因', { required: true, max: 255, multiline: true });
      await assertHoldsNoMore(ctx.db, ctx.requireUser().id, req.id, '调整其积分');
      const credits = (await ctx.app.settings.snapshot()).creditName();
      await ctx.db.transaction().execute(async (trx) => {
        await lockRows(trx, 'user', [req.id]);
        const { credit_count: balance } = await userOr404(trx, req.id);
        if (balance + amount < 0) throw badRequest(`余额不足，最多可扣除 ${balance} ${credits}`);
        if (balance + amount > CREDIT_BALANCE_MAX) throw badRequest(`调整后余额不能超过 ${CREDIT_BALANCE_MAX}`);
        await addCredit(trx, req.id, amount);
        const change = `${amount > 0 ? '增加' : '扣除'} ${dynamicCredits(Math.abs(amount), credits)}`;
        await addDynamic(trx, req.id, DynamicType.CreditAdjusted, `管理员${change}，原因：${dynamicTitle(reason)}`);
      });
      return {};
    },
  }),

  rpc('ListUser', {
    http: 'GET /api/v1/user/list',
    request: ListUserRequest,
    response: ListUserReply,
    auth: 'public',
    permission: '查看用户列表',
    async handler(req, ctx) {
      const limited = req.limit > 0;
      const ids = positiveIds(req.id);
      const { rows, total } = await listUsers(ctx.db, {
        ids,
        // Quirk kept from MOREDOC: a `status` filter replaces (and so disables) the group filter.
        groupIds: req.status.length ? [] : positiveIds(req.group_id),
        wd: ctx.permitted ? req.wd : '',
        sort: req.sort,
        size: clamp(limited ? req.limit : req.size, 10, 1000),
        page: limited ? 1 : Math.max(req.page, 1),
        withTotal: !limited && !ids.length,
      });
      const groups = await groupIdsOf(
        ctx.db,
        rows.map((r) => r.id),
      );
      const user = rows.map((row) => ({
        ...pick(withoutPassword(row), ctx.permitted ? null : PUBLIC_LIST_COLUMNS),
        group_id: groups.get(row.id) ?? [],
      }));
      return total === undefined ? { user } : { user, total };
    },
  }),
];
