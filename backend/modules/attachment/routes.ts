import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { UPLOAD_IMAGE_EXTENSIONS } from '../../../shared/constants';
import { uploadPermissionPath } from '../../../shared/permissions';
import { badRequest } from '../../wire/errors';
import { encode } from '../../wire/message';
import { clientIp } from '../../wire/rpc';
import { uploadCaller } from '../../platform/auth/session';
import type { BackendContext } from '../../platform/context';
import { defineService } from '../../platform/rpc';
import { DynamicType, addDynamic, updateProfile } from '../user/service';
import { imageSize, sniffImage } from './image';
import { Attachment } from './messages';
import { registerDocumentUpload } from './document-upload';
import { maxUploadBytes, receiveFile } from './receive-file';
import { insertAttachment, retireAttachments } from './store';

// Uploads: images `POST /api/v1/upload/avatar|config|banner|category` (contract README §8.2)
// streamed into the blob store while hashing, checked, then kept content-addressed as
// uploads/<h0>/<h1>/<h2>/<h3>/<h4>/<md5><ext> and recorded as an attachment; documents
// `POST /api/v1/upload/document` (document-upload.ts).

const IMAGE_EXTENSIONS = UPLOAD_IMAGE_EXTENSIONS.map((e) => `.${e}`);
const NOT_AN_IMAGE = `请上传图片格式文件，支持${IMAGE_EXTENSIONS.slice(0, -1).join('、')}和${IMAGE_EXTENSIONS.at(-1)}格式图片`;

/** Attachment types (endpoints.md §5.3) of the image uploads. */
const IMAGE_KINDS = {
  avatar: { type: 1, title: '更新头像', needsPermission: false },
  banner: { type: 5, title: '上传轮播图', needsPermission: true },
  category: { type: 6, title: '上传文档分类封面', needsPermission: true },
  config: { type: 7, title: '上传配置图片文件', needsPermission: true },
} as const;

async function registerUploadRoutes(app: FastifyInstance, ctx: BackendContext): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { files: 1, fields: 10, parts: 20 } });
    for (const [kind, def] of Object.entries(IMAGE_KINDS)) {
      const routePath = uploadPermissionPath(kind);
      scope.post(routePath, { config: { errorShape: 'http' } }, async (request, reply) => {
        const user = await uploadCaller(ctx, request.headers.authorization, def.needsPermission ? routePath : null);
        let dimensions = { width: 0, height: 0 };
        const file = await receiveFile(ctx, request, reply, {
          folder: 'uploads',
          extensions: IMAGE_EXTENSIONS,
          badExtension: NOT_AN_IMAGE,
          maxBytes: await maxUploadBytes(ctx),
          check(head) {
            const kindOf = sniffImage(head);
            if (!kindOf) throw badRequest(NOT_AN_IMAGE);
            dimensions = imageSize(kindOf, head);
          },
        });
        const urlPath = `/${file.key}`;
        const attachment = await ctx.db.transaction().execute(async (trx) => {
          if (kind === 'avatar') {
            await retireAttachments(trx, def.type, user.id);
            await updateProfile(trx, user.id, { avatar: urlPath });
            await addDynamic(trx, user.id, DynamicType.Avatar, '更新了头像');
          }
          return insertAttachment(trx, {
            hash: file.hash, user_id: user.id, type_id: kind === 'avatar' ? user.id : 0, type: def.type, path: urlPath, name: file.name,
            size: file.size, width: dimensions.width, height: dimensions.height, ext: file.ext, ip: clientIp(request),
          });
        });
        return reply.code(200).header('content-type', 'application/json; charset=utf-8')
          .send(JSON.stringify({ code: 200, message: '上传成功', data: encode(Attachment, attachment) }));
      });
    }
    registerDocumentUpload(scope, ctx);
  });
}

export const uploadService = defineService('upload', [], {
  permissions: Object.entries(IMAGE_KINDS).map(([kind, def]) => ({ method: 'POST', path: uploadPermissionPath(kind), title: def.title })),
  routes: registerUploadRoutes,
});
