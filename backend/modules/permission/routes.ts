import { sql } from 'kysely';
import { now } from '../../db/schema';
import { badRequest, notFound } from '../../wire/errors';
import { message } from '../../wire/message';
import { IdRequest, Permission } from '../../wire/messages';
import { defineService, rpc } from '../../platform/rpc';
import { applyPaging, checkText, likePattern, rowOr404 } from '../../wire/request';

// PermissionAPI: the permission rows themselves (generated from the route table at start);
// admins may only rename them.

const ListPermissionRequest = message('ListPermissionRequest', { page: 'int64', size: 'int64', wd: 'string', method: 'string[]', path: 'string' });
const ListPermissionReply = message('ListPermissionReply', { total: 'int64', permission: [Permission] });

export const permissionService = defineService('PermissionAPI', [
  rpc('UpdatePermission', {
    http: 'PUT /api/v1/permission', request: Permission, auth: 'perm', permission: '更新权限信息',
    async handler(req, ctx) {
      if (req.id <= 0) throw badRequest('请选择权限（参数 id）');
      const title = checkText(req.title, '权限名称', { max: 64 });
      const description = checkText(req.description, '权限描述', { max: 255, multiline: true });
      const result = await ctx.db.updateTable('permission').set({ title, description, updated_at: now() }).where('id', '=', req.id).executeTakeFirst();
      if (!result.numUpdatedRows) throw notFound('权限不存在');
      return {};
    },
  }),

  rpc('GetPermission', {
    http: 'GET /api/v1/permission', request: IdRequest('GetPermissionRequest'), response: Permission, auth: 'perm', permission: '根据ID查询权限',
    async handler(req, ctx) {
      return rowOr404(ctx.db, 'permission', req.id, '权限不存在');
    },
  }),

  rpc('ListPermission', {
    http: 'GET /api/v1/permission/list', request: ListPermissionRequest, response: ListPermissionReply, auth: 'perm', permission: '获取权限列表',
    async handler(req, ctx) {
      let query = ctx.db.selectFrom('permission');
      const methods = [...new Set(req.method.map((m) => m.trim().toUpperCase()).filter(Boolean))];
      if (methods.length) query = query.where(sql<string>`upper(method)`, 'in', methods);
      const likes: [string, string][] = [];
      if (req.wd.trim()) likes.push(['title', likePattern(req.wd)], ['description', likePattern(req.wd)]);
      if (req.path.trim()) likes.push(['path', likePattern(req.path)]);
      // All LIKE conditions are OR-ed together, as in MOREDOC (contract README §13).
      if (likes.length) query = query.where((eb) => eb.or(likes.map(([c, p]) => eb(sql.ref(c), 'like', p))));
      const permission = await applyPaging(query.selectAll().orderBy('path', 'asc'), req.page, req.size).execute();
      const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      return { permission, total: Number(total) };
    },
  }),
]);
