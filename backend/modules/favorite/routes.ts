import type { Database } from '../../db';
import { databaseNow, lockRows } from '../../db/dialect';
import { startOfServerDay } from '../../db/schema';
import type { ConfigSnapshot } from '../../platform/config-store';
import { badRequest, conflict, forbidden, notFound } from '../../wire/errors';
import { IdsRequest } from '../../../shared/messages/common';
import { mapUnique, requireIds } from '../../wire/request';
import { defineService, rpc, type RpcContext } from '../../platform/rpc';
import { bumpCounter, documentById, documentsByIds, isPublic, listedDocumentFields } from '../document/service';
import { PunishmentType, isBarred } from '../punishment/service';
import { DynamicType, addCredit, addDynamic, bumpFavoriteCount, dynamicCredits, dynamicTitle } from '../user/service';
import { articleTitles, bumpArticleFavorites, publishedArticles, publishedFavoriteCount } from '../article/service';
import {
  Favorite,
  GetFavoriteRequest,
  ListFavoriteReply,
  ListFavoriteRequest,
} from '../../../shared/messages/favorite';
import {
  FavoriteType,
  countAwardsSince,
  deleteOwnFavorites,
  findFavorite,
  insertFavorite,
  listFavorites,
} from './store';

// FavoriteAPI: a member's favourite documents and articles. The target's favourite counter
// and the member's follow every create and delete; a document's uploader earns
// score.document_collected credits per favourite, at most score.document_collected_limit
// times a day (never for favouriting one's own document).

const ALREADY = '您已经收藏过了';

interface Target {
  type: FavoriteType;
  id: number;
  title: string;
  ownerId: number;
}

function favoriteType(type: number): FavoriteType {
  if (type !== FavoriteType.Document && type !== FavoriteType.Article)
    throw badRequest('收藏类型不正确（0 文档，1 文章）');
  return type;
}

/** What the member may favourite: a document strangers may see (or their own), or a published article. */
async function targetOf(ctx: RpcContext, type: FavoriteType, id: number, userId: number): Promise<Target> {
  if (type === FavoriteType.Article) {
    const article = (await publishedArticles(ctx.db, [id])).get(id);
    if (!article) throw notFound('文章不存在');
    return { type, id, title: article.title, ownerId: article.user_id };
  }
  const doc = id > 0 ? await documentById(ctx.db, id) : undefined;
  if (!doc || doc.deleted_at !== null || (!isPublic(doc) && doc.user_id !== userId)) throw notFound('文档不存在');
  return { type, id, title: doc.title, ownerId: doc.user_id };
}

async function bumpTarget(db: Database, type: number, id: number, delta: number): Promise<void> {
  if (type === FavoriteType.Article) await bumpArticleFavorites(db, id, delta);
  else await bumpCounter(db, id, 'favorite_count', delta);
}

/** The search indexes sort by favourites too: they get the new count (derived data, so a failure is only logged). */
async function syncFavoriteCount(ctx: RpcContext, type: number, id: number): Promise<void> {
  try {
    if (type === FavoriteType.Article) {
      const favoriteCount = await publishedFavoriteCount(ctx.db, id);
      if (favoriteCount !== undefined) await ctx.app.search.article.updateAttributes(id, { favoriteCount });
    } else {
      const fresh = await documentById(ctx.db, id);
      if (fresh) await ctx.app.search.document.updateAttributes(id, { favoriteCount: fresh.favorite_count });
    }
  } catch (error) {
    ctx.request.log.error({ err: error, type, target: id }, 'updating the favourite count in the search index failed');
  }
}

/**
 * Credits the uploader earns for this favourite (0 past the daily limit, for articles and for
 * one's own document). Runs in the transaction: the config is read before it.
 */
async function awardFor(db: Database, cfg: ConfigSnapshot, target: Target, userId: number, at: Date): Promise<number> {
  if (target.type !== FavoriteType.Document || target.ownerId === userId || target.ownerId <= 0) return 0;
  const credits = cfg.int('score', 'document_collected');
  const limit = cfg.int('score', 'document_collected_limit');
  if (credits <= 0 || limit <= 0) return 0;
  return (await countAwardsSince(db, target.ownerId, startOfServerDay(at))) < limit ? credits : 0;
}

