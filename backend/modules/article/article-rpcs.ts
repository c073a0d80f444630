import type { Database } from '../../db';
import { lockRows } from '../../db/dialect';
import { now } from '../../db/schema';
import { PUBLISHED_ARTICLE_STATUS, ReviewStatus } from '../../../shared/constants';
import { badRequest, conflict, forbidden, notFound } from '../../wire/errors';
import { IdsRequest } from '../../../shared/messages/common';
import { clamp, mapUnique, positiveIds, requireIds } from '../../wire/request';
import { rpc, type RpcContext } from '../../platform/rpc';
import { enabledCategories, recountCategories } from '../category/service';
import { groupsOfUser } from '../group/service';
import { setArticleCount } from '../user/service';
import {
  Article,
  ArticleNeighbours,
  GetArticleNeighboursRequest,
  GetArticleRequest,
  ListArticleReply,
  ListArticleRequest,
} from '../../../shared/messages/article';
import { articleCategoryIds } from '../../../shared/page-data';
import { articleShownCategory } from '../../../shared/page-paths';
import {
  addView,
  articleNeighbours,
  articlesByIds,
  categoryIdsOf,
  countArticlesBy,
  findArticle,
  identifierTaken,
  insertArticle,
  listArticles,
  relatedArticles,
  setCategoryLinks,
  setDeletedAt,
  updateArticle,
  type ArticleRow,
} from './store';
import { articlesChanged } from './changes';
import { countArticleView } from './indexing';
import { publishRefusal } from './service';
import { articleInput, checkIdentifier, presentArticles, randomIdentifier, readableArticles } from './view';

// ArticleAPI for readers and authors: write, edit, delete to the recycle bin, read and list.
// Members whose group has `enable_article` write too; their articles wait for review unless
// one of those groups has `enable_article_approval` off. The permission rows give admins the
// same on everybody's articles.

const DUPLICATE_IDENTIFIER = '文章标识符已存在';
const NOT_FOUND = '文章不存在';
const RELATED_LIMIT = 10;
const MAX_PAGE_SIZE = 100;

/** 403 unless the member may publish: no punishment bars it and a group enables articles. */
async function assertMayPublish(db: Database, userId: number): Promise<void> {
  const refusal = await publishRefusal(db, userId);
  if (refusal) throw forbidden(refusal);
}

/** Does a member's article wait for review? Not when a group that enables articles skips it. */
async function needsReview(db: Database, userId: number): Promise<boolean> {
  const groups = await groupsOfUser(db, userId);
  return !groups.some((g) => g.enable_article === 1 && g.enable_article_approval === 0);
}

/**
 * After articles of these authors changed state: their counters and the category counts (the
 * published articles, docs/api.md "Counts visitors see").
 */
export async function afterArticlesMoved(db: Database, authorIds: readonly number[]): Promise<void> {
  // Counted, then written: the authors' rows are locked first.
  await lockRows(db, 'user', authorIds);
  for (const userId of new Set(authorIds)) await setArticleCount(db, userId, await countArticlesBy(db, userId));
  await recountCategories(db, 1);
}

/** Moves articles into the recycle bin (`deletedAt` set) or out of it (null), then says they changed. */
export async function moveArticles(
  ctx: RpcContext,
  rows: readonly Pick<ArticleRow, 'id' | 'user_id'>[],
  deletedAt: string | null,
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await setDeletedAt(
      trx,
      rows.map((r) => r.id),
      deletedAt,
    );
    await afterArticlesMoved(
      trx,
      rows.map((r) => r.user_id),
    );
  });
  await articlesChanged(
    ctx.app,
    rows.map((r) => r.id),
  );
}

async function liveArticleOr404(db: Database, id: number): Promise<ArticleRow> {
  const row = id > 0 ? await findArticle(db, { id }) : undefined;
  if (!row || row.deleted_at) throw notFound(NOT_FOUND);
  return row;
}

async function presentOne(ctx: RpcContext, row: ArticleRow) {
  return (await presentArticles(ctx.db, [row], true))[0]!;
}

