import type { Database } from '../../db';
import { clamp } from '../../wire/request';
import { rpc } from '../../platform/rpc';
import { categoriesWithDepth } from '../category/service';
import { hotDocuments } from './hot';
import {
  ListDocumentReply,
  ListDocumentsForYouRequest,
  ListHotDocumentsRequest,
} from '../../../shared/messages/document';
import { presentDocuments } from './present';
import { viewerOf } from './read-rpcs';
import { categoryIdsOf, documentsForMember, documentsReadOrFavourited } from './store';

// Across the library (ours, docs/api.md): the 热门文档 ranking and 猜你喜欢.

const FOR_YOU_LIMIT = 12;

/** The deepest category of each of these documents (a document filed at two depths counts its leaf). */
async function deepestCategoriesOf(db: Database, documentIds: readonly number[]): Promise<number[]> {
  const links = await categoryIdsOf(db, documentIds);
  const depth = new Map((await categoriesWithDepth(db, [...links.values()].flat())).map((c) => [c.id, c.depth]));
  const deepest = new Set<number>();
  for (const ids of links.values()) {
    const max = Math.max(...ids.map((id) => depth.get(id) ?? 0));
    for (const id of ids) if ((depth.get(id) ?? 0) === max) deepest.add(id);
  }
  return [...deepest];
}

const HOT_PAGE_SIZE = 20;

export const libraryRpcs = [
  rpc('ListHotDocuments', {
    http: 'GET /api/v1/document/hot',
    request: ListHotDocumentsRequest,
    response: ListDocumentReply,
    auth: 'public',
    async handler(req, ctx) {
      const size = req.size > 0 ? clamp(req.size, 1, 50) : HOT_PAGE_SIZE;
      const { rows, total } = await hotDocuments(ctx.db, Math.max(1, req.page), size);
      const cfg = await ctx.app.settings.snapshot();
      return { document: await presentDocuments(ctx.db, rows, { viewer: await viewerOf(ctx), cfg }), total };
    },
  }),

  rpc('ListDocumentsForYou', {
    http: 'GET /api/v1/document/foryou',
    request: ListDocumentsForYouRequest,
    response: ListDocumentReply,
    auth: 'login',
    async handler(req, ctx) {
      const me = ctx.requireUser();
      const limit = req.limit > 0 ? clamp(req.limit, 1, 24) : FOR_YOU_LIMIT;
      const categories = await deepestCategoriesOf(ctx.db, await documentsReadOrFavourited(ctx.db, me.id));
      const rows = await documentsForMember(ctx.db, me.id, categories, limit);
      const cfg = await ctx.app.settings.snapshot();
      return { document: await presentDocuments(ctx.db, rows, { viewer: await viewerOf(ctx), cfg }) };
    },
  }),
];
