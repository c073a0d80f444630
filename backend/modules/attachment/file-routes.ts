import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendBlob, sendNotFound } from '../../wire/files';
import { parseByteRange } from '../../wire/file-headers';
import { BlobKeyError, type BlobStore } from '../../platform/blobs/blob-store';
import type { BackendContext } from '../../platform/context';
import { defineService } from '../../platform/rpc';
import { DEFAULT_FAVICON } from './default-favicon';

// File routes outside the API: `/uploads/*` (content-addressed images, cacheable forever)
// and `/favicon.ico` (the system.favicon image, or our default icon until one is uploaded).
// On the local disk `/uploads/*` is @fastify/static (sendfile); a store without local files
// (S3) streams the blob with the same headers, validators, 304s and ranges.

const UPLOAD_CACHE = 'public, max-age=31536000, immutable';
/** The types @fastify/static (mime) gives the image extensions an upload may have. */
const UPLOAD_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.ico': 'image/vnd.microsoft.icon',
};

/**
 * The blob's answer as @fastify/static gives a file: weak ETag of size and time, If-None-Match / If-Modified-Since, one
 * range.
 */
async function sendUpload(request: FastifyRequest, reply: FastifyReply, blobs: BlobStore, key: string) {
  let stat;
  try {
    stat = await blobs.stat(key);
  } catch (error) {
    if (error instanceof BlobKeyError) return sendNotFound(reply);
    throw error;
  }
  if (!stat) return sendNotFound(reply);
  const etag = `W/"${stat.size.toString(16)}-${stat.mtime.getTime().toString(16)}"`;
  reply
    .header('accept-ranges', 'bytes')
    .header('cache-control', UPLOAD_CACHE)
    .header('last-modified', stat.mtime.toUTCString())
    .header('etag', etag)
    .header('content-type', UPLOAD_TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream')
    .header('x-content-type-options', 'nosniff');
  const ifNoneMatch = request.headers['if-none-match'];
  const ifModifiedSince = Date.parse(request.headers['if-modified-since'] ?? '');
  const notModified =
    ifNoneMatch !== undefined
      ? ifNoneMatch.split(',').some((tag) => [etag, etag.slice(2), '*'].includes(tag.trim()))
      : Math.floor(stat.mtime.getTime() / 1000) * 1000 <= ifModifiedSince;
  if (notModified) return reply.code(304).send();
  const ifRange = request.headers['if-range'];
  const range = ifRange === undefined || ifRange === etag ? parseByteRange(request.headers.range, stat.size) : null;
  if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${stat.size}`).send();
  if (request.method === 'HEAD')
    return reply.header('content-length', range ? range.end - range.start + 1 : stat.size).send();
  const blob = await blobs.get(key, range ?? undefined);
  if (!blob) return sendNotFound(reply);
  reply.header('content-length', blob.length);
  if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${stat.size}`);
  return reply.send(blob.stream);
}

async function registerFileRoutes(app: FastifyInstance, ctx: BackendContext): Promise<void> {
  const uploads = ctx.blobs.localPath?.('uploads');
  if (uploads) {
    fs.mkdirSync(uploads, { recursive: true });
    await app.register(fastifyStatic, {
      root: uploads,
      prefix: '/uploads/',
      decorateReply: false,
      index: false,
      // A folder or a dot file is no upload: the same 404 as a missing file, as the blob store
      // below answers (send's 403 `Forbidden` for them named the folders that exist, in English).
      allowedPath: (pathName) => !pathName.endsWith('/'),
      dotfiles: 'ignore',
      wildcard: true,
      immutable: true,
      maxAge: '365d',
      setHeaders: (reply) => reply.header('x-content-type-options', 'nosniff'),
    });
  } else {
    app.get<{ Params: { '*': string } }>('/uploads/*', async (request, reply) => {
      const name = request.params['*'];
      // No dot files, as @fastify/static's `dotfiles: 'ignore'` (BlobKeyError refuses `.` and `..`).
      if (name.split('/').some((segment) => segment.startsWith('.'))) return sendNotFound(reply);
      return sendUpload(request, reply, ctx.blobs, `uploads/${name}`);
    });
  }

  app.get('/favicon.ico', async (_request, reply) => {
    const favicon = (await ctx.settings.snapshot()).str('system', 'favicon').replace(/^[./]+/, '');
    const blob = favicon.startsWith('uploads/')
      ? await ctx.blobs.get(favicon).catch((error: unknown) => {
          if (error instanceof BlobKeyError) return null;
          throw error;
        })
      : null;
    if (blob) return sendBlob(reply, blob, favicon);
    return reply
      .header('content-type', 'image/x-icon')
      .header('cache-control', 'public, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .send(DEFAULT_FAVICON);
  });
}

export const fileService = defineService('files', [], { routes: registerFileRoutes });
