import { sql } from 'kysely';
import type { Database } from '../../db';
import { flag, now } from '../../db/schema';
import { badRequest, conflict } from '../../wire/errors';
import { message, type Decoded } from '../../wire/message';
import { Category, IdRequest, IdsRequest } from '../../wire/messages';
import { defineService, rpc } from '../../platform/rpc';
import { applyPaging, checkText, likePattern, mapUnique, pick, requireIds, rowOr404, selectedFields } from '../../wire/request';
import { deleteSubtrees, isInSubtree } from '../../db/tree';

// CategoryAPI: document (type 0) and article (type 1) categories, a tree through parent_id.
// `doc_count` is maintained by the document and article services.

const ListCategoryRequest = message('ListCategoryRequest', {
  page: 'int64', size: 'int64', parent_id: 'int64[]', wd: 'string', enable: 'bool[]', field: 'string[]', type: 'int32[]',
});
const ListCategoryReply = message('ListCategoryReply', { total: 'int64', category: [Category] });

const COLUMNS = ['id', 'parent_id', 'title', 'doc_count', 'sort', 'enable', 'cover', 'created_at', 'updated_at', 'icon', 'description', 'show_description', 'type'];
const DUPLICATE = '分类名称已存在';

function checkImage(value: string, label: string): string {
  if (value && !/^(\/uploads\/|https?:\/\/)/.test(value)) throw badRequest(`${label}必须是上传后的图片地址`);
  return checkText(value, label, { max: 255 });
}

async function checkParent(db: Database, parentId: number, type: number, selfId = 0): Promise<number> {
  if (parentId <= 0) return 0;
  if (parentId === selfId) throw badRequest('上级分类不能是分类自己');
  const parent = await db.selectFrom('category').select(['id', 'type']).where('id', '=', parentId).executeTakeFirst();
  if (!parent) throw badRequest('上级分类不存在');
  if (parent.type !== type) throw badRequest('上级分类的类型与本分类不一致');
  if (selfId && (await isInSubtree(db, 'category', parentId, selfId))) throw badRequest('不能把分类移动到它自己的下级');
  return parentId;
}

/**
 * Recomputes `doc_count` of every category of a type: the distinct non-deleted documents
 * (type 0) or articles (type 1) linked to the category or to any of its descendants.
 * Document and article services call this after changing links.
 */
export async function recountCategories(db: Database, type: 0 | 1): Promise<void> {
  const links = type === 0
    ? sql`SELECT dc.category_id AS category_id, dc.document_id AS item_id FROM document_category dc
        JOIN document d ON d.id = dc.document_id WHERE d.deleted_at IS NULL`
    : sql`SELECT ac.category_id AS category_id, ac.article_id AS item_id FROM article_category ac
        JOIN article a ON a.id = ac.article_id WHERE a.deleted_at IS NULL`;
  await sql`WITH RECURSIVE tree(ancestor_id, id) AS (
      SELECT id, id FROM category WHERE type = ${type}
      UNION ALL SELECT tree.ancestor_id, c.id FROM category c JOIN tree ON c.parent_id = tree.id WHERE c.type = ${type})
    UPDATE category SET doc_count = (
      SELECT count(DISTINCT links.item_id) FROM tree JOIN (${links}) links ON links.category_id = tree.id
      WHERE tree.ancestor_id = category.id)
    WHERE type = ${type}`.execute(db);
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
    http: 'POST /api/v1/category', request: Category, auth: 'perm', permission: '新增文档分类',
    async handler(req, ctx) {
      const columns = commonColumns(req);
      // One category per non-empty line of the title (MOREDOC's batch creation).
      const titles = [...new Set(req.title.split('\n').map((t) => t.trim()).filter(Boolean))];
      if (!titles.length) throw badRequest('分类名称不能为空');
      titles.forEach((t) => checkText(t, '分类名称', { max: 64 }));
      const parentId = await checkParent(ctx.db, req.parent_id, req.type);
      await ctx.db.transaction().execute(async (trx) => {
        const ts = now();
        for (const title of titles) {
          // enable is always true on creation, as in MOREDOC (gorm applies the DB default).
          await trx.insertInto('category').values({ ...columns, title, parent_id: parentId, enable: 1, created_at: ts, updated_at: ts })
            .onConflict((oc) => oc.columns(['type', 'parent_id', 'title']).doNothing()).execute();
        }
      });
      return {};
    },
  }),

  rpc('UpdateCategory', {
    http: 'PUT /api/v1/category', request: Category, auth: 'perm', permission: '更新文档分类',
    async handler(req, ctx) {
      if (req.id <= 0) throw badRequest('请选择分类（参数 id）');
      const columns = commonColumns(req);
      const title = checkText(req.title.trim(), '分类名称', { required: true, max: 64 });
      await rowOr404(ctx.db, 'category', req.id, '分类不存在');
      const parentId = await checkParent(ctx.db, req.parent_id, req.type, req.id);
      const clash = await ctx.db.selectFrom('category').select('id').where('type', '=', req.type).where('parent_id', '=', parentId)
        .where('title', '=', title).where('id', '!=', req.id).executeTakeFirst();
      if (clash) throw conflict(DUPLICATE);
      await ctx.db.transaction().execute(async (trx) => {
        await mapUnique(trx.updateTable('category').set({ ...columns, title, parent_id: parentId, enable: flag(req.enable), updated_at: now() })
          .where('id', '=', req.id).execute(), DUPLICATE);
        await recountCategories(trx, req.type as 0 | 1);
      });
      return {};
    },
  }),

  rpc('DeleteCategory', {
    http: 'DELETE /api/v1/category', request: IdsRequest('DeleteCategoryRequest'), auth: 'perm', permission: '删除文档分类',
    async handler(req, ctx) {
      const ids = requireIds(req.id, '分类');
      // Only categories without documents go, together with their document-less descendants.
      await deleteSubtrees(ctx.db, 'category', ids, 'doc_count');
      return {};
    },
  }),

  rpc('GetCategory', {
    http: 'GET /api/v1/category', request: IdRequest('GetCategoryRequest'), response: Category, auth: 'perm', permission: '根据ID查询文档分类',
    async handler(req, ctx) {
      return rowOr404(ctx.db, 'category', req.id, '分类不存在');
    },
  }),

  rpc('ListCategory', {
    http: 'GET /api/v1/category/list', request: ListCategoryRequest, response: ListCategoryReply, auth: 'public', permission: '查询文档分类列表',
    async handler(req, ctx) {
      const types = req.type.length ? [...new Set(req.type)] : [0];
      let query = ctx.db.selectFrom('category').selectAll().where('type', 'in', types);
      const parents = req.parent_id.filter((id) => id >= 0);
      if (parents.length) query = query.where('parent_id', 'in', parents);
      if (!ctx.permitted) query = query.where('enable', '=', 1);
      else {
        if (req.enable.length) query = query.where('enable', 'in', [...new Set(req.enable.map((e) => flag(e)))]);
        if (req.wd.trim()) query = query.where('title', 'like', likePattern(req.wd));
      }
      const rows = await applyPaging(query.orderBy('parent_id', 'asc').orderBy('sort', 'desc').orderBy('title', 'asc'), req.page, req.size).execute();
      const fields = selectedFields(req.field, COLUMNS);
      return { category: rows.map((r) => pick(r, fields)) };
    },
  }),
]);

