import type { FastifyInstance } from 'fastify';
import { DOCUMENT_EXTENSIONS } from '../../../shared/constants';
import { uploadPermissionPath } from '../../../shared/permissions';
import { forbidden } from '../../wire/errors';
import { clientIp } from '../../wire/rpc';
import { uploadCaller } from '../../platform/auth/session';
import type { BackendContext } from '../../platform/context';
import { mayUpload } from '../document/service';
import { maxUploadBytes, receiveFile } from './receive-file';
import { DOCUMENT_ATTACHMENT_TYPE, insertAttachment } from './store';

// `POST /api/v1/upload/document` (contract README §8.1): the file of a future document,
// streamed into the blob store as documents/<h0>/…/<h4>/<md5><ext> (one stored original per
// content) and recorded as an attachment of type 2 that CreateDocument then links.

const NOT_A_DOCUMENT = '不支持的文档类型';

/** The extensions an upload may have now: the supported ones, narrowed by `security.document_allowed_ext` when set. */
async function allowedExtensions(ctx: BackendContext): Promise<string[]> {
  const supported = DOCUMENT_EXTENSIONS.map((ext) => `.${ext}`);
  const configured = (await ctx.settings.snapshot()).list('security', 'document_allowed_ext')
    .map((ext) => `.${ext.toLowerCase().replace(/^\.+/, '')}`);
  return configured.length ? supported.filter((ext) => configured.includes(ext)) : supported;
}

export function registerDocumentUpload(scope: FastifyInstance, ctx: BackendContext): void {
  scope.post(uploadPermissionPath('document'), { config: { errorShape: 'http', readsBodyItself: true } }, async (request, reply) => {
    const user = await uploadCaller(ctx, request.headers.authorization, null);
    if (!(await mayUpload(ctx.db, user.id))) throw forbidden('没有权限上传文档');
    const file = await receiveFile(ctx, request, reply, {
      folder: 'documents',
      extensions: await allowedExtensions(ctx),
      badExtension: NOT_A_DOCUMENT,
      maxBytes: await maxUploadBytes(ctx),
    });
    const attachment = await insertAttachment(ctx.db, {
      hash: file.hash, user_id: user.id, type_id: 0, type: DOCUMENT_ATTACHMENT_TYPE, path: `/${file.key}`, name: file.name,
      size: file.size, width: 0, height: 0, ext: file.ext, ip: clientIp(request),
    });
    return reply.code(200).header('content-type', 'application/json; charset=utf-8')
      .send(JSON.stringify({ code: 200, message: 'ok', data: { id: attachment.id } }));
  });
}
