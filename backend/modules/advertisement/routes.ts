import { AD_SLOTS, isAdSlot } from '../../../shared/constants';
import { flag } from '../../db/schema';
import { badRequest, notFound } from '../../wire/errors';
import type { Decoded } from '../../wire/message';
import { IdRequest, IdsRequest } from '../../../shared/messages/common';
import { checkName, checkText, positiveIds } from '../../wire/request';
import { defineService, rpc } from '../../platform/rpc';
import { sanitizeAdContent } from './content';
import {
  Advertisement,
  GetAdvertisementByPositionRequest,
  ListAdvertisementReply,
  ListAdvertisementRequest,
} from '../../../shared/messages/advertisement';
import {
  deleteAdvertisements,
  findAdvertisement,
  insertAdvertisement,
  listAdvertisements,
  liveAdvertisements,
  updateAdvertisement,
  type AdvertisementColumns,
} from './store';

// AdvertisementAPI: the ads of the slots of docs/product.md §9. Visitors get the enabled ads whose time
// has come and not passed; the admin writes the HTML, which is sanitised before it is kept.

const CONTENT_MAX = 10_000;

function columnsOf(req: Decoded<typeof Advertisement>): AdvertisementColumns {
  const position = req.position.trim();
  if (!position || !req.content.trim()) throw badRequest('广告位和广告内容均不能为空');
  if (!isAdSlot(position)) throw badRequest(`广告位不存在，可选：${AD_SLOTS.join('、')}`);
  const content = sanitizeAdContent(checkText(req.content, '广告内容', { max: CONTENT_MAX, multiline: true }));
  if (!content) throw badRequest('广告内容不能为空（脚本、表单和内嵌框架会被移除）');
  // A null time never displays (MOREDOC): ask for both rather than store an ad nobody sees.
  if (!req.start_time || !req.end_time) throw badRequest('请设置广告的开始时间和结束时间');
  if (req.end_time < req.start_time) throw badRequest('广告的结束时间不能早于开始时间');
  return {
    position,
    title: checkName(req.title, '广告标题', { max: 64 }),
    content,
    remark: checkText(req.remark, '广告备注', { max: 255, multiline: true }),
    enable: flag(req.enable),
    start_time: req.start_time.toISOString(),
    end_time: req.end_time.toISOString(),
  };
}

export const advertisementService = defineService('AdvertisementAPI', [
  rpc('CreateAdvertisement', {
    http: 'POST /api/v1/advertisement',
    request: Advertisement,
    response: Advertisement,
    auth: 'perm',
    permission: '添加广告',
    async handler(req, ctx) {
      // enable is always true on creation, as in MOREDOC (gorm applies the DB default).
      return insertAdvertisement(ctx.db, ctx.requireUser().id, { ...columnsOf(req), enable: 1 });
    },
  }),

  rpc('UpdateAdvertisement', {
    http: 'PUT /api/v1/advertisement',
    request: Advertisement,
    auth: 'perm',
    permission: '更新广告',
    async handler(req, ctx) {
      if (req.id <= 0) throw badRequest('请选择广告（参数 id）');
      if (!(await updateAdvertisement(ctx.db, req.id, columnsOf(req)))) throw notFound('广告不存在');
      return {};
    },
  }),

  rpc('DeleteAdvertisement', {
    http: 'DELETE /api/v1/advertisement',
    request: IdsRequest('DeleteAdvertisementRequest'),
    auth: 'perm',
    permission: '删除广告',
    async handler(req, ctx) {
      const ids = positiveIds(req.id);
      if (!ids.length) throw badRequest('广告id不能为空');
      await deleteAdvertisements(ctx.db, ids);
      return {};
    },
  }),

  rpc('GetAdvertisement', {
    http: 'GET /api/v1/advertisement',
    request: IdRequest('GetAdvertisementRequest'),
    response: Advertisement,
    auth: 'perm',
    permission: '获取广告内容',
    async handler(req, ctx) {
      if (req.id <= 0) throw badRequest('请选择广告（参数 id）');
      // Unknown id → {} (MOREDOC).
      return (await findAdvertisement(ctx.db, req.id)) ?? {};
    },
  }),

  rpc('GetAdvertisementByPosition', {
    http: 'GET /api/v1/advertisement/position',
    request: GetAdvertisementByPositionRequest,
    response: ListAdvertisementReply,
    auth: 'public',
    async handler(req, ctx) {
      const positions = [...new Set(req.position.map((p) => p.trim()).filter(Boolean))];
      const rows = await liveAdvertisements(ctx.db, positions);
      return { advertisement: rows.map((row) => ({ ...row, remark: '' })) };
    },
  }),

  rpc('ListAdvertisement', {
    http: 'GET /api/v1/advertisement/list',
    request: ListAdvertisementRequest,
    response: ListAdvertisementReply,
    auth: 'perm',
    permission: '获取广告列表',
    async handler(req, ctx) {
      const { rows, total } = await listAdvertisements(ctx.db, {
        positions: [...new Set(req.position)],
        enable: [...new Set(req.enable.map((e) => (e ? 1 : 0)))],
        wd: req.wd,
        page: req.page,
        size: req.size,
      });
      return { advertisement: rows, total };
    },
  }),
]);
