import { SUPER_USER_ID } from '../../../shared/permissions';
import { now } from '../../db/schema';
import { conflict, forbidden, notFound } from '../../wire/errors';
import { message } from '../../wire/message';
import { Download, Dynamic, Group, Permission, Sign } from '../../wire/messages';
import { rpc } from '../../platform/rpc';
import { applyPaging, clamp, offsetOf } from '../../wire/request';
import { isUniqueViolation } from '../../db';
import { localDateKey } from './store';
import { DynamicType, activePunishments, addDynamic, groupAllows } from './store';

// UserAPI: what a logged-in member asks about themself.

const GetUserPermissionsReply = message('GetUserPermissionsReply', { permission: [Permission] });
const PageRequest = (name: string) => message(name, { page: 'int64', size: 'int64' });
const ListUserDynamicReply = message('ListUserDynamicReply', { total: 'int64', dynamic: [Dynamic] });
const ListUserDownloadReply = message('ListUserDownloadReply', { total: 'int64', download: [Download] });
const ListUserGroupReply = message('ListUserGroupReply', { group: [Group] });

export const memberRpcs = [
  rpc('GetUserPermissions', {
    http: 'GET /api/v1/user/permission', response: GetUserPermissionsReply, auth: 'login', input: 'none',
    async handler(_req, ctx) {
      const me = ctx.requireUser();
      if (me.id === SUPER_USER_ID) return { permission: await ctx.db.selectFrom('permission').selectAll().orderBy('id').execute() };
      const permission = await ctx.db.selectFrom('permission as p')
        .innerJoin('group_permission as gp', 'gp.permission_id', 'p.id')
        .innerJoin('user_group as ug', 'ug.group_id', 'gp.group_id')
        .selectAll('p').distinct().where('ug.user_id', '=', me.id).orderBy('p.id').execute();
      return { permission };
    },
  }),

  rpc('CanIUploadDocument', {
    http: 'GET /api/v1/user/caniuploaddocument', auth: 'login', input: 'none',
    async handler(_req, ctx) {
      const me = ctx.requireUser();
      const punished = await activePunishments(ctx.db, me.id);
      if (punished.has(1) || punished.has(3) || !(await groupAllows(ctx.db, me.id, 'enable_upload'))) {
        throw forbidden('您没有上传文档的权限');
      }
      return {};
    },
  }),

  rpc('CanIPublishArticle', {
    http: 'GET /api/v1/user/canipublisharticle', auth: 'login', input: 'none',
    async handler(_req, ctx) {
      const me = ctx.requireUser();
      const punished = await activePunishments(ctx.db, me.id);
      if (punished.has(1) || punished.has(6) || !(await groupAllows(ctx.db, me.id, 'enable_article'))) {
        throw forbidden('您没有发布文章的权限');
      }
      return {};
    },
  }),

  rpc('ListUserDynamic', {
    http: 'GET /api/v1/user/dynamic', request: PageRequest('ListUserDynamicRequest'), response: ListUserDynamicReply, auth: 'login',
    async handler(req, ctx) {
      const me = ctx.requireUser();
      const size = clamp(req.size, 10, 100);
      const page = Math.max(req.page, 1);
      const dynamic = await ctx.db.selectFrom('dynamic').selectAll().where('user_id', '=', me.id)
        .orderBy('id', 'desc').limit(size).offset(offsetOf(page, size)).execute();
      const { total } = await ctx.db.selectFrom('dynamic').select((eb) => eb.fn.countAll<number>().as('total'))
        .where('user_id', '=', me.id).executeTakeFirstOrThrow();
      return { dynamic, total: Number(total) };
    },
  }),

  rpc('SignToday', {
    http: 'PUT /api/v1/user/sign', response: Sign, auth: 'login', input: 'none',
    async handler(_req, ctx) {
      const me = ctx.requireUser();
      const cfg = await ctx.app.settings.snapshot();
      const award = Math.max(cfg.int('score', 'sign_in'), 0);
      const signAt = localDateKey();
      try {
        return await ctx.db.transaction().execute(async (trx) => {
          const ts = now();
          const sign = await trx.insertInto('sign').values({ user_id: me.id, sign_at: signAt, ip: ctx.ip, award, created_at: ts, updated_at: ts })
            .returningAll().executeTakeFirstOrThrow();
          if (award > 0) {
            await trx.updateTable('user').set((eb) => ({ credit_count: eb('credit_count', '+', award) })).where('id', '=', me.id).execute();
          }
          await addDynamic(trx, me.id, DynamicType.Sign, `签到成功，获得 ${award} ${cfg.str('score', 'credit_name') || '魔豆'}奖励`);
          return sign;
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict('您今天已经签到过了');
        throw error;
      }
    },
  }),

  rpc('GetSignedToday', {
    http: 'GET /api/v1/user/sign', response: Sign, auth: 'login', input: 'none',
    async handler(_req, ctx) {
      const me = ctx.requireUser();
      const sign = await ctx.db.selectFrom('sign').selectAll().where('user_id', '=', me.id).where('sign_at', '=', localDateKey()).executeTakeFirst();
      if (!sign) throw notFound('您今天还没有签到');
      return sign;
    },
  }),

  rpc('ListUserDownload', {
    http: 'GET /api/v1/user/download', request: PageRequest('ListUserDownloadRequest'), response: ListUserDownloadReply, auth: 'login',
    async handler(req, ctx) {
      const me = ctx.requireUser();
      const base = ctx.db.selectFrom('download as d').innerJoin('document as doc', 'doc.id', 'd.document_id').where('d.user_id', '=', me.id);
      const download = await applyPaging(
        base.select(['d.id', 'd.user_id', 'd.document_id', 'd.ip', 'd.is_pay', 'd.created_at', 'd.updated_at',
          'doc.title', 'doc.ext', 'doc.score', 'doc.size', 'doc.pages', 'doc.uuid as document_uuid']).orderBy('d.id', 'desc'),
        req.page, req.size,
      ).execute();
      const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      return { download, total: Number(total) };
    },
  }),

  rpc('ListUserGroup', {
    http: 'GET /api/v1/user/group', response: ListUserGroupReply, auth: 'login', input: 'none',
    async handler(_req, ctx) {
      const me = ctx.requireUser();
      const group = await ctx.db.selectFrom('group as g').innerJoin('user_group as ug', 'ug.group_id', 'g.id')
        .selectAll('g').where('ug.user_id', '=', me.id).orderBy('g.id').execute();
      return { group };
    },
  }),
];
