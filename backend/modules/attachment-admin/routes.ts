import type { Selectable } from 'kysely';
import type { AttachmentTable } from '../../db/schema';
import { flag } from '../../db/schema';
import { resourceTypeOptions } from '../../../shared/constants';
import { badRequest, notFound } from '../../wire/errors';
import { IdRequest, IdsRequest } from '../../../shared/messages/common';
import { checkName, checkText, positiveIds, requireIds } from '../../wire/request';
import type { BackendContext } from '../../platform/context';
import { defineService, rpc, type RpcContext } from '../../platform/rpc';
import { documentsByIds, hashHasDocuments, isMd5, outputFolder } from '../document/service';
import { withUsernames } from '../user/service';
import {
  DOCUMENT_ATTACHMENT_TYPE,
  attachmentOr404,
  deleteAttachmentRows,
  hashesInUse,
  listAttachments,
  liveAttachmentsByIds,
  updateAttachmentInfo,
} from '../attachment/service';
import { Attachment, ListAttachmentReply, ListAttachmentRequest } from '../../../shared/messages/attachment';

// AttachmentAPI: every uploaded file for the admin — list, look at, rename, ban (enable =
// false refuses future uploads of the same bytes) and delete. MOREDOC refuses deletion
// outright; here a row is deleted and its file goes with it once no other row uses the hash.
// A module of its own: it asks the document module (which builds on attachments) whether a
// file still belongs to a document, and the attachment module's tables through its service.

type AttachmentRow = Selectable<AttachmentTable>;

/** `type_name` of ListAttachment (docs/moredoc.md §12): the label, empty for "unknown". */
const typeName = (type: number) => (type === 0 ? '' : (resourceTypeOptions.find((o) => o.value === type)?.label ?? ''));

async function withNames(ctx: BackendContext, rows: AttachmentRow[]) {
  return (await withUsernames(ctx.db, rows)).map((r) => ({ ...r, type_name: typeName(r.type) }));
}

/** The blobs of a file: the stored file, and for a document the folder of its pages and covers. */
function blobKeysOf(row: AttachmentRow): { files: string[]; folders: string[] } {
  const key = row.path.replace(/^\/+/, '');
  if (!/^(uploads|documents)\//.test(key)) return { files: [], folders: [] };
  return {
    files: [key],
    folders: row.type === DOCUMENT_ATTACHMENT_TYPE && isMd5(row.hash) ? [outputFolder(row.hash)] : [],
  };
}

async function removeFiles(ctx: RpcContext, rows: AttachmentRow[]): Promise<void> {
  for (const row of rows) {
    const { files, folders } = blobKeysOf(row);
    try {
      for (const key of files) await ctx.app.blobs.delete(key);
      for (const folder of folders) await ctx.app.blobs.deletePrefix(folder);
    } catch (error) {
      // The rows are gone already; a file that cannot be removed is only wasted space.
      ctx.request.log.warn({ err: error, attachment: row.id }, 'removing the files of a deleted attachment failed');
    }
  }
}

export const attachmentAdminService = defineService('AttachmentAPI', [
  rpc('UpdateAttachment', {
    http: 'PUT /api/v1/attachment',
    request: Attachment,
    auth: 'perm',
    permission: '更新附件信息',
    async handler(req, ctx) {
      if (req.id <= 0) throw badRequest('请选择附件（参数 id）');
      const name = checkName(req.name, '附件名称', { required: true, max: 255 });
      const description = checkText(req.description, '附件描述', { max: 255, multiline: true });
      await attachmentOr404(ctx.db, req.id);
      await updateAttachmentInfo(ctx.db, req.id, { name, enable: flag(req.enable), description });
      return {};
    },
  }),

  rpc('DeleteAttachment', {
    http: 'DELETE /api/v1/attachment',
    request: IdsRequest('DeleteAttachmentRequest'),
    auth: 'perm',
    permission: '删除附件',
    async handler(req, ctx) {
      const ids = requireIds(req.id, '附件');
      const orphaned = await ctx.db.transaction().execute(async (trx) => {
        const rows = await liveAttachmentsByIds(trx, ids);
        if (!rows.length) throw notFound('附件不存在');
        // The file of a document that still exists (even in the recycle bin) goes with the document, never alone.
        const documents = await documentsByIds(
          trx,
          rows.filter((r) => r.type === DOCUMENT_ATTACHMENT_TYPE && r.type_id > 0).map((r) => r.type_id),
        );
        const held = new Map(documents.map((d) => [d.id, d.title]));
        const blocked = rows.find((r) => r.type === DOCUMENT_ATTACHMENT_TYPE && held.has(r.type_id));
        if (blocked)
          throw badRequest(
            `附件“${blocked.name}”属于文档《${held.get(blocked.type_id)}》，请删除文档（并清空回收站）来删除它`,
          );
        await deleteAttachmentRows(
          trx,
          rows.map((r) => r.id),
        );
        const inUse = await hashesInUse(trx, [...new Set(rows.map((r) => r.hash))]);
        const orphans = [];
        for (const row of rows) if (!inUse.has(row.hash) && !(await hashHasDocuments(trx, row.hash))) orphans.push(row);
        return orphans;
      });
      await removeFiles(ctx, orphaned);
      return {};
    },
  }),

  rpc('GetAttachment', {
    http: 'GET /api/v1/attachment',
    request: IdRequest('GetAttachmentRequest'),
    response: Attachment,
    auth: 'perm',
    permission: '根据ID查询附件',
    async handler(req, ctx) {
      const [row] = await withNames(ctx.app, [await attachmentOr404(ctx.db, req.id)]);
      return row!;
    },
  }),

  rpc('ListAttachment', {
    http: 'GET /api/v1/attachment/list',
    request: ListAttachmentRequest,
    response: ListAttachmentReply,
    auth: 'perm',
    permission: '查看附件列表',
    async handler(req, ctx) {
      const ext = req.ext.trim().toLowerCase();
      const { rows, total } = await listAttachments(ctx.db, {
        userIds: positiveIds(req.user_id),
        enable: [...new Set(req.enable.map(flag))],
        types: [...new Set(req.type)],
        wd: req.wd,
        ext: ext && !ext.startsWith('.') ? `.${ext}` : ext,
        page: req.page,
        size: req.size,
      });
      return { attachment: await withNames(ctx.app, rows), total };
    },
  }),
]);
