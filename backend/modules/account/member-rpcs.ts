import { isUniqueViolation } from '../../db';
import { databaseNow } from '../../db/dialect';
import { conflict, forbidden, notFound } from '../../wire/errors';
import { PageRequest } from '../../../shared/messages/common';
import { clamp } from '../../wire/request';
import { permissionsOf } from '../../platform/auth/session';
import { rpc, type RpcContext } from '../../platform/rpc';
import { groupAllows, groupsOfUser, type FeatureFlag } from '../group/service';
import { mayUpload } from '../document/service';
import { PunishmentType, isBarred } from '../punishment/service';
import { DynamicType, addCredit, addDynamic, dynamicReward, listDynamics } from '../user/service';
import {
  GetUserPermissionsReply,
  ListUserDynamicReply,
  ListUserGroupReply,
  Sign,
  SignedToday,
} from '../../../shared/messages/user';
import { findSign, insertSign, localDateKey } from './store';

// UserAPI: what a logged-in member asks about themself.

/** A 403 with `message` unless a group of the caller has `flag` on and no punishment bars them. */
async function assertAllowed(ctx: RpcContext, barredBy: PunishmentType, flag: FeatureFlag, message: string) {
  const me = ctx.requireUser();
  if ((await isBarred(ctx.db, me.id, barredBy)) || !(await groupAllows(ctx.db, me.id, flag))) throw forbidden(message);
}

export const memberRpcs = [
  rpc('GetUserPermissions', {
    http: 'GET /api/v1/user/permission',
    response: GetUserPermissionsReply,
    auth: 'login',
    input: 'none',
    async handler(_req, ctx) {
      return { permission: await permissionsOf(ctx.db, ctx.requireUser().id) };
    },
  }),

  rpc('CanIUploadDocument', {
    http: 'GET /api/v1/user/caniuploaddocument',
    auth: 'login',
    input: 'none',
    async handler(_req, ctx) {
      if (!(await mayUpload(ctx.db, ctx.requireUser().id))) throw forbidden('您没有上传文档的权限');
      return {};
    },
  }),

  rpc('CanIPublishArticle', {
    http: 'GET /api/v1/user/canipublisharticle',
    auth: 'login',
    input: 'none',
    async handler(_req, ctx) {
      await assertAllowed(ctx, PunishmentType.NoArticle, 'enable_article', '您没有发布文章的权限');
      return {};
    },
  }),

  rpc('ListUserDynamic', {
    http: 'GET /api/v1/user/dynamic',
    request: PageRequest('ListUserDynamicRequest'),
    response: ListUserDynamicReply,
    auth: 'login',
    async handler(req, ctx) {
      const { rows, total } = await listDynamics(
        ctx.db,
        ctx.requireUser().id,
        Math.max(req.page, 1),
        clamp(req.size, 10, 100),
      );
      return { dynamic: rows, total };
    },
  }),

  rpc('SignToday', {
    http: 'PUT /api/v1/user/sign',
    response: Sign,
    auth: 'login',
    input: 'none',
    async handler(_req, ctx) {
      const me = ctx.requireUser();
      const cfg = await ctx.app.settings.snapshot();
      const award = Math.max(cfg.int('score', 'sign_in'), 0);
      const signAt = localDateKey(await databaseNow(ctx.db));
      try {
        return await ctx.db.transaction().execute(async (trx) => {
          const sign = await insertSign(trx, { user_id: me.id, sign_at: signAt, ip: ctx.ip, award });
          if (award > 0) await addCredit(trx, me.id, award);
          // No award set (score.sign_in 0): no 获得 0 魔豆奖励 in the credit history, as for a registration.
          const reward = award > 0 ? `，${dynamicReward(award, cfg.creditName())}` : '';
          await addDynamic(trx, me.id, DynamicType.Sign, `签到成功${reward}`);
          return sign;
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict('您今天已经签到过了');
        throw error;
      }
    },
  }),

  rpc('GetSignedToday', {
    http: 'GET /api/v1/user/sign',
    response: Sign,
    auth: 'login',
    input: 'none',
    async handler(_req, ctx) {
      const sign = await findSign(ctx.db, ctx.requireUser().id, localDateKey(await databaseNow(ctx.db)));
      if (!sign) throw notFound('您今天还没有签到');
      return sign;
    },
  }),

  // Ours (decision 099): the same fact without an error status, for our SPA's 个人中心, which asks
  // on every visit; MOREDOC's client relies on GetSignedToday's 404, which stays.
  rpc('GetSignToday', {
    http: 'GET /api/v1/user/sign/today',
    response: SignedToday,
    auth: 'login',
    input: 'none',
    async handler(_req, ctx) {
      return { sign: await findSign(ctx.db, ctx.requireUser().id, localDateKey(await databaseNow(ctx.db))) };
    },
  }),

  rpc('ListUserGroup', {
    http: 'GET /api/v1/user/group',
    response: ListUserGroupReply,
    auth: 'login',
    input: 'none',
    async handler(_req, ctx) {
      return { group: await groupsOfUser(ctx.db, ctx.requireUser().id) };
    },
  }),
];
