import { now } from '../../db/schema';
import { ReviewStatus } from '../../../shared/constants';
import { badRequest } from '../../wire/errors';
import { Empty } from '../../wire/message';
import { IdsRequest } from '../../../shared/messages/common';
import { checkText, clamp, requireIds } from '../../wire/request';
import { rpc, type RpcContext } from '../../platform/rpc';
import { recountCategories } from '../category/service';
import {
  CheckArticlesRequest,
  ListArticleReply,
  ListArticleRequest,
  RecommendArticlesRequest,
  SetArticlesCategoryRequest,
} from '../../../shared/messages/article';
import {
  articlesByIds,
  listArticles,
  purgeArticles,
  recycledIds,
  setCategoryLinks,
  setRecommendAt,
  setReview,
} from './store';
import { moveArticles } from './article-rpcs';
import { articlesChanged } from './changes';
import { checkArticleCategories, presentArticles } from './view';

// ArticleAPI for admins: filing, recommending and reviewing in batches, and the recycle bin.

const REVIEW_STATUSES: readonly number[] = Object.values(ReviewStatus);
const MAX_PAGE_SIZE = 100;

/** Permanently removes recycled articles with their comments (the comment module hears of it in the transaction). */
async function purge(ctx: RpcContext, ids: number[]): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await ctx.app.contentChanges.tellInTransaction({ content: 'article', ids, purged: true }, trx);
    await purgeArticles(trx, ids);
  });
  await articlesChanged(ctx.app, ids);
}

export const adminRpcs = [
  rpc('SetArticlesCategory', {
    http: 'PUT /api/v1/article/category',
    request: SetArticlesCategoryRequest,
    auth: 'perm',
    permission: '文章批量分类',
    async handler(req, ctx) {
      const ids = requireIds(req.article_id, '文章');
      const categoryIds = await checkArticleCategories(ctx.db, req.category_id);
      await ctx.db.transaction().execute(async (trx) => {
        await setCategoryLinks(
          trx,
          (await articlesByIds(trx, ids, false)).map((r) => r.id),
          categoryIds,
        );
        await recountCategories(trx, 1);
      });
      await articlesChanged(ctx.app, ids);
      return {};
    },
  }),

  rpc('RecommendArticles', {
    http: 'PUT /api/v1/article/recommend',
    request: RecommendArticlesRequest,
    auth: 'perm',
    permission: '推荐文章',
    async handler(req, ctx) {
      await setRecommendAt(ctx.db, requireIds(req.article_id, '文章'), req.is_recommend ? now() : null);
      return {};
    },
  }),

  rpc('CheckArticles', {
    http: 'PUT /api/v1/article/check',
    request: CheckArticlesRequest,
    auth: 'perm',
    permission: '批量审批文章',
    async handler(req, ctx) {
      const ids = requireIds(req.article_id, '文章');
      if (!REVIEW_STATUSES.includes(req.status))
        throw badRequest('审核状态必须是 0（待审核）、1（审核通过）或 2（审核拒绝）');
      const reason = checkText(req.rejeact_reason.trim(), '拒绝原因', { max: 255, multiline: true });
      await ctx.db.transaction().execute(async (trx) => {
        await setReview(trx, ids, req.status, req.status === ReviewStatus.Rejected ? reason : '');
        // Published or withdrawn: the categories count what visitors can list.
        await recountCategories(trx, 1);
      });
      await articlesChanged(ctx.app, ids);
      return {};
    },
  }),

  rpc('ListRecycleArticle', {
    // MOREDOC serves this list to anybody (a quirk); the recycle bin is the admins' here.
    http: 'GET /api/v1/article/recycle/list',
    request: ListArticleRequest,
    response: ListArticleReply,
    auth: 'perm',
    permission: '查询回收站文章列表',
    async handler(req, ctx) {
      const { rows, total } = await listArticles(ctx.db, {
        deleted: true,
        statuses: [],
        categoryIds: [],
        userIds: [],
        wd: req.wd,
        wdInContent: true,
        order: 'deleted_at desc',
        page: Math.max(req.page, 1),
        size: clamp(req.size || 10, 1, MAX_PAGE_SIZE),
      });
      return { article: await presentArticles(ctx.db, rows), total };
    },
  }),

  rpc('RestoreRecycleArticle', {
    http: 'POST /api/v1/article/recycle/restore',
    request: IdsRequest('RestoreArticleRequest'),
    auth: 'perm',
    permission: '从回收站恢复文章',
    async handler(req, ctx) {
      const rows = await articlesByIds(ctx.db, requireIds(req.id, '文章'), true);
      await moveArticles(ctx, rows, null);
      return {};
    },
  }),

  rpc('DeleteRecycleArticle', {
    http: 'DELETE /api/v1/article/recycle',
    request: IdsRequest('DeleteArticleRequest'),
    auth: 'perm',
    permission: '删除回收站文章',
    async handler(req, ctx) {
      const rows = await articlesByIds(ctx.db, requireIds(req.id, '文章'), true);
      await purge(
        ctx,
        rows.map((r) => r.id),
      );
      return {};
    },
  }),

  rpc('EmptyRecycleArticle', {
    http: 'DELETE /api/v1/article/recycle/empty',
    request: Empty,
    auth: 'perm',
    permission: '清空回收站文章',
    input: 'none',
    async handler(_req, ctx) {
      await purge(ctx, await recycledIds(ctx.db));
      return {};
    },
  }),
];
