import type { Database } from '../../db';
import { flag, now } from '../../db/schema';
import { badRequest } from '../../wire/errors';
import { message, type Decoded } from '../../wire/message';
import { Banner, IdRequest, IdsRequest } from '../../wire/messages';
import { defineService, rpc } from '../../platform/rpc';
import { applyPaging, checkLink, checkText, likePattern, pick, requireIds, rowOr404, selectedFields } from '../../wire/request';

// BannerAPI: carousels for the website (type 0), the mini-program (1) and the app (2).

const ListBannerRequest = message('ListBannerRequest', {
  page: 'int64', size: 'int64', type: 'int32[]', enable: 'bool[]', wd: 'string', field: 'string[]',
});
const ListBannerReply = message('ListBannerReply', { total: 'int64', banner: [Banner] });

const COLUMNS = ['id', 'title', 'path', 'sort', 'enable', 'type', 'url', 'description', 'created_at', 'updated_at'];
const PUBLIC_COLUMNS = ['id', 'title', 'path', 'url'];
const BANNER_TYPES = [0, 1, 2];

function columnsOf(req: Decoded<typeof Banner>) {
  if (!BANNER_TYPES.includes(req.type)) throw badRequest('轮播图类型必须是 0（网站）、1（小程序）或 2（APP）');
  const path = checkText(req.path.trim(), '轮播图图片', { required: true, max: 255 });
  if (!/^(\/uploads\/|https?:\/\/)/.test(path)) throw badRequest('轮播图图片必须是上传后的图片地址');
  return {
    title: checkText(req.title.trim(), '轮播图标题', { max: 64 }),
    path,
    sort: req.sort,
    type: req.type,
    url: checkLink(req.url, '跳转链接'),
    description: checkText(req.description, '轮播图描述', { max: 255, multiline: true }),
  };
}

const bannerOr404 = (db: Database, id: number) => rowOr404(db, 'banner', id, '轮播图不存在');

export const bannerService = defineService('BannerAPI', [
  rpc('CreateBanner', {
    http: 'POST /api/v1/banner', request: Banner, response: Banner, auth: 'perm', permission: '创建轮播图',
    async handler(req, ctx) {
      const ts = now();
      // enable is always true on creation, as in MOREDOC (gorm applies the DB default).
      return ctx.db.insertInto('banner').values({ ...columnsOf(req), enable: 1, created_at: ts, updated_at: ts }).returningAll().executeTakeFirstOrThrow();
    },
  }),

  rpc('UpdateBanner', {
    http: 'PUT /api/v1/banner', request: Banner, auth: 'perm', permission: '更新轮播图',
    async handler(req, ctx) {
      if (req.id <= 0) throw badRequest('请选择轮播图（参数 id）');
      const columns = columnsOf(req);
      await bannerOr404(ctx.db, req.id);
      await ctx.db.updateTable('banner').set({ ...columns, enable: flag(req.enable), updated_at: now() }).where('id', '=', req.id).execute();
      return {};
    },
  }),

  rpc('DeleteBanner', {
    http: 'DELETE /api/v1/banner', request: IdsRequest('DeleteBannerRequest'), auth: 'perm', permission: '删除轮播图',
    async handler(req, ctx) {
      await ctx.db.deleteFrom('banner').where('id', 'in', requireIds(req.id, '轮播图')).execute();
      return {};
    },
  }),

  rpc('GetBanner', {
    http: 'GET /api/v1/banner', request: IdRequest('GetBannerRequest'), response: Banner, auth: 'perm', permission: '根据ID查询轮播图',
    async handler(req, ctx) {
      return bannerOr404(ctx.db, req.id);
    },
  }),

  rpc('ListBanner', {
    http: 'GET /api/v1/banner/list', request: ListBannerRequest, response: ListBannerReply, auth: 'public', permission: '获取轮播图列表',
    async handler(req, ctx) {
      let query = ctx.db.selectFrom('banner');
      if (req.type.length) query = query.where('type', 'in', [...new Set(req.type)]);
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
      return { banner: rows.map((r) => pick(r, fields)), total: Number(total) };
    },
  }),
]);
