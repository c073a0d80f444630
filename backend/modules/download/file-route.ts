import type { FastifyInstance, FastifyReply } from 'fastify';
import { attachmentDisposition, parseByteRange } from '../../wire/file-headers';
import type { BackendContext } from '../../platform/context';
import { documentById, fileHashOf, originalKey } from '../document/service';
import { verifyDownload } from './link';

// `GET /download/<token>?user_id=…&document_id=…&filename=…` (docs/moredoc.md §9): the
// original file of a document, for whoever holds a valid link. Unlike MOREDOC, a link whose
// claims disagree with its query is refused (MOREDOC writes its 400 and serves anyway), the
// file and its name come from the document (never from the `filename` parameter), Chinese
// names travel as RFC 6266 `filename*`, and one byte range resumes a broken download. With
// S3_PRESIGNED_DOWNLOADS the answer is a redirect to a presigned URL of the bucket instead.

const TYPES: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.ppt': 'application/vnd.ms-powerpoint',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.xls': 'application/vnd.ms-excel',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.odt': 'application/vnd.oasis.opendocument.text',
  '.odp': 'application/vnd.oasis.opendocument.presentation',
  '.ods': 'application/vnd.oasis.opendocument.spreadsheet',
  '.rtf': 'application/rtf',
  '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.epub': 'application/epub+zip',
  '.mobi': 'application/x-mobipocket-ebook',
  '.chm': 'application/vnd.ms-htmlhelp',
};

const EXPIRED = '下载链接已失效';

function refuse(reply: FastifyReply, status: number, text: string) {
  return reply
    .code(status)
    .header('content-type', 'text/plain; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(text);
}

const firstValue = (value: unknown): string =>
  Array.isArray(value) ? String(value[0] ?? '') : typeof value === 'string' ? value : '';

export function serveDownload(app: FastifyInstance, ctx: BackendContext): void {
  // A wildcard, not `:token`: a JWT is longer than the router's 100-character limit on parameters.
  app.get<{ Params: { '*': string }; Querystring: Record<string, unknown> }>('/download/*', async (request, reply) => {
    const grant = await verifyDownload(ctx, request.params['*'], {
      userId: firstValue(request.query.user_id),
      documentId: firstValue(request.query.document_id),
    });
    if (!grant) return refuse(reply, 400, EXPIRED);
    const doc = await documentById(ctx.db, grant.documentId);
    if (!doc || doc.hash !== grant.hash) return refuse(reply, 404, '文档不存在');
    const key = originalKey(await fileHashOf(ctx.db, [doc]), doc.ext);
    const stat = await ctx.blobs.stat(key);
    if (!stat) return refuse(reply, 404, '文档文件不存在');

    const contentType = TYPES[doc.ext.toLowerCase()] ?? 'application/octet-stream';
    const disposition = attachmentDisposition(`${doc.title}${doc.ext}`);
    if (ctx.blobs.presignedUrl) {
      // S3_PRESIGNED_DOWNLOADS: the rights were decided above; the bytes come from the bucket.
      const location = await ctx.blobs.presignedUrl(key, { disposition, contentType });
      return reply.code(302).header('location', location).header('cache-control', 'private, no-store').send();
    }

    // Content-addressed: the hash is a strong validator for If-Range and If-None-Match.
    const etag = `"${doc.hash}"`;
    reply
      .header('content-type', contentType)
      .header('content-disposition', disposition)
      .header('accept-ranges', 'bytes')
      .header('etag', etag)
      .header('last-modified', stat.mtime.toUTCString())
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();

    const ifRange = request.headers['if-range'];
    const range = ifRange === undefined || ifRange === etag ? parseByteRange(request.headers.range, stat.size) : null;
    if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${stat.size}`).send();
    const blob = await ctx.blobs.get(key, range ?? undefined);
    if (!blob) return refuse(reply, 404, '文档文件不存在');
    reply.header('content-length', blob.length);
    if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${stat.size}`);
    return reply.send(blob.stream);
  });
}
