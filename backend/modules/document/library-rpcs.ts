import { clamp } from '../../wire/request';
import { rpc } from '../../platform/rpc';
import { hotDocuments } from './hot';
import { ListDocumentReply, ListHotDocumentsRequest } from './messages';
import { presentDocuments } from './present';
import { viewerOf } from './read-rpcs';

// Across the library (ours, docs/api.md): the 热门文档 ranking.

const HOT_PAGE_SIZE = 20;

export const libraryRpcs = [
  rpc('ListHotDocuments', {
    http: 'GET /api/v1/document/hot', request: ListHotDocumentsRequest, response: ListDocumentReply, auth: 'public',
    async handler(req, ctx) {
      const size = req.size > 0 ? clamp(req.size, 1, 50) : HOT_PAGE_SIZE;
      const { rows, total } = await hotDocuments(ctx.db, Math.max(1, req.page), size);
      const cfg = await ctx.app.settings.snapshot();
      return { document: await presentDocuments(ctx.db, rows, { viewer: await viewerOf(ctx), cfg }), total };
    },
  }),
];