export const favoriteService = defineService('FavoriteAPI', [
  rpc('CreateFavorite', {
    http: 'POST /api/v1/favorite',
    request: Favorite,
    response: Favorite,
    auth: 'login',
    async handler(req, ctx) {
      const me = ctx.requireUser();
      if (await isBarred(ctx.db, me.id, PunishmentType.NoFavorite)) throw forbidden('您已经被禁止使用收藏功能');
      const target = await targetOf(ctx, favoriteType(req.type), req.document_id, me.id);
      if (await findFavorite(ctx.db, me.id, target.id, target.type)) throw conflict(ALREADY);
      const cfg = await ctx.app.settings.snapshot();
      const created = await mapUnique(
        ctx.db.transaction().execute(async (trx) => {
          // The owner's awards of the day are counted, then one more written: their row is locked first.
          await lockRows(trx, 'user', [me.id, target.ownerId]);
          // The database's clock: the owner's awards are counted, and the row stamped, on its day.
          const at = await databaseNow(trx);
          const award = await awardFor(trx, cfg, target, me.id, at);
          const row = await insertFavorite(
            trx,
            { userId: me.id, targetId: target.id, type: target.type, ownerId: target.ownerId, award },
            at,
          );
          await bumpTarget(trx, target.type, target.id, 1);
          await bumpFavoriteCount(trx, me.id, 1);
          const title = dynamicTitle(target.title);
          await addDynamic(
            trx,
            me.id,
            DynamicType.Favorite,
            `收藏了${target.type === FavoriteType.Article ? '文章' : '文档'}《${title}》`,
          );
          // The uploader reads where the credits came from, as for a paid download: their 最近动态 is their credit history.
          if (award > 0) {
            await addCredit(trx, target.ownerId, award);
            await addDynamic(
              trx,
              target.ownerId,
              DynamicType.DocumentFavorited,
              `文档《${title}》被收藏，获得 ${dynamicCredits(award, cfg.creditName())}`,
            );
          }
          return row;
        }),
        ALREADY,
      );
      await syncFavoriteCount(ctx, target.type, target.id);
      return created;
    },
  }),

  rpc('DeleteFavorite', {
    http: 'DELETE /api/v1/favorite',
    request: IdsRequest('DeleteFavoriteRequest'),
    auth: 'login',
    async handler(req, ctx) {
      const me = ctx.requireUser();
      const ids = requireIds(req.id, '收藏');
      const removed = await ctx.db.transaction().execute(async (trx) => {
        const rows = await deleteOwnFavorites(trx, me.id, ids);
        if (!rows.length) throw notFound('收藏不存在');
        for (const row of rows) await bumpTarget(trx, row.type, row.document_id, -1);
        await bumpFavoriteCount(trx, me.id, -rows.length);
        return rows;
      });
      for (const row of removed) await syncFavoriteCount(ctx, row.type, row.document_id);
      return {};
    },
  }),

  rpc('GetFavorite', {
    http: 'GET /api/v1/favorite',
    request: GetFavoriteRequest,
    response: Favorite,
    auth: 'login',
    async handler(req, ctx) {
      return (await findFavorite(ctx.db, ctx.requireUser().id, req.document_id, req.type)) ?? {};
    },
  }),

  rpc('ListFavorite', {
    http: 'GET /api/v1/favorite/list',
    request: ListFavoriteRequest,
    response: ListFavoriteReply,
    auth: 'login',
    async handler(req, ctx) {
      const { rows, total } = await listFavorites(ctx.db, ctx.requireUser().id, req.type, req.page, req.size);
      const targetIds = rows.map((r) => r.document_id);
      if (req.type === FavoriteType.Article) {
        const articles = await articleTitles(ctx.db, targetIds);
        const favorite = rows.map((r) => {
          const article = articles.get(r.document_id);
          return article ? { ...r, title: article.title, document_uuid: article.identifier } : r;
        });
        return { favorite, total };
      }
      const documents = new Map((await documentsByIds(ctx.db, targetIds)).map((d) => [d.id, d]));
      const favorite = rows.map((r) => {
        const doc = documents.get(r.document_id);
        return doc ? { ...r, ...listedDocumentFields(doc) } : r;
      });
      return { favorite, total };
    },
  }),
]);
