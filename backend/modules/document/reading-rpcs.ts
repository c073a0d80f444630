import type { Database } from '../../db';
import { badRequest, notFound } from '../../wire/errors';
import { clamp, positiveIds } from '../../wire/request';
import { categoriesWithDepth } from '../category/service';
import { rpc } from '../../platform/rpc';
import {
  DeleteReadingHistoryRequest,
  ListReadingHistoryReply,
  ListReadingHistoryRequest,
  ReadingPosition,
} from '../../../shared/messages/document';
import {
  categoryIdsOf,
  deleteReadingPositions,
  documentById,
  readingHistory,
  readingPosition,
  setReadingPosition,
} from './store';
import { seesDocument } from './access';

// Where a member last read a document (ours, docs/api.md): the reader keeps it as they read and
// offers "继续阅读（第 N 页）" when they open the document again, on any device. Visitors keep it
// in their browser. The same rows are the member's 最近阅读 (what, when, which page), which they
// may clear one by one or all at once.

const NOT_FOUND = '文档不存在';
const HISTORY_PAGE_SIZE = 10;

/** Each document's categories root → leaf (the reader's path takes the last). */
async function categoryTrails(db: Database, documentIds: readonly number[]): Promise<Map<number, number[]>> {
  const links = await categoryIdsOf(db, documentIds);
  const depth = new Map((await categoriesWithDepth(db, [...links.values()].flat())).map((c) => [c.id, c.depth]));
  return new Map(
    [...links].map(([id, ids]) => [id, [...ids].sort((a, b) => (depth.get(a) ?? 0) - (depth.get(b) ?? 0))]),
  );
}

export const readingRpcs = [
  rpc('GetReadingPosition', {
    http: 'GET /api/v1/document/reading',
    request: ReadingPosition,
    response: ReadingPosition,
    auth: 'login',
    async handler(req, ctx) {
      const found = await readingPosition(ctx.db, ctx.requireUser().id, req.document_id);
      return found ? { document_id: req.document_id, ...found } : {};
    },
  }),

  rpc('SetReadingPosition', {
    http: 'PUT /api/v1/document/reading',
    request: ReadingPosition,
    response: ReadingPosition,
    auth: 'login',
    async handler(req, ctx) {
      const user = ctx.requireUser();
      const row = await documentById(ctx.db, req.document_id);
      // A hidden document is its owner's and the document admins' (decision 096), as GetDocument answers it.
      if (!row || !(await seesDocument(ctx.db, user.id, row))) throw notFound(NOT_FOUND);
      const page = Math.min(Math.max(1, req.page), Math.max(1, row.pages));
      await setReadingPosition(ctx.db, user.id, row.id, page);
      return { document_id: row.id, page };
    },
  }),

  rpc('ListReadingHistory', {
    http: 'GET /api/v1/document/reading/list',
    request: ListReadingHistoryRequest,
    response: ListReadingHistoryReply,
    auth: 'login',
    async handler(req, ctx) {
      const size = req.size > 0 ? clamp(req.size, 1, 50) : HISTORY_PAGE_SIZE;
      const { rows, total } = await readingHistory(ctx.db, ctx.requireUser().id, Math.max(1, req.page), size);
      const trails = await categoryTrails(
        ctx.db,
        rows.map((r) => r.document_id),
      );
      return { total, reading: rows.map((r) => ({ ...r, category_id: trails.get(r.document_id) ?? [] })) };
    },
  }),

  rpc('DeleteReadingHistory', {
    http: 'DELETE /api/v1/document/reading',
    request: DeleteReadingHistoryRequest,
    auth: 'login',
    async handler(req, ctx) {
      const ids = positiveIds(req.document_id);
      if (!ids.length) throw badRequest('请选择要删除的阅读记录（参数 document_id）');
      if (!(await deleteReadingPositions(ctx.db, ctx.requireUser().id, ids))) throw notFound('阅读记录不存在');
      return {};
    },
  }),

  rpc('ClearReadingHistory', {
    http: 'DELETE /api/v1/document/reading/all',
    auth: 'login',
    async handler(_req, ctx) {
      await deleteReadingPositions(ctx.db, ctx.requireUser().id, null);
      return {};
    },
  }),
];
