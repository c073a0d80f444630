import type { Database } from '../../db';
import { flag } from '../../db/schema';
import { ApiError, badRequest, Code, conflict } from '../../wire/errors';
import type { Decoded } from '../../wire/message';
import { IdRequest, IdsRequest } from '../../../shared/messages/common';
import { checkName, checkText, mapUnique, pick, requireIds, selectedFields } from '../../wire/request';
import { defineService, rpc } from '../../platform/rpc';
import { Category, ListCategoryReply, ListCategoryRequest } from '../../../shared/messages/category';
import {
  CATEGORY_COLUMNS,
  categoryOr404,
  deleteCategories,
  findParent,
  heldCategories,
  insertCategories,
  isBelow,
  type HeldCategory,
  listCategories,
  recountCategories,
  titleTaken,
  updateCategory,
} from './store';

// CategoryAPI: document (type 0) and article (type 1) categories, a tree through parent_id.
// `doc_count` is maintained by the document and article services. Every change is told to
// `contentChanges` in its transaction: the categories sitemap follows (its job commits with it);
// and again once committed, for the listeners that read what changed (the gateway's pages).

const DUPLICATE = '分类名称已存在';

function checkImage(value: string, label: string): string {
  if (value && !/^(\/uploads\/|https?:\/\/)/.test(value)) throw badRequest(`${label}必须是上传后的图片地址`);
  return checkText(value, label, { max: 255 });
}

/** Categories named in a refusal at most; the rest are counted. */
const NAMED_HELD = 3;

/**
 * Why `DeleteCategory` deletes nothing: the categories still holding documents or articles,
 * with how many, and how many of those the 文档数/文章数 column (`doc_count`) leaves out.
 */
function stillHolds(held: readonly HeldCategory[]): ApiError {
  const parts = held.slice(0, NAMED_HELD).map((c) => {
    const [noun, hidden] = c.type === 1 ? ['文章', '未发布'] : ['文档', '未公开'];
    const unlisted = c.unlisted ? `（其中 ${c.unlisted} 篇${hidden}，不计入${noun}数）` : '';
    return `“${c.title}”下还有 ${c.items} 篇${noun}${unlisted}`;
  });
  const more = held.length > NAMED_HELD ? `，另有 ${held.length - NAMED_HELD} 个分类也还有内容` : '';
  return new ApiError(
    Code.FailedPrecondition,
    `分类${parts.join('、')}${more}，不能删除；请先把它们移到其他分类或删除后再试`,
  );
}

async function checkParent(db: Database, parentId: number, type: number, selfId = 0): Promise<number> {
  if (parentId <= 0) return 0;
  if (parentId === selfId) throw badRequest('上级分类不能是分类自己');
  const parent = await findParent(db, parentId);
  if (!parent) throw badRequest('上级分类不存在');
  if (parent.type !== type) throw badRequest('上级分类的类型与本分类不一致');
  if (selfId && (await isBelow(db, parentId, selfId))) throw badRequest('不能把分类移动到它自己的下级');
  return parentId;
}

function commonColumns(req: Decoded<typeof Category>) {
  if (req.type !== 0 && req.type !== 1) throw badRequest('分类类型必须是 0（文档分类）或 1（文章分类）');
  return {
    sort: req.sort,
    cover: checkImage(req.cover, '分类封面'),
    icon: checkImage(req.icon, '分类图标'),
    description: checkText(req.description, '分类描述', { max: 500, multiline: true }),
    show_description: flag(req.show_description),
    type: req.type,
  };
}

