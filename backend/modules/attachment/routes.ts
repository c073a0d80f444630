import { addressKey } from '../../../shared/address-key';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../../db';
import { lockKeys } from '../../db/dialect';
import { UPLOAD_IMAGE_EXTENSIONS } from '../../../shared/constants';
import { uploadPermissionPath } from '../../../shared/permissions';
import { badRequest, forbidden, tooManyRequests } from '../../wire/errors';
import { encode } from '../../wire/message';
import { clientIp } from '../../wire/rpc';
import { hasPermission, resolveSession, uploadCaller } from '../../platform/auth/session';
import { tokenFromUploadHeader } from '../../platform/auth/tokens';
import type { BackendContext } from '../../platform/context';
import { defineService } from '../../platform/rpc';
import { publishRefusal } from '../article/service';
import { DynamicType, addDynamic, updateProfile } from '../user/service';
import { imageSize, sniffImage } from './image';
import { Attachment } from '../../../shared/messages/attachment';
import { maxUploadBytes, receiveFile, registerMultipartRoutes } from './receive-file';
import { countRecentUploads, insertAttachment, retireAttachments } from './store';

// Uploads: images `POST /api/v1/upload/avatar|config|banner|category|article` (docs/moredoc.md
// §8) and `feedback` (ours) streamed into the blob store while hashing, checked, then kept
// content-addressed as uploads/<h0>/<h1>/<h2>/<h3>/<h4>/<md5><ext> and recorded as an
// attachment; documents `POST /api/v1/upload/document` (the document module's upload.ts,
// through `receiveFile` too).

const IMAGE_EXTENSIONS = UPLOAD_IMAGE_EXTENSIONS.map((e) => `.${e}`);
const NOT_AN_IMAGE = `请上传图片格式文件，支持${IMAGE_EXTENSIONS.slice(0, -1).join('、')}和${IMAGE_EXTENSIONS.at(-1)}格式图片`;
/** A file named as an image whose bytes are none: its name was right, so the formats would not help. */
const UNREADABLE_IMAGE = '无法识别图片内容，文件可能已损坏或并非图片，请换一张图片';

/**
 * Who may upload: `member` any logged-in user, `permission` holders of the route's POST row,
 * `author` those too and members who may publish articles, `anyone` visitors as well (a
 * feedback screenshot), within `ANONYMOUS_UPLOADS_PER_HOUR` per address.
 */
type UploaderRule = 'member' | 'permission' | 'author' | 'anyone';

/** Attachment types (docs/moredoc.md §12; 8 is ours) of the image uploads. */
const IMAGE_KINDS: Readonly<Record<string, { type: number; title: string; uploader: UploaderRule }>> = {
  avatar: { type: 1, title: '更新头像', uploader: 'member' },
  banner: { type: 5, title: '上传轮播图', uploader: 'permission' },
  category: { type: 6, title: '上传文档分类封面', uploader: 'permission' },
  config: { type: 7, title: '上传配置图片文件', uploader: 'permission' },
  article: { type: 3, title: '上传文章图片和音视频', uploader: 'author' },
  feedback: { type: 8, title: '上传意见反馈截图', uploader: 'anyone' },
};

const ANONYMOUS_UPLOADS_PER_HOUR = 10;
const HOUR_MS = 60 * 60 * 1000;

/** The uploader's user id (0 for a visitor), or a 401/403/429 under the kind's rule. */
async function uploaderOf(
  ctx: BackendContext,
  request: FastifyRequest,
  rule: UploaderRule,
  routePath: string,
  type: number,
): Promise<number> {
  const authorization = request.headers.authorization;
  if (rule === 'member') return (await uploadCaller(ctx, authorization, null)).id;
  if (rule === 'permission') return (await uploadCaller(ctx, authorization, routePath)).id;
  if (rule === 'author') {
    const user = await uploadCaller(ctx, authorization, null);
    if (await hasPermission(ctx.db, user.id, 'POST', routePath)) return user.id;
    const refusal = await publishRefusal(ctx.db, user.id);
    if (refusal) throw forbidden(refusal);
    return user.id;
  }
  const user = await resolveSession(ctx, tokenFromUploadHeader(authorization));
  // Before the body is read, so that a visitor over the limit sends no more bytes.
  if (!user) await assertAnonymousUploadAllowed(ctx.db, type, { ip: clientIp(request), ipv6Prefix: ctx.ipv6Prefix });
  return user?.id ?? 0;
}

/** 429 when the address has had its `ANONYMOUS_UPLOADS_PER_HOUR` uploads of this type. */
async function assertAnonymousUploadAllowed(
  db: Database,
  type: number,
  client: { ip: string; ipv6Prefix: number },
): Promise<void> {
  if ((await countRecentUploads(db, type, client, HOUR_MS)) >= ANONYMOUS_UPLOADS_PER_HOUR) {
    throw tooManyRequests(`上传太频繁了，每小时最多上传 ${ANONYMOUS_UPLOADS_PER_HOUR} 张图片，请稍后再试`);
  }
}

async function registerUploadRoutes(app: FastifyInstance, ctx: BackendContext): Promise<void> {
  await registerMultipartRoutes(app, (scope) => {
    for (const [kind, def] of Object.entries(IMAGE_KINDS)) {
      const routePath = uploadPermissionPath(kind);
      scope.post(routePath, { config: { errorShape: 'http', readsBodyItself: true } }, async (request, reply) => {
        const userId = await uploaderOf(ctx, request, def.uploader, routePath, def.type);
        let dimensions = { width: 0, height: 0 };
        const file = await receiveFile(ctx, request, reply, {
          folder: 'uploads',
          extensions: IMAGE_EXTENSIONS,
          badExtension: NOT_AN_IMAGE,
          maxBytes: await maxUploadBytes(ctx),
          check(head) {
            const kindOf = sniffImage(head);
            if (!kindOf) throw badRequest(UNREADABLE_IMAGE);
            dimensions = imageSize(kindOf, head);
          },
        });
        const urlPath = `/${file.key}`;
        const attachment = await ctx.db.transaction().execute(async (trx) => {
          // A visitor's upload is counted again and recorded under a lock on the address, so that
          // of uploads at once (through any process) no more than the limit are kept.
          if (userId === 0) {
            const client = { ip: clientIp(request), ipv6Prefix: ctx.ipv6Prefix };
            await lockKeys(trx, [`upload.client.${def.type}.${addressKey(client.ip, client.ipv6Prefix)}`]);
            await assertAnonymousUploadAllowed(trx, def.type, client);
          }
          if (kind === 'avatar') {
            await retireAttachments(trx, def.type, userId);
            await updateProfile(trx, userId, { avatar: urlPath });
            await addDynamic(trx, userId, DynamicType.Avatar, '更新了头像');
          }
          return insertAttachment(trx, {
            hash: file.hash,
            user_id: userId,
            type_id: kind === 'avatar' ? userId : 0,
            type: def.type,
            path: urlPath,
            name: file.name,
            size: file.size,
            width: dimensions.width,
            height: dimensions.height,
            ext: file.ext,
            ip: clientIp(request),
          });
        });
        return reply
          .code(200)
          .header('content-type', 'application/json; charset=utf-8')
          .send(JSON.stringify({ code: 200, message: '上传成功', data: encode(Attachment, attachment) }));
      });
    }
  });
}

export const uploadService = defineService('upload', [], {
  permissions: Object.entries(IMAGE_KINDS)
    .filter(([, def]) => def.uploader !== 'anyone')
    .map(([kind, def]) => ({ method: 'POST', path: uploadPermissionPath(kind), title: def.title })),
  routes: registerUploadRoutes,
});
