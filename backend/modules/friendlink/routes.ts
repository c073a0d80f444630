import type { Database } from '../../db';
import { flag, now } from '../../db/schema';
import { badRequest } from '../../wire/errors';
import { message, type Decoded } from '../../wire/message';
import { Friendlink, IdRequest, IdsRequest } from '../../wire/messages';
import { defineService, rpc } from '../../platform/rpc';
import { applyPaging, checkText, likePattern, pick, requireIds, rowOr404, selectedFields } from '../../wire/request';

// FriendlinkAPI: the footer's friend links. Visitors see enabled links with id, title, link.

const ListFriendlinkRequest = message('ListFriendlinkRequest', { page: 'int32', size: 'int32', wd: 'string', enable: 'bool[]', field: 'string[]' });
const ListFriendlinkReply = message('ListFriendlinkReply', { friendlink: [Friendlink], total: 'int64' });

const COLUMNS = ['id', 'title', 'link', 'description', 'sort', 'enable', 'created_at', 'updated_at'];
const PUBLIC_COLUMNS = ['id', 'title', 'link'];

function columnsOf(req: Decoded<typeof Friendlink>) {
  const link = checkText(req.link.trim(), '友链地址', { required: true, max: 500 });
  if (!/^https?:\/\/[^\s]+$/i.test(link)) throw badRequest('友链地址必须以 http:// 或 https:// 开头');
  return {
    title: checkText(req.title.trim(), '友链名称', { required: true, max: 64 }),
    link,
    description: checkText(req.description, '友链描述', { max: 255, multiline: true }),
    sort: req.sort,
    enable: flag(req.enable),
  };
}

const friendlinkOr404 = (db: Database, id: number) => rowOr404(db, 'friendlink', id, '友链不存在');

export const friendlinkService = defineService('FriendlinkAPI', [
  rpc('CreateFriendlink', {
    http: 'POST /api/v1/friendlink', request: Friendlink, response: Friendlink, auth: 'perm', permission: '创建友链',
    async handler(req, ctx) {
      const ts = now();
      return ctx.db.insertInto('friendlink').values({ ...columnsOf(req), created_at: ts, updated_at: ts }).returningAll().executeTakeFirstOrThrow();
    },
  }),

  rpc('UpdateFriendlink', {
    http: 'PUT /api/v1/friendlink', request: Friendlink, auth: 'perm', permission: '更新友链',
    async handler(req, ctx) {
      if (req.id <= 0) throw badRequest('参数不正确（参数 id）');
      const columns = columnsOf(req);
      await friendlinkOr404(ctx.db, req.id);
      await ctx.db.updateTable('friendlink').set({ ...columns, updated_at: now() }).where('id', '=', req.id).execute();
      return {};
    },
  }),

  rpc('DeleteFriendlink', {
    http: 'DELETE /api/v1/friendlink', request: IdsRequest('DeleteFriendlinkRequest'), auth: 'perm', permission: '删除友链',
    async handler(req, ctx) {
      await ctx.db.deleteFrom('friendlink').where('id', 'in', requireIds(req.id, '友链')).execute();
      return {};
    },
  }),

  rpc('GetFriendlink', {
    // Public in MOREDOC too: the seeded permission row is never evaluated.
    http: 'GET /api/v1/friendlink', request: IdRequest('GetFriendlinkRequest'), response: Friendlink, auth: 'public', permission: '根据ID查询友链',
    async handler(req, ctx) {
      return friendlinkOr404(ctx.db, req.id);
    },
  }),

  rpc('ListFriendlink', {
    http: 'GET /api/v1/friendlink/list', request: ListFriendlinkRequest, response: ListFriendlinkReply, auth: 'public', permission: '查看友链列表',
    async handler(req, ctx) {
      let query = ctx.db.selectFrom('friendlink');
      if (!ctx.permitted) query = query.where('enable', '=', 1);
      else {
        if (req.enable.length) query = query.where('enable', 'in', [...new Set(req.enable.map((e) => flag(e)))]);
        if (req.wd.trim()) {
          const p = likePattern(req.wd);
          query = query.where((eb) => eb.or([eb('title', 'like', p), eb('description', 'like', p)]));
        }
      }
      const rows = await applyPaging(query.selectAll().orderBy('enable', 'desc').orderBy('sort', 'desc').orderBy('id', 'asc'), req.page, req.size).execute();
      const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      const fields = ctx.permitted ? selectedFields(req.field, COLUMNS) : PUBLIC_COLUMNS;
      return { friendlink: rows.map((r) => pick(r, fields)), total: Number(total) };
    },
  }),
]);