export const categoryService = defineService('CategoryAPI', [
  rpc('CreateCategory', {
    http: 'POST /api/v1/category',
    request: Category,
    auth: 'perm',
    permission: '新增文档分类',
    async handler(req, ctx) {
      const columns = commonColumns(req);
      // One category per non-empty line of the title (MOREDOC's batch creation); a line typed twice makes one.
      const lines = req.title.split('\n').filter((line) => line.trim() !== '');
      const titles = [...new Set(lines.map((line) => checkName(line, '分类名称', { required: true, max: 64 })))];
      if (!titles.length) throw badRequest('分类名称不能为空');
      const parentId = await checkParent(ctx.db, req.parent_id, req.type);
      // A title that exists under this parent refuses the whole batch (409), before anything is
      // written; mapUnique covers a creation of the same title meanwhile.
      for (const title of titles)
        if (await titleTaken(ctx.db, { id: 0, type: req.type, parent_id: parentId, title })) throw conflict(DUPLICATE);
      // enable is always true on creation, as in MOREDOC (gorm applies the DB default).
      await mapUnique(
        ctx.db.transaction().execute(async (trx) => {
          await insertCategories(
            trx,
            titles.map((title) => ({ ...columns, title, parent_id: parentId, enable: 1 })),
          );
          await ctx.app.contentChanges.tellInTransaction({ content: 'category', ids: [] }, trx);
        }),
        DUPLICATE,
      );
      await ctx.app.contentChanges.tell({ content: 'category', ids: [] });
      return {};
    },
  }),

  rpc('UpdateCategory', {
    http: 'PUT /api/v1/category',
    request: Category,
    auth: 'perm',
    permission: '更新文档分类',
    async handler(req, ctx) {
      if (req.id <= 0) throw badRequest('请选择分类（参数 id）');
      const columns = commonColumns(req);
      const title = checkName(req.title, '分类名称', { required: true, max: 64 });
      await categoryOr404(ctx.db, req.id);
      const parentId = await checkParent(ctx.db, req.parent_id, req.type, req.id);
      if (await titleTaken(ctx.db, { id: req.id, type: req.type, parent_id: parentId, title }))
        throw conflict(DUPLICATE);
      await ctx.db.transaction().execute(async (trx) => {
        await mapUnique(
          updateCategory(trx, req.id, { ...columns, title, parent_id: parentId, enable: flag(req.enable) }),
          DUPLICATE,
        );
        await recountCategories(trx, req.type as 0 | 1);
        await ctx.app.contentChanges.tellInTransaction({ content: 'category', ids: [req.id] }, trx);
      });
      await ctx.app.contentChanges.tell({ content: 'category', ids: [req.id] });
      return {};
    },
  }),

  rpc('DeleteCategory', {
    http: 'DELETE /api/v1/category',
    request: IdsRequest('DeleteCategoryRequest'),
    auth: 'perm',
    permission: '删除文档分类',
    async handler(req, ctx) {
      const ids = requireIds(req.id, '分类');
      await ctx.db.transaction().execute(async (trx) => {
        // All or nothing: a category holding something (in any status, which `doc_count` does
        // not show) refuses the whole request, so that the admin is never told it went.
        const held = await heldCategories(trx, ids);
        if (held.length) throw stillHolds(held);
        await deleteCategories(trx, ids);
        await ctx.app.contentChanges.tellInTransaction({ content: 'category', ids }, trx);
      });
      await ctx.app.contentChanges.tell({ content: 'category', ids });
      return {};
    },
  }),

  rpc('GetCategory', {
    http: 'GET /api/v1/category',
    request: IdRequest('GetCategoryRequest'),
    response: Category,
    auth: 'perm',
    permission: '根据ID查询文档分类',
    async handler(req, ctx) {
      return categoryOr404(ctx.db, req.id);
    },
  }),

  rpc('ListCategory', {
    http: 'GET /api/v1/category/list',
    request: ListCategoryRequest,
    response: ListCategoryReply,
    auth: 'public',
    permission: '查询文档分类列表',
    async handler(req, ctx) {
      const rows = await listCategories(ctx.db, {
        types: req.type.length ? [...new Set(req.type)] : [0],
        parents: req.parent_id.filter((id) => id >= 0),
        // Visitors see enabled categories only; the filters are the admin's.
        enable: ctx.permitted ? [...new Set(req.enable.map((e) => flag(e)))] : [1],
        wd: ctx.permitted ? req.wd : '',
        page: req.page,
        size: req.size,
      });
      const fields = selectedFields(req.field, CATEGORY_COLUMNS);
      return { category: rows.map((r) => pick(r, fields)) };
    },
  }),
]);
