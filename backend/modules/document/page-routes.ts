import { createGunzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendNotFound } from '../../wire/files';
import { bearerFromHeader } from '../../platform/auth/tokens';
import { resolveSession } from '../../platform/auth/session';
import type { BackendContext } from '../../platform/context';
import { pageAccess, type PageRef } from './access';
import { isMd5, outputKey } from './files';

// `/view/page/<hash>/<page>` and `/view/cover/<hash>` (contract README §9.1–9.2), with the
// rights MOREDOC never checked (access.ts). Whatever representation was asked for (.svg,
// .gzip.svg, .webp, .png, .jpg), the page's stored one is served with its own type: a gzip
// SVG as is with `Content-Encoding: gzip`, or inflated for a client that does not take gzip.
// Names are matched whole against a strict pattern, so no request reaches a file outside
// the document's folder.

const PAGE_NAME = /^([1-9]\d{0,5})\.(gzip\.svg|svg|webp|png|jpe?g)$/;
const COVER_NAMES = new Set(['cover.png', 'cover.big.png', 'cover.webp']);
/** Where a converter may have put page n, ours first (gzip SVG, or WebP for scans), then MOREDOC's. */
const PAGE_FILES = ['gzip.svg', 'webp', 'svg', 'png', 'jpg'] as const;
const TYPES: Record<string, string> = { svg: 'image/svg+xml', webp: 'image/webp', png: 'image/png', jpg: 'image/jpeg' };
/** SVG pages come from uploads: opened directly, none of their scripts or links may run. */
const SVG_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:";
const PUBLIC_CACHE = 'public, max-age=604800';
const PRIVATE_CACHE = 'private, max-age=3600';
const BEYOND_PREVIEW = '该页超出免费预览范围，请下载文档或开通VIP会员后阅读';

function badHash(reply: FastifyReply) {
  // MOREDOC's answer, status 404 with code 400 in the body (README §14.13).
  return reply.code(404).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify({ code: 400, message: 'hash值必须32位' }));
}

/** Does the client take gzip (`gzip` or `*` with a non-zero q, RFC 9110 §12.5.3)? */
function acceptsGzip(request: FastifyRequest): boolean {
  return String(request.headers['accept-encoding'] ?? '').split(',').some((entry) => {
    const [coding = '', ...params] = entry.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return (coding === 'gzip' || coding === 'x-gzip' || coding === '*') && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/** The first stored file among `names`, with its size and time. */
async function firstStored(ctx: BackendContext, hash: string, names: readonly string[]) {
  for (const name of names) {
    const stat = await ctx.blobs.stat(outputKey(hash, name));
    if (stat) return { name, ...stat };
  }
  return null;
}

async function servePage(ctx: BackendContext, request: FastifyRequest, reply: FastifyReply, hash: string, ref: PageRef, names: readonly string[]) {
  if (!isMd5(hash)) return badHash(reply);
  const session = await resolveSession(ctx, bearerFromHeader(request.headers.authorization));
  const decision = await pageAccess(ctx.db, ctx.settings, session?.id ?? null, hash, ref);
  if (decision.access === 'not-found') return sendNotFound(reply);
  if (decision.access === 'forbidden') {
    return reply.code(403).header('content-type', 'application/json; charset=utf-8').header('cache-control', 'private, no-store')
      .send(JSON.stringify({ code: 403, message: BEYOND_PREVIEW, error: BEYOND_PREVIEW }));
  }
  const stored = await firstStored(ctx, hash, names);
  if (!stored) return sendNotFound(reply);
  const gzipped = stored.name.endsWith('.gzip.svg');
  const inflate = gzipped && !acceptsGzip(request);
  const kind = stored.name.endsWith('svg') ? 'svg' : stored.name.slice(stored.name.lastIndexOf('.') + 1).replace('jpeg', 'jpg');
  const etag = `"${hash.slice(0, 8)}-${stored.size.toString(36)}-${stored.mtime.getTime().toString(36)}${inflate ? '-i' : ''}"`;
  reply
    .header('content-type', TYPES[kind] ?? 'application/octet-stream')
    .header('cache-control', decision.cache === 'public' ? PUBLIC_CACHE : PRIVATE_CACHE)
    .header('etag', etag)
    .header('last-modified', stored.mtime.toUTCString())
    .header('x-content-type-options', 'nosniff');
  if (kind === 'svg') reply.header('content-security-policy', SVG_POLICY);
  if (gzipped) reply.header('vary', 'Accept-Encoding');
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  const blob = await ctx.blobs.get(outputKey(hash, stored.name));
  if (!blob) return sendNotFound(reply);
  if (inflate) return reply.send(blob.stream.pipe(createGunzip()));
  if (gzipped) reply.header('content-encoding', 'gzip');
  return reply.header('content-length', blob.size).send(blob.stream);
}

export function registerPageRoutes(app: FastifyInstance, ctx: BackendContext): void {
  app.get<{ Params: { hash: string; page: string } }>('/view/page/:hash/:page', async (request, reply) => {
    const { hash, page } = request.params;
    if (!isMd5(hash)) return badHash(reply);
    if (COVER_NAMES.has(page)) return servePage(ctx, request, reply, hash, 'cover', [page]);
    const match = PAGE_NAME.exec(page);
    if (!match) return sendNotFound(reply);
    const n = Number(match[1]);
    return servePage(ctx, request, reply, hash, n, PAGE_FILES.map((ext) => `${n}.${ext}`));
  });

  app.get<{ Params: { hash: string } }>('/view/cover/:hash', async (request, reply) => servePage(ctx, request, reply, request.params.hash, 'cover', ['cover.png']));
}
