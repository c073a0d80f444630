import { now, flag } from '../../db/schema';
import type { Database } from '../../db';
import { ApiError, Code, badRequest } from '../../wire/errors';
import { message, type Decoded } from '../../wire/message';
import { Group, IdRequest, IdsRequest } from '../../wire/messages';
import { defineService, rpc } from '../../platform/rpc';
import { applyPaging, checkText, likePattern, mapUnique, pick, positiveIds, requireIds, rowOr404, selectedFields } from '../../wire/request';

// GroupAPI: user groups (roles), their feature flags and their permission grants.

const GetGroupRequest = message('GetGroupRequest', { id: 'int64', title: 'string' });
const ListGroupRequest = message('ListGroupRequest', { wd: 'string', page: 'int64', size: 'int64', sort: 'string', field: 'string[]' });
const ListGroupReply = message('ListGroupReply', { group: [Group], total: 'int64' });
const GroupPermissions = message('GroupPermissions', { permission_id: 'int64[]' });
const UpdateGroupPermissionRequest = message('UpdateGroupPermissionRequest', { group_id: 'int64', permission_id: 'int64[]' });

const GROUP_COLUMNS = [
  'id', 'title', 'color', 'is_default', 'is_display', 'description', 'user_count', 'sort', 'enable_upload',
  'enable_comment_approval', 'created_at', 'updated_at', 'enable_comment', 'enable_document_review',
  'enable_article', 'enable_article_approval',
];
const DUPLICATE_TITLE = '分组名称已存在';

type GroupInput = Decoded<typeof Group>;

function groupColumns(req: GroupInput) {
  return {
    title: checkText(req.title.trim(), '用户组名称', { required: true, max: 64 }),
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

async function groupOr404(db: Database, id: number) {
  if (id <= 0) throw badRequest('请选择用户组（参数 id）');
  return rowOr404(db, 'group', id, '用户组不存在');
}

export const groupService = defineService('GroupAPI', [
  rpc('CreateGroup', {
    http: 'POST /api/v1/group', request: Group, response: Group, auth: 'perm', permission: '创建用户组',
    async handler(req, ctx) {
      const columns = groupColumns(req);
      return ctx.db.transaction().execute(async (trx) => {
        const ts = now();
        if (req.is_default) await trx.updateTable('group').set({ is_default: 0 }).execute();
        return mapUnique(trx.insertInto('group').values({ ...columns, created_at: ts, updated_at: ts }).returningAll().executeTakeFirstOrThrow(), DUPLICATE_TITLE);
      });
    },
  }),

  rpc('UpdateGroup', {
    http: 'PUT /api/v1/group', request: Group, auth: 'perm', permission: '更新用户组',
    async handler(req, ctx) {
      const columns = groupColumns(req);
      await groupOr404(ctx.db, req.id);
      await ctx.db.transaction().execute(async (trx) => {
        if (req.is_default) {
          await trx.updateTable('group').set({ is_default: 0 }).where('id', '!=', req.id).execute();
        } else {
          const other = await trx.selectFrom('group').select('id').where('is_default', '=', 1).where('id', '!=', req.id).executeTakeFirst();
          if (!other) throw new ApiError(Code.FailedPrecondition, '至少要有一个默认用户组');
        }
        await mapUnique(trx.updateTable('group').set({ ...columns, updated_at: now() }).where('id', '=', req.id).execute(), DUPLICATE_TITLE);
      });
      return {};
    },
  }),

  rpc('DeleteGroup', {
    http: 'DELETE /api/v1/group', request: IdsRequest('DeleteGroupRequest'), auth: 'perm', permission: '删除用户组',
    async handler(req, ctx) {
      const ids = requireIds(req.id, '用户组');
      const blocked = await ctx.db.selectFrom('group').select('id').where('id', 'in', ids)
        .where((eb) => eb.or([eb('is_default', '=', 1), eb('user_count', '>', 0),
          eb.exists(eb.selectFrom('user_group').select('id').whereRef('user_group.group_id', '=', 'group.id'))]))
        .executeTakeFirst();
      if (blocked) throw new ApiError(Code.FailedPrecondition, '默认分组以及分组下存在用户的组不能删除');
      await ctx.db.deleteFrom('group').where('id', 'in', ids).execute();
      return {};
    },
  }),

  rpc('GetGroup', {
    http: 'GET /api/v1/group', request: GetGroupRequest, response: Group, auth: 'public',
    async handler(req, ctx) {
      return (await ctx.db.selectFrom('group').selectAll().where('id', '=', req.id).executeTakeFirst()) ?? {};
    },
  }),

  rpc('ListGroup', {
    http: 'GET /api/v1/group/list', request: ListGroupRequest, response: ListGroupReply, auth: 'public', permission: '获取用户组列表',
    async handler(req, ctx) {
      let query = ctx.db.selectFrom('group');
      if (ctx.permitted && req.wd.trim()) query = query.where('title', 'like', likePattern(req.wd));
      const rows = await applyPaging(query.selectAll().orderBy('sort', 'desc').orderBy('id', 'asc'), req.page, req.size).execute();
      const fields = selectedFields(req.field, GROUP_COLUMNS);
      const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      return { group: rows.map((r) => pick(r, fields)), total: Number(total) };
    },
  }),

  rpc('GetGroupPermission', {
    http: 'GET /api/v1/group/permission', request: IdRequest('GetGroupPermissionRequest'), response: GroupPermissions,
    auth: 'perm', permission: '获取用户组授权',
    async handler(req, ctx) {
      await groupOr404(ctx.db, req.id);
      const rows = await ctx.db.selectFrom('group_permission').select('permission_id').where('group_id', '=', req.id).orderBy('permission_id').execute();
      return { permission_id: rows.map((r) => r.permission_id) };
    },
  }),

  rpc('UpdateGroupPermission', {
    http: 'PUT /api/v1/group/permission', request: UpdateGroupPermissionRequest, auth: 'perm', permission: '给用户组授权',
    async handler(req, ctx) {
      if (req.group_id <= 0) throw badRequest('请选择用户组（参数 group_id）');
      await groupOr404(ctx.db, req.group_id);
      const ids = positiveIds(req.permission_id);
      if (ids.length) {
        const { n } = await ctx.db.selectFrom('permission').select((eb) => eb.fn.countAll<number>().as('n')).where('id', 'in', ids).executeTakeFirstOrThrow();
        if (Number(n) !== ids.length) throw badRequest('权限不存在（参数 permission_id）');
      }
      await ctx.db.transaction().execute(async (trx) => {
        const ts = now();
        await trx.deleteFrom('group_permission').where('group_id', '=', req.group_id).execute();
        if (ids.length) {
          await trx.insertInto('group_permission').values(ids.map((permission_id) => ({ group_id: req.group_id, permission_id, created_at: ts, updated_at: ts }))).execute();
        }
      });
      return {};
    },
  }),
]);
