import { badRequest, notFound } from '../../wire/errors';
import { IdRequest } from '../../../shared/messages/common';
import { checkName, checkText } from '../../wire/request';
import { defineService, rpc } from '../../platform/rpc';
import { ListPermissionReply, ListPermissionRequest, Permission } from '../../../shared/messages/permission';
import { describePermission, listPermissions, permissionOr404 } from './store';

// PermissionAPI: the permission rows themselves (generated from the route table at start);
// admins may only rename them.

export const permissionService = defineService('PermissionAPI', [
  rpc('UpdatePermission', {
    http: 'PUT /api/v1/permission',
    request: Permission,
    auth: 'perm',
    permission: '更新权限信息',
    async handler(req, ctx) {
      if (req.id <= 0) throw badRequest('请选择权限（参数 id）');
      const title = checkName(req.title, '权限名称', { max: 64 });
      const description = checkText(req.description, '权限描述', { max: 255, multiline: true });
      if (!(await describePermission(ctx.db, req.id, title, description))) throw notFound('权限不存在');
      return {};
    },
  }),

  rpc('GetPermission', {
    http: 'GET /api/v1/permission',
    request: IdRequest('GetPermissionRequest'),
    response: Permission,
    auth: 'perm',
    permission: '根据ID查询权限',
    async handler(req, ctx) {
      return permissionOr404(ctx.db, req.id);
    },
  }),

  rpc('ListPermission', {
    http: 'GET /api/v1/permission/list',
    request: ListPermissionRequest,
    response: ListPermissionReply,
    auth: 'perm',
    permission: '获取权限列表',
    async handler(req, ctx) {
      const methods = [...new Set(req.method.map((m) => m.trim().toUpperCase()).filter(Boolean))];
      const { rows, total } = await listPermissions(ctx.db, {
        methods,
        wd: req.wd,
        path: req.path,
        page: req.page,
        size: req.size,
      });
      return { permission: rows, total };
    },
  }),
]);
