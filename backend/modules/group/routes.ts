import { lockKeys } from '../../db/dialect';
import { flag } from '../../db/schema';
import { ApiError, Code, badRequest, forbidden } from '../../wire/errors';
import type { Decoded } from '../../wire/message';
import { IdRequest, IdsRequest } from '../../../shared/messages/common';
import { checkName, checkText, mapUnique, pick, positiveIds, requireIds, selectedFields } from '../../wire/request';
import { firstPermissionNotHeld } from '../../platform/auth/session';
import { defineService, rpc } from '../../platform/rpc';
import { permissionsExist } from '../permission/service';
import {
  GetGroupRequest,
  Group,
  GroupPermissions,
  ListGroupReply,
  ListGroupRequest,
  UpdateGroupPermissionRequest,
} from '../../../shared/messages/group';
import {
  anyInUse,
  clearDefaultFlag,
  deleteGroups,
  findGroup,
  grantedPermissionIds,
  groupOr404,
  insertGroup,
  listGroups,
  otherDefaultExists,
  setGrants,
  updateGroup,
  type GroupColumns,
} from './store';

// GroupAPI: user groups (roles), their feature flags and their permission grants.

const GROUP_COLUMNS = [
  'id',
  'title',
  'color',
  'is_default',
  'is_display',
  'description',
  'user_count',
  'sort',
  'enable_upload',
  'enable_comment_approval',
  'created_at',
  'updated_at',
  'enable_comment',
  'enable_document_review',
  'enable_article',
  'enable_article_approval',
];
const DUPLICATE_TITLE = '分组名称已存在';

function groupColumns(req: Decoded<typeof Group>): GroupColumns {
  return {
    title: checkName(req.title, '用户组名称', { required: true, max: 64 }),
    color: checkText(req.color, '颜色', { max: 32 }),
    is_default: flag(req.is_default),
    is_display: flag(req.is_display),
    description: checkText(req.description, '描述', { max: 255, multiline: true }),
    sort: req.sort,
    enable_upload: flag(req.enable_upload),
    enable_document_review: flag(req.enable_document_review),
    enable_comment: flag(req.enable_comment),
    enable_comment_approval: flag(req.enable_comment_approval),
    enable_article: flag(req.enable_article),
    enable_article_approval: flag(req.enable_article_approval),
  };
}

export const groupService = defineService('GroupAPI', [
  rpc('CreateGroup', {
    http: 'POST /api/v1/group',
    request: Group,
    response: Group,
    auth: 'perm',
    permission: '创建用户组',
    async handler(req, ctx) {
      const columns = groupColumns(req);
      return ctx.db.transaction().execute(async (trx) => {
        // Which group is the default is read, then written: such changes take turns.
        await lockKeys(trx, ['group.default']);
        if (req.is_default) await clearDefaultFlag(trx);
        return mapUnique(insertGroup(trx, columns), DUPLICATE_TITLE);
      });
    },
  }),

  rpc('UpdateGroup', {
    http: 'PUT /api/v1/group',
    request: Group,
    auth: 'perm',
    permission: '更新用户组',
    async handler(req, ctx) {
      const columns = groupColumns(req);
      await groupOr404(ctx.db, req.id);
      await ctx.db.transaction().execute(async (trx) => {
        await lockKeys(trx, ['group.default']);
        if (req.is_default) await clearDefaultFlag(trx, req.id);
        else if (!(await otherDefaultExists(trx, req.id)))
          throw new ApiError(Code.FailedPrecondition, '至少要有一个默认用户组');
        await mapUnique(updateGroup(trx, req.id, columns), DUPLICATE_TITLE);
      });
      return {};
    },
  }),

  rpc('DeleteGroup', {
    http: 'DELETE /api/v1/group',
    request: IdsRequest('DeleteGroupRequest'),
    auth: 'perm',
    permission: '删除用户组',
    async handler(req, ctx) {
      const ids = requireIds(req.id, '用户组');
      if (await anyInUse(ctx.db, ids))
        throw new ApiError(Code.FailedPrecondition, '默认分组以及分组下存在用户的组不能删除');
      await deleteGroups(ctx.db, ids);
      return {};
    },
  }),

  rpc('GetGroup', {
    http: 'GET /api/v1/group',
    request: GetGroupRequest,
    response: Group,
    auth: 'public',
    async handler(req, ctx) {
      return (await findGroup(ctx.db, req.id)) ?? {};
    },
  }),

  rpc('ListGroup', {
    http: 'GET /api/v1/group/list',
    request: ListGroupRequest,
    response: ListGroupReply,
    auth: 'public',
    permission: '获取用户组列表',
    async handler(req, ctx) {
      const { rows, total } = await listGroups(ctx.db, {
        wd: ctx.permitted ? req.wd : '',
        page: req.page,
        size: req.size,
      });
      const fields = selectedFields(req.field, GROUP_COLUMNS);
      return { group: rows.map((r) => pick(r, fields)), total };
    },
  }),

  rpc('GetGroupPermission', {
    http: 'GET /api/v1/group/permission',
    request: IdRequest('GetGroupPermissionRequest'),
    response: GroupPermissions,
    auth: 'perm',
    permission: '获取用户组授权',
    async handler(req, ctx) {
      await groupOr404(ctx.db, req.id);
      return { permission_id: await grantedPermissionIds(ctx.db, req.id) };
    },
  }),

  rpc('UpdateGroupPermission', {
    http: 'PUT /api/v1/group/permission',
    request: UpdateGroupPermissionRequest,
    auth: 'perm',
    permission: '给用户组授权',
    async handler(req, ctx) {
      if (req.group_id <= 0) throw badRequest('请选择用户组（参数 group_id）');
      await groupOr404(ctx.db, req.group_id);
      const ids = positiveIds(req.permission_id);
      if (ids.length && !(await permissionsExist(ctx.db, ids))) throw badRequest('权限不存在（参数 permission_id）');
      // Only the rows the caller holds may change (decision 089): the others stay as they are.
      const before = await grantedPermissionIds(ctx.db, req.group_id);
      const changed = [...ids.filter((id) => !before.includes(id)), ...before.filter((id) => !ids.includes(id))];
      const notHeld = await firstPermissionNotHeld(ctx.db, ctx.requireUser().id, changed);
      if (notHeld) throw forbidden(`您没有【${notHeld.title}】权限，不能把它授予用户组或从用户组收回`);
      await ctx.db.transaction().execute((trx) => setGrants(trx, req.group_id, ids));
      return {};
    },
  }),
]);