export const articleRpcs = [
  rpc('CreateArticle', {
    http: 'POST /api/v1/article',
    request: Article,
    response: Article,
    auth: 'login',
    permission: '后台创建文章',
    async handler(req, ctx) {
      const me = ctx.requireUser();
      if (!ctx.permitted) await assertMayPublish(ctx.db, me.id);
      const { categoryIds, ...input } = await articleInput(ctx.db, req);
      const identifier = ctx.permitted && req.identifier.trim() ? checkIdentifier(req.identifier) : randomIdentifier();
      const published = ctx.permitted || !(await needsReview(ctx.db, me.id));
      const row = await mapUnique(
        ctx.db.transaction().execute(async (trx) => {
          if (await identifierTaken(trx, identifier)) throw conflict(DUPLICATE_IDENTIFIER);
          const created = await insertArticle(trx, {
            ...input,
            identifier,
            user_id: me.id,
            status: published ? ReviewStatus.Approved : ReviewStatus.Pending,
            reject_reason: '',
            recommend_at: ctx.permitted && req.is_recommend ? now() : null,
          });
          await setCategoryLinks(trx, [created.id], categoryIds);
          await afterArticlesMoved(trx, [me.id]);
          return created;
        }),
        DUPLICATE_IDENTIFIER,
      );
      await articlesChanged(ctx.app, [row.id]);
      return presentOne(ctx, row);
    },
  }),

  rpc('UpdateArticle', {
    http: 'PUT /api/v1/article',
    request: Article,
    auth: 'login',
    permission: '更新文章/单页',
    async handler(req, ctx) {
      const me = ctx.requireUser();
      if (req.id <= 0) throw badRequest('请选择文章（参数 id）');
      const current = await liveArticleOr404(ctx.db, req.id);
      if (current.user_id !== me.id && !ctx.permitted) throw forbidden('您没有权限修改此文章');
      const { categoryIds, ...input } = await articleInput(ctx.db, req);
      const identifier = ctx.permitted && req.identifier.trim() ? checkIdentifier(req.identifier) : current.identifier;
      // A rejected article goes back to review; a member whose group reviews articles cannot
      // turn an approved article into something else unseen.
      let status = current.status === ReviewStatus.Rejected ? ReviewStatus.Pending : current.status;
      if (!ctx.permitted && (await needsReview(ctx.db, me.id))) status = ReviewStatus.Pending;
      const recommendAt = ctx.permitted && req.is_recommend && !current.recommend_at ? now() : current.recommend_at;
      await mapUnique(
        ctx.db.transaction().execute(async (trx) => {
          if (await identifierTaken(trx, identifier, current.id)) throw conflict(DUPLICATE_IDENTIFIER);
          await updateArticle(trx, current.id, {
            ...input,
            identifier,
            status,
            reject_reason: status === current.status ? current.reject_reason : '',
            recommend_at: recommendAt,
          });
          await setCategoryLinks(trx, [current.id], categoryIds);
          // Its categories or its status (back to review) may have changed: the counts follow.
          await recountCategories(trx, 1);
        }),
        DUPLICATE_IDENTIFIER,
      );
      await articlesChanged(ctx.app, [current.id]);
      return {};
    },
  }),

  rpc('DeleteArticle', {
    http: 'DELETE /api/v1/article',
    request: IdsRequest('DeleteArticleRequest'),
    auth: 'login',
    permission: '删除文章',
    async handler(req, ctx) {
      const me = ctx.requireUser();
      const ids = requireIds(req.id, '文章');
      const rows = (await articlesByIds(ctx.db, ids, false)).filter((r) => ctx.permitted || r.user_id === me.id);
      if (!rows.length) {
        if (ctx.permitted) return {};
        throw forbidden('您没有权限删除指定文章');
      }
      await moveArticles(ctx, rows, now());
      return {};
    },
  }),

  rpc('GetArticle', {
    http: 'GET /api/v1/article',
    request: GetArticleRequest,
    response: Article,
    auth: 'public',
    permission: '查阅所有状态文章',
    async handler(req, ctx) {
      const identifier = req.identifier.trim();
      if (req.id <= 0 && !identifier) throw badRequest('请指定文章（参数 id 或 identifier）');
      const row = req.id > 0 ? await findArticle(ctx.db, { id: req.id }) : await findArticle(ctx.db, { identifier });
      if (!row || row.deleted_at) throw notFound(NOT_FOUND);
      const isAuthor = ctx.user?.id === row.user_id;
      if (row.status !== PUBLISHED_ARTICLE_STATUS && !isAuthor && !ctx.permitted)
        throw notFound('文章不存在或没有权限查看');
      // Readers' visits count, whether they came by id or identifier, once a day per address (decision 119); the
      // author's and admins' do not.
      if (
        row.status === PUBLISHED_ARTICLE_STATUS &&
        !isAuthor &&
        !ctx.permitted &&
        (await ctx.app.viewsSeen.firstToday('article', row.id, ctx.ip))
      ) {
        await addView(ctx.db, row.id);
        row.view_count += 1;
        await countArticleView(ctx.app, row.id);
      }
      return (await readableArticles(ctx, [await presentOne(ctx, row)]))[0]!;
    },
  }),

  rpc('ListArticle', {
    http: 'GET /api/v1/article/list',
    request: ListArticleRequest,
    response: ListArticleReply,
    auth: 'public',
    permission: '查询文章列表',
    async handler(req, ctx) {
      const userIds = positiveIds(req.user_id);
      const ownOnly = ctx.user !== null && userIds.length > 0 && userIds.every((id) => id === ctx.user!.id);
      const privileged = ctx.permitted || ownOnly;
      const recommend = [...new Set(req.is_recommend)];
      const { rows, total } = await listArticles(ctx.db, {
        deleted: false,
        statuses: privileged ? [...new Set(req.status)] : [PUBLISHED_ARTICLE_STATUS],
        categoryIds: positiveIds(req.category_id),
        userIds,
        ...(recommend.length === 1 ? { recommended: recommend[0]! } : {}),
        wd: privileged ? req.wd : '',
        order: req.order,
        page: Math.max(req.page, 1),
        size: clamp(req.size || 10, 1, MAX_PAGE_SIZE),
      });
      return { article: await readableArticles(ctx, await presentArticles(ctx.db, rows)), total };
    },
  }),

  rpc('GetRelatedArticles', {
    http: 'GET /api/v1/article/related',
    request: GetArticleRequest,
    response: ListArticleReply,
    auth: 'public',
    async handler(req, ctx) {
      const identifier = req.identifier.trim();
      if (!identifier && req.id <= 0) throw badRequest('参数错误:文章标识为空');
      const row = identifier ? await findArticle(ctx.db, { identifier }) : await findArticle(ctx.db, { id: req.id });
      if (!row || row.deleted_at || row.status !== PUBLISHED_ARTICLE_STATUS) throw notFound(NOT_FOUND);
      const categoryIds = (await presentArticles(ctx.db, [row]))[0]!.category_id;
      const related = await relatedArticles(ctx.db, row, categoryIds, RELATED_LIMIT);
      if (!related.length) throw notFound('相关文章不存在');
      return { article: await readableArticles(ctx, await presentArticles(ctx.db, related)) };
    },
  }),

  // Ours (docs/api.md §13.6): 上一篇 / 下一篇 in the list of the category the article is read
  // under, as that list shows it (the category and the enabled ones below it, newest first).
  rpc('GetArticleNeighbours', {
    http: 'GET /api/v1/article/neighbours',
    request: GetArticleNeighboursRequest,
    response: ArticleNeighbours,
    auth: 'public',
    async handler(req, ctx) {
      const identifier = req.identifier.trim();
      if (req.id <= 0 && !identifier) throw badRequest('请指定文章（参数 id 或 identifier）');
      const row = req.id > 0 ? await findArticle(ctx.db, { id: req.id }) : await findArticle(ctx.db, { identifier });
      if (!row || row.deleted_at || row.status !== PUBLISHED_ARTICLE_STATUS) throw notFound(NOT_FOUND);
      const shown = articleShownCategory(
        { category_id: (await categoryIdsOf(ctx.db, [row.id])).get(row.id) },
        req.category_id,
      );
      // A page filed under no category (关于我们, the other footer pages) stands alone.
      const listed = shown ? articleCategoryIds(await enabledCategories(ctx.db, 1), shown) : [];
      if (!listed.length) return {};
      const { previous, next } = await articleNeighbours(ctx.db, row.id, listed);
      const shownRows = await readableArticles(
        ctx,
        await presentArticles(
          ctx.db,
          [previous, next].filter((r) => r !== undefined),
        ),
      );
      const presented = (r: typeof previous) => r && shownRows.find((a) => a.id === r.id);
      return { previous: presented(previous), next: presented(next) };
    },
  }),
];
