import { flag } from '../../db/schema';
import { badRequest } from '../../wire/errors';
import type { Decoded } from '../../wire/message';
import { IdRequest, IdsRequest } from '../../../shared/messages/common';
import { checkName, checkText, listVisibility, pick, requireIds, selectedFields } from '../../wire/request';
import { defineService, rpc } from '../../platform/rpc';
import { Friendlink, ListFriendlinkReply, ListFriendlinkRequest } from '../../../shared/messages/friendlink';
import {
  FRIENDLINK_COLUMNS,
  deleteFriendlinks,
  friendlinkOr404,
  insertFriendlink,
  listFriendlinks,
  updateFriendlink,
  type FriendlinkColumns,
} from './store';

// FriendlinkAPI: the footer's friend links. Visitors see enabled links with id, title, link.

const PUBLIC_COLUMNS = ['id', 'title', 'link'];

function columnsOf(req: Decoded<typeof Friendlink>): FriendlinkColumns {
  const link = checkText(req.link.trim(), '友链地址', { required: true, max: 500 });
  if (!/^https?:\/\/[^\s]+$/i.test(link)) throw badRequest('友链地址必须以 http:// 或 https:// 开头');
  return {
    title: checkName(req.title, '友链名称', { required: true, max: 64 }),
    link,
    description: checkText(req.description, '友链描述', { max: 255, multiline: true }),
    sort: req.sort,
    enable: flag(req.enable),
  };
}

export const friendlinkService = defineService('FriendlinkAPI', [
  rpc('CreateFriendlink', {
    http: 'POST /api/v1/friendlink',
    request: Friendlink,
    response: Friendlink,
    auth: 'perm',
    permission: '创建友链',
    async handler(req, ctx) {
      return insertFriendlink(ctx.db, columnsOf(req));
    },
  }),

  rpc('UpdateFriendlink', {
    http: 'PUT /api/v1/friendlink',
    request: Friendlink,
    auth: 'perm',
    permission: '更新友链',
    async handler(req, ctx) {
      if (req.id <= 0) throw badRequest('参数不正确（参数 id）');
      const columns = columnsOf(req);
      await friendlinkOr404(ctx.db, req.id);
      await updateFriendlink(ctx.db, req.id, columns);
      return {};
    },
  }),

  rpc('DeleteFriendlink', {
    http: 'DELETE /api/v1/friendlink',
    request: IdsRequest('DeleteFriendlinkRequest'),
    auth: 'perm',
    permission: '删除友链',
    async handler(req, ctx) {
      await deleteFriendlinks(ctx.db, requireIds(req.id, '友链'));
      return {};
    },
  }),

  rpc('GetFriendlink', {
    // Public in MOREDOC too: the seeded permission row is never evaluated.
    http: 'GET /api/v1/friendlink',
    request: IdRequest('GetFriendlinkRequest'),
    response: Friendlink,
    auth: 'public',
    permission: '根据ID查询友链',
    async handler(req, ctx) {
      return friendlinkOr404(ctx.db, req.id);
    },
  }),

  rpc('ListFriendlink', {
    http: 'GET /api/v1/friendlink/list',
    request: ListFriendlinkRequest,
    response: ListFriendlinkReply,
    auth: 'public',
    permission: '查看友链列表',
    async handler(req, ctx) {
      const { rows, total } = await listFriendlinks(ctx.db, {
        ...listVisibility(ctx.permitted, req.enable, req.wd),
        page: req.page,
        size: req.size,
      });
      const fields = ctx.permitted ? selectedFields(req.field, FRIENDLINK_COLUMNS) : PUBLIC_COLUMNS;
      return { friendlink: rows.map((r) => pick(r, fields)), total };
    },
  }),
]);
