import { flag } from '../../db/schema';
import { badRequest } from '../../wire/errors';
import type { Decoded } from '../../wire/message';
import { IdRequest, IdsRequest } from '../../../shared/messages/common';
import { checkLink, checkName, checkText, listVisibility, pick, requireIds, selectedFields } from '../../wire/request';
import { defineService, rpc } from '../../platform/rpc';
import { Banner, ListBannerReply, ListBannerRequest } from '../../../shared/messages/banner';
import { BANNER_COLUMNS, bannerOr404, deleteBanners, insertBanner, listBanners, updateBanner } from './store';

// BannerAPI: carousels for the website (type 0), the mini-program (1) and the app (2).

const PUBLIC_COLUMNS = ['id', 'title', 'path', 'url'];
const BANNER_TYPES = [0, 1, 2];

function columnsOf(req: Decoded<typeof Banner>) {
  if (!BANNER_TYPES.includes(req.type)) throw badRequest('轮播图类型必须是 0（网站）、1（小程序）或 2（APP）');
  const path = checkText(req.path.trim(), '轮播图图片', { required: true, max: 255 });
  if (!/^(\/uploads\/|https?:\/\/)/.test(path)) throw badRequest('轮播图图片必须是上传后的图片地址');
  return {
    title: checkName(req.title, '轮播图标题', { max: 64 }),
    path,
    sort: req.sort,
    type: req.type,
    url: checkLink(req.url, '跳转链接'),
    description: checkText(req.description, '轮播图描述', { max: 255, multiline: true }),
  };
}

export const bannerService = defineService('BannerAPI', [
  rpc('CreateBanner', {
    http: 'POST /api/v1/banner',
    request: Banner,
    response: Banner,
    auth: 'perm',
    permission: '创建轮播图',
    async handler(req, ctx) {
      // enable is always true on creation, as in MOREDOC (gorm applies the DB default).
      return insertBanner(ctx.db, { ...columnsOf(req), enable: 1 });
    },
  }),

  rpc('UpdateBanner', {
    http: 'PUT /api/v1/banner',
    request: Banner,
    auth: 'perm',
    permission: '更新轮播图',
    async handler(req, ctx) {
      if (req.id <= 0) throw badRequest('请选择轮播图（参数 id）');
      const columns = columnsOf(req);
      await bannerOr404(ctx.db, req.id);
      await updateBanner(ctx.db, req.id, { ...columns, enable: flag(req.enable) });
      return {};
    },
  }),

  rpc('DeleteBanner', {
    http: 'DELETE /api/v1/banner',
    request: IdsRequest('DeleteBannerRequest'),
    auth: 'perm',
    permission: '删除轮播图',
    async handler(req, ctx) {
      await deleteBanners(ctx.db, requireIds(req.id, '轮播图'));
      return {};
    },
  }),

  rpc('GetBanner', {
    http: 'GET /api/v1/banner',
    request: IdRequest('GetBannerRequest'),
    response: Banner,
    auth: 'perm',
    permission: '根据ID查询轮播图',
    async handler(req, ctx) {
      return bannerOr404(ctx.db, req.id);
    },
  }),

  rpc('ListBanner', {
    http: 'GET /api/v1/banner/list',
    request: ListBannerRequest,
    response: ListBannerReply,
    auth: 'public',
    permission: '获取轮播图列表',
    async handler(req, ctx) {
      const { rows, total } = await listBanners(ctx.db, {
        types: [...new Set(req.type)],
        ...listVisibility(ctx.permitted, req.enable, req.wd),
        page: req.page,
        size: req.size,
      });
      const fields = ctx.permitted ? selectedFields(req.field, BANNER_COLUMNS) : PUBLIC_COLUMNS;
      return { banner: rows.map((r) => pick(r, fields)), total };
    },
  }),
]);
