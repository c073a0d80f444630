import { lockRows } from '../../db/dialect';
import { positiveIds, requireIds, selectedFields } from '../../wire/request';
import { rpc, type RpcContext } from '../../platform/rpc';
import { retireDocumentAttachments } from '../attachment/service';
import { recountListed } from './author-counts';
import { schedulePurges } from './file-purge';
import { refreshSearchIndex } from './indexing';
import {
  DeleteDocumentRequest,
  ListDocumentReply,
  ListDocumentRequest,
  RecoverRecycleDocumentRequest,
} from '../../../shared/messages/document';
import { presentDocuments } from './present';
import { documentFilter, viewerOf } from './read-rpcs';
import {
  DOCUMENT_COLUMNS,
  documentsByIds,
  fileHashesOf,
  listDocuments,
  purgeDocuments,
  recycledIds,
  restoreDocuments,
} from './store';

// RecycleAPI: documents deleted by their owners or the admins wait here; recovered, they
// count and can be found again; purged, their rows go at once and their files once nothing
// else uses the same content (file-purge.ts).

async function purge(ctx: RpcContext, ids: readonly number[]): Promise<void> {
  const purged = await ctx.db.transaction().execute(async (trx) => {
    const gone = await purgeDocuments(trx, ids);
    // The uploaded file goes too once nothing uses it, also when these documents' hash is not its own (documentHashFor).
    const files = await fileHashesOf(trx, gone);
    await retireDocumentAttachments(
      trx,
      gone.map((d) => d.attachment_id).filter((id) => id > 0),
    );
    await recountListed(trx, []);
    await schedulePurges(ctx.app, [...gone.map((d) => d.hash), ...files], trx);
    return gone;
  });
  await refreshSearchIndex(
    ctx.app,
    purged.map((d) => d.id),
  );
}

export const recycleRpcs = [
  rpc('ListRecycleDocument', {
    http: 'GET /api/v1/document/recycle',
    request: ListDocumentRequest,
    response: ListDocumentReply,
    auth: 'perm',
    permission: '获取回收站文档列表',
    async handler(req, ctx) {
      const filter = documentFilter(
        { ...req, limit: 0, is_recommend: [], ext: '', created_at: [], fee_type: '', language: [] },
        { privileged: true, recycled: true },
      );
      const { rows, total } = await listDocuments(ctx.db, { ...filter, order: 'deleted_at desc' });
      const document = await presentDocuments(ctx.db, rows, {
        viewer: await viewerOf(ctx),
        cfg: await ctx.app.settings.snapshot(),
        fields: selectedFields(req.field, DOCUMENT_COLUMNS),
      });
      return { document, total };
    },
  }),

  rpc('RecoverRecycleDocument', {
    http: 'PUT /api/v1/document/recycle',
    request: RecoverRecycleDocumentRequest,
    auth: 'perm',
    permission: '恢复回收站文档',
    async handler(req, ctx) {
      const ids = positiveIds(req.id);
      if (!ids.length) return {};
      const restored = await ctx.db.transaction().execute(async (trx) => {
        const owners = (await documentsByIds(trx, ids)).map((d) => d.user_id);
        await lockRows(trx, 'user', owners);
        const back = await restoreDocuments(trx, ids);
        await recountListed(
          trx,
          (await documentsByIds(trx, back)).map((d) => d.user_id),
        );
        return back;
      });
      await refreshSearchIndex(ctx.app, restored);
      return {};
    },
  }),

  rpc('DeleteRecycleDocument', {
    http: 'DELETE /api/v1/document/recycle',
    request: DeleteDocumentRequest,
    auth: 'perm',
    permission: '删除回收站文档',
    async handler(req, ctx) {
      await purge(ctx, requireIds(req.id, '文档'));
      return {};
    },
  }),

  rpc('ClearRecycleDocument', {
    http: 'DELETE /api/v1/document/recycle/all',
    auth: 'perm',
    permission: '清空回收站文档',
    input: 'none',
    async handler(_req, ctx) {
      await purge(ctx, await recycledIds(ctx.db));
      return {};
    },
  }),
];
