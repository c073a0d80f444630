import type { Database } from '../../db';
import { flag } from '../../db/schema';
import { badRequest } from '../../wire/errors';
import type { Decoded } from '../../wire/message';
import { IdRequest, IdsRequest } from '../../../shared/messages/common';
import { checkLink, checkName, checkText, pick, requireIds, selectedFields } from '../../wire/request';
import { defineService, rpc } from '../../platform/rpc';
import { ListNavigationReply, ListNavigationRequest, Navigation } from '../../../shared/messages/navigation';
import {
  NAVIGATION_COLUMNS,
  deleteNavigations,
  findNavigation,
  insertNavigation,
  isBelow,
  listNavigations,
  navigationExists,
  navigationOr404,
  updateNavigation,
  type NavigationColumns,
} from './store';

// NavigationAPI: the site's header menu, a tree through parent_id. The seeded entries are
// `fixed` and cannot be deleted.

async function columnsOf(db: Database, req: Decoded<typeof Navigation>, selfId = 0): Promise<NavigationColumns> {
  if (!['', '_self', '_blank'].includes(req.target)) throw badRequest('打开方式只能是 _self 或 _blank');
  if (!/^[#A-Za-z0-9(),.%\s-]*$/.test(req.color) || req.color.length > 32) throw badRequest('颜色格式不正确');
  const parentId = req.parent_id === selfId ? 0 : Math.max(req.parent_id, 0);
  if (parentId > 0) {
    if (!(await navigationExists(db, parentId))) throw badRequest('上级导航不存在');
    if (selfId && (await isBelow(db, parentId, selfId))) throw badRequest('不能把导航移动到它自己的下级');
  }
  return {
    title: checkName(req.title, '导航名称', { required: true, max: 64 }),
    href: checkLink(req.href, '导航链接', { required: true }),
    target: req.target || '_self',
    color: req.color,
    sort: req.sort,
    enable: flag(req.enable),
    parent_id: parentId,
    description: checkText(req.description, '导航描述', { max: 255, multiline: true }),
  };
}

export const navigationService = defineService('NavigationAPI', [
  rpc('CreateNavigation', {
    http: 'POST /api/v1/navigation',
    request: Navigation,
    response: Navigation,
    auth: 'perm',
    permission: '新增导航',
    async handler(req, ctx) {
      return insertNavigation(ctx.db, await columnsOf(ctx.db, req));
    },
  }),

  rpc('UpdateNavigation', {
    http: 'PUT /api/v1/navigation',
    request: Navigation,
    auth: 'perm',
    permission: '编辑导航',
    async handler(req, ctx) {
      if (req.id <= 0) throw badRequest('请选择导航（参数 id）');
      await navigationOr404(ctx.db, req.id);
      await updateNavigation(ctx.db, req.id, await columnsOf(ctx.db, req, req.id));
      return {};
    },
  }),

  rpc('DeleteNavigation', {
    http: 'DELETE /api/v1/navigation',
    request: IdsRequest('DeleteNavigationRequest'),
    auth: 'perm',
    permission: '删除导航',
    async handler(req, ctx) {
      await deleteNavigations(ctx.db, requireIds(req.id, '导航'));
      return {};
    },
  }),

  rpc('GetNavigation', {
    http: 'GET /api/v1/navigation',
    request: IdRequest('GetNavigationRequest'),
    response: Navigation,
    auth: 'public',
    async handler(req, ctx) {
      return (await findNavigation(ctx.db, req.id)) ?? {};
    },
  }),

  rpc('ListNavigation', {
    http: 'GET /api/v1/navigation/list',
    request: ListNavigationRequest,
    response: ListNavigationReply,
    auth: 'public',
    permission: '查看导航列表',
    async handler(req, ctx) {
      const { rows, total } = await listNavigations(ctx.db, {
        wd: ctx.permitted ? req.wd : '',
        order: req.order,
        page: req.page,
        size: req.size,
      });
      const fields = selectedFields(req.field, NAVIGATION_COLUMNS);
      return { navigation: rows.map((r) => pick(r, fields)), total };
    },
  }),
]);
