import type { FastifyInstance } from 'fastify';
import { DOCUMENT_EXTENSIONS } from '../../../shared/constants';
import { uploadPermissionPath } from '../../../shared/permissions';
import { badRequest, forbidden } from '../../wire/errors';
import { clientIp } from '../../wire/rpc';
import { uploadCaller } from '../../platform/auth/session';
import type { BackendContext } from '../../platform/context';
import { contentMismatchOf, externalConverterOf, pdfWithoutObjects } from '../../platform/convert/formats';
import { defineService, rpc } from '../../platform/rpc';
import {
  DOCUMENT_ATTACHMENT_TYPE,
  insertAttachment,
  maxUploadBytes,
  receiveFile,
  registerMultipartRoutes,
} from '../attachment/service';
import { DocumentFormats } from '../../../shared/messages/attachment';
import { mayUpload } from './access';
import { convertibleExtensions } from './environment';
import { ownDocumentOfFile } from './store';

// `POST /api/v1/upload/document` (docs/moredoc.md §8): the file of a future document,
// streamed into the blob store as documents/<h0>/…/<h4>/<md5><ext> (one stored original per
// content) and recorded as an attachment of type 2 that CreateDocument then links. The file
// is received by the attachment module, as every upload is; what a document may be is decided here.

const NOT_A_DOCUMENT = '不支持的文档类型';
/** A PDF with no content at all (pdfWithoutObjects): its conversion could only fail. */
const EMPTY_PDF = 'PDF 文件已损坏或不完整（其中没有任何内容），请上传完整的文件';

/** The extensions the site takes: the supported ones, narrowed by `security.document_allowed_ext` when set. */
async function configuredExtensions(ctx: BackendContext): Promise<string[]> {
  const supported = DOCUMENT_EXTENSIONS.map((ext) => `.${ext}`);
  const configured = (await ctx.settings.snapshot())
    .list('security', 'document_allowed_ext')
    .map((ext) => `.${ext.toLowerCase().replace(/^\.+/, '')}`);
  return configured.length ? supported.filter((ext) => configured.includes(ext)) : supported;
}

/**
 * What an upload may be now: what the site takes, of it what converts now (an Office file
 * without LibreOffice would only fail), and the refusal of the rest, which says what to upload instead.
 */
export async function acceptedExtensions(
  ctx: BackendContext,
): Promise<{ extensions: string[]; refusal: (ext: string) => string }> {
  const configured = await configuredExtensions(ctx);
  const convertible = new Set((await convertibleExtensions(ctx)).map((ext) => `.${ext}`));
  const refusal = (ext: string) => {
    const needs = configured.includes(ext) ? externalConverterOf(ext) : null;
    // The uploader knows no LibreOffice or calibre: what to do instead (the admins' 系统环境 names the program).
    if (needs === 'libreoffice') return `本站暂时无法转换 ${ext} 格式的文档，请另存为 PDF 后上传`;
    if (needs === 'calibre') return `本站暂时无法转换 ${ext} 格式的电子书，请转换为 EPUB 或 PDF 后上传`;
    return NOT_A_DOCUMENT;
  };
  return { extensions: configured.filter((ext) => convertible.has(ext)), refusal };
}

async function registerDocumentUpload(app: FastifyInstance, ctx: BackendContext): Promise<void> {
  await registerMultipartRoutes(app, (scope) =>
    scope.post(
      uploadPermissionPath('document'),
      { config: { errorShape: 'http', readsBodyItself: true } },
      async (request, reply) => {
        const user = await uploadCaller(ctx, request.headers.authorization, null);
        if (!(await mayUpload(ctx.db, user.id))) throw forbidden('没有权限上传文档');
        const accepted = await acceptedExtensions(ctx);
        const file = await receiveFile(ctx, request, reply, {
          folder: 'documents',
          extensions: accepted.extensions,
          badExtension: accepted.refusal,
          maxBytes: await maxUploadBytes(ctx),
          // A file whose bytes belie its extension would only fail its conversion: refused now, kept nowhere.
          check(head, ext, size) {
            if (contentMismatchOf(ext, head))
              throw badRequest(`文件内容与扩展名 ${ext} 不符，请确认文件的格式后重新上传`);
            if (pdfWithoutObjects(head, size)) throw badRequest(EMPTY_PDF);
          },
        });
        const attachment = await insertAttachment(ctx.db, {
          hash: file.hash,
          user_id: user.id,
          type_id: 0,
          type: DOCUMENT_ATTACHMENT_TYPE,
          path: `/${file.key}`,
          name: file.name,
          size: file.size,
          width: 0,
          height: 0,
          ext: file.ext,
          ip: clientIp(request),
        });
        // `hash` and `document` are ours (MOREDOC answers the id alone): the upload form tells by
        // them the same bytes picked twice under other names (decision 054), and a file the
        // uploader has made a document of already (decision 090; docs/api.md §7).
        const published = await ownDocumentOfFile(ctx.db, user.id, file.hash, file.ext);
        const data = { id: attachment.id, hash: file.hash, ...(published ? { document: published } : {}) };
        return reply
          .code(200)
          .header('content-type', 'application/json; charset=utf-8')
          .send(JSON.stringify({ code: 200, message: 'ok', data }));
      },
    ),
  );
}

export const documentUploadService = defineService(
  'upload',
  [
    // Ours: what the upload page offers, so that it lists only the formats that convert now.
    rpc('GetDocumentFormats', {
      http: 'GET /api/v1/document/formats',
      response: DocumentFormats,
      auth: 'public',
      input: 'none',
      async handler(_req, ctx) {
        return { ext: (await acceptedExtensions(ctx.app)).extensions };
      },
    }),
  ],
  { routes: registerDocumentUpload },
);
