import { notFound } from '../../wire/errors';
import { rpc } from '../../platform/rpc';
import { ReadingPosition } from './messages';
import { isPublic, documentById, readingPosition, setReadingPosition } from './store';
import { viewerOf } from './read-rpcs';

// Where a member last read a document (ours, docs/api.md): the reader keeps it as they read and
// offers "继续阅读（第 N 页）" when they open the document again, on any device. Visitors keep it
// in their browser.

const NOT_FOUND = '文档不存在';

export const readingRpcs = [
  rpc('GetReadingPosition', {
    http: 'GET /api/v1/document/reading', request: ReadingPosition, response: ReadingPosition, auth: 'login',
    async handler(req, ctx) {
      const found = await readingPosition(ctx.db, ctx.requireUser().id, req.document_id);
      return found ? { document_id: req.document_id, ...found } : {};
    },
  }),

  rpc('SetReadingPosition', {
    http: 'PUT /api/v1/document/reading', request: ReadingPosition, response: ReadingPosition, auth: 'login',
    async handler(req, ctx) {
      const user = ctx.requireUser();
      const row = await documentById(ctx.db, req.document_id);
      const viewer = await viewerOf(ctx);
      if (!row || (!isPublic(row) && !(viewer.admin || row.user_id === user.id))) throw notFound(NOT_FOUND);
      const page = Math.min(Math.max(1, req.page), Math.max(1, row.pages));
      await setReadingPosition(ctx.db, user.id, row.id, page);
      return { document_id: row.id, page };
    },
  }),
];
