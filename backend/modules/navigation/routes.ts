import { sql } from 'kysely';
import type { Database } from '../../db';
import { flag, now } from '../../db/schema';
import { badRequest } from '../../wire/errors';
import { message, type Decoded } from '../../wire/message';
import { IdRequest, IdsRequest, Navigation } from '../../wire/messages';
import { defineService, rpc } from '../../platform/rpc';
import { applyPaging, checkLink, checkText, likePattern, parseOrder, pick, requireIds, rowOr404, selectedFields } from '../../wire/request';
import { deleteSubtrees, isInSubtree } from '../../db/tree';

// NavigationAPI: the site's header menu, a tree through parent_id. The seeded entries are
// `fixed` and cannot be deleted.

const ListNavigationRequest = message('ListNavigationRequest', { page: 'int64', size: 'int64', wd: 'string', field: 'string[]', order: 'string' });
const ListNavigationReply = message('ListNavigationReply', { total: 'int64', navigation: [Navigation] });

const COLUMNS = ['id', 'title', 'href', 'target', 'color', 'sort', 'enable', 'parent_id', 'description', 'created_at', 'updated_at', 'fixed'];

async function columnsOf(db: Database, req: Decoded<typeof Navigation>, selfId = 0) {
  if (!['', '_self', '_blank'].includes(req.target)) throw badRequest('打开方式只能是 _self 或 _blank');
  if (!/^[#A-Za-z0-9(),.%\s-]*$/.test(req.color) || req.color.length > 32) throw badRequest('颜色格式不正确');
  const parentId = req.parent_id === selfId ? 0 : Math.max(req.parent_id, 0);
  if (parentId > 0) {
    if (!(await db.selectFrom('navigation').select('id').where('id', '=', parentId).executeTakeFirst())) throw badRequest('上级导航不存在');
    if (selfId && (await isInSubtree(db, 'navigation', parentId, selfId))) throw badRequest('不能把导航移动到它自己的下级');
  }
  return {
    title: checkText(req.title.trim(), '导航名称', { required: true, max: 64 }),
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
    http: 'POST /api/v1/navigation', request: Navigation, response: Navigation, auth: 'perm', permission: '新增导航',
    async handler(req, ctx) {
      const columns = await columnsOf(ctx.db, req);
      const ts = now();
      return ctx.db.insertInto('navigation').values({ ...columns, fixed: 0, created_at: ts, updated_at: ts }).returningAll().executeTakeFirstOrThrow();
    },
  }),

  rpc('UpdateNavigation', {
    http: 'PUT /api/v1/navigation', request: Navigation, auth: 'perm', permission: '编辑导航',
    async handler(req, ctx) {
      if (req.id <= 0) throw badRequest('请选择导航（参数 id）');
      await rowOr404(ctx.db, 'navigation', req.id, '导航不存在');
      const columns = await columnsOf(ctx.db, req, req.id);
      await ctx.db.updateTable('navigation').set({ ...columns, updated_at: now() }).where('id', '=', req.id).execute();
      return {};
    },
  }),

  rpc('DeleteNavigation', {
    http: 'DELETE /api/v1/navigation', request: IdsRequest('DeleteNavigationRequest'), auth: 'perm', permission: '删除导航',
    async handler(req, ctx) {
      const ids = requireIds(req.id, '导航');
      // The entries and all their descendants, except fixed ones (and what hangs below them stays).
      await deleteSubtrees(ctx.db, 'navigation', ids, 'fixed');
      return {};
    },
  }),

  rpc('GetNavigation', {
    http: 'GET /api/v1/navigation', request: IdRequest('GetNavigationRequest'), response: Navigation, auth: 'public',
    async handler(req, ctx) {
      return (await ctx.db.selectFrom('navigation').selectAll().where('id', '=', req.id).executeTakeFirst()) ?? {};
    },
  }),

  rpc('ListNavigation', {
    http: 'GET /api/v1/navigation/list', request: ListNavigationRequest, response: ListNavigationReply, auth: 'public', permission: '查看导航列表',
    async handler(req, ctx) {
      let query = ctx.db.selectFrom('navigation');
      if (ctx.permitted && req.wd.trim()) {
        const p = likePattern(req.wd);
        query = query.where((eb) => eb.or([eb('title', 'like', p), eb('description', 'like', p), eb('href', 'like', p)]));
      }
      let rowsQuery = query.selectAll();
      const order = parseOrder(req.order, COLUMNS);
      for (const o of order.length ? order : [{ column: sql.ref('sort'), direction: 'desc' as const }]) rowsQuery = rowsQuery.orderBy(o.column, o.direction);
      const rows = await applyPaging(rowsQuery.orderBy('id', 'asc'), req.page, req.size).execute();
      const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      const fields = selectedFields(req.field, COLUMNS);
      return { navigation: rows.map((r) => pick(r, fields)), total: Number(total) };
    },
  }),
]);
