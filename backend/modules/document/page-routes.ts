import { createGunzip } from 'node:zlib';
import { pipeline, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerFromHeader } from '../../platform/auth/tokens';
import { resolveSession } from '../../platform/auth/session';
import type { BackendContext } from '../../platform/context';
import { positionsFile } from '../../platform/convert/converter';
import { parseByteRange } from '../../wire/file-headers';
import { MEMBERS_ONLY, pageAccess, type PageRef } from './access';
import { isMd5, outputKey } from './files';
import type { ViewFileAnswer, ViewFileRequest, ViewFiles } from '../../../shared/view-files';

// `/view/page/<hash>/<page>` and `/view/cover/<hash>` (docs/moredoc.md §9), with the
// rights MOREDOC never checked (access.ts). Whatever representation was asked for (.svg,
// .gzip.svg, .webp, .png, .jpg), the page's stored one is served with its own type: a gzip
// SVG as is with `Content-Encoding: gzip`, or inflated for a client that does not take gzip.
// `<page>.json` (ours) is where the page's characters are (`<n>.pos.gz`, text-positions.ts),
// for the reader's find and text layer: the page's text, so under the page image's decision.
// Names are matched whole against a strict pattern, so no request reaches a file outside
// the document's folder. One byte range of the stored file is served as the downloads serve
// one (206, 416, If-Range on the ETag), read from the store as a range, not the whole file.

const PAGE_NAME = /^([1-9]\d{0,5})\.(gzip\.svg|svg|webp|png|jpe?g|json)$/;
const COVER_NAMES = new Set(['cover.png', 'cover.big.png', 'cover.webp']);
/**
 * Where a converter may have put page n, ours first (gzip SVG, WebP for scans, or a scan's JPEG until its WebP is
 * made), then MOREDOC's.
 */
const PAGE_FILES = ['gzip.svg', 'webp', 'svg', 'png', 'jpg'] as const;
const TYPES: Record<string, string> = {
  svg: 'image/svg+xml',
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
  json: 'application/json; charset=utf-8',
};
/** SVG pages come from uploads: opened directly, none of their scripts or links may run. */
const SVG_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:";
const PUBLIC_CACHE = 'public, max-age=604800';
const PRIVATE_CACHE = 'private, max-age=3600';
const BEYOND_PREVIEW = '该页超出免费预览范围，请下载文档或开通 VIP 会员后阅读';

const JSON_TYPE = 'application/json; charset=utf-8';

function badHash(): ViewFileAnswer<Readable> {
  // MOREDOC's answer, status 404 with code 400 in the body (README §14.13).
  return {
    status: 404,
    headers: { 'content-type': JSON_TYPE },
    body: JSON.stringify({ code: 400, message: 'hash值必须32位' }),
  };
}

/** wire/files.ts sendNotFound, as an answer. */
const NOT_FOUND: ViewFileAnswer<Readable> = Object.freeze({
  status: 404,
  headers: Object.freeze({ 'content-type': 'text/plain; charset=utf-8' }),
  body: '404 page not found',
});

/** Does the client take gzip (`gzip` or `*` with a non-zero q, RFC 9110 §12.5.3)? */
function acceptsGzip(acceptEncoding: string | undefined): boolean {
  return String(acceptEncoding ?? '')
    .split(',')
    .some((entry) => {
      const [coding = '', ...params] = entry.split(';').map((p) => p.trim().toLowerCase());
      const q = params.find((p) => p.startsWith('q='));
      return (
        (coding === 'gzip' || coding === 'x-gzip' || coding === '*') && (q === undefined || Number(q.slice(2)) > 0)
      );
    });
}

/**
 * The first stored file among `names`, opened: its stream (not read yet), size and time. One
 * open per name tried, and no separate stat: a 304 closes the file unread.
 */
async function firstStored(ctx: BackendContext, hash: string, names: readonly string[]) {
  for (const name of names) {
    const blob = await ctx.blobs.get(outputKey(hash, name));
    if (blob) return { name, ...blob };
  }
  return null;
}

/** The first stored file among `names`, not opened: for a range, read once its size is known. */
async function firstStat(ctx: BackendContext, hash: string, names: readonly string[]) {
  for (const name of names) {
    const info = await ctx.blobs.stat(outputKey(hash, name));
    if (info) return { name, ...info, stream: null };
  }
  return null;
}

async function pageAnswer(
  ctx: BackendContext,
  request: ViewFileRequest,
  hash: string,
  ref: PageRef,
  names: readonly string[],
): Promise<ViewFileAnswer<Readable>> {
  if (!isMd5(hash)) return badHash();
  const session = await resolveSession(ctx, bearerFromHeader(request.authorization));
  const decision = await pageAccess(ctx.db, ctx.settings, session?.id ?? null, hash, ref);
  if (decision.access === 'not-found') return NOT_FOUND;
  if (decision.access === 'forbidden' || decision.access === 'login') {
    const [status, message] = decision.access === 'login' ? [401, MEMBERS_ONLY] : [403, BEYOND_PREVIEW];
    return {
      status,
      headers: { 'content-type': JSON_TYPE, 'cache-control': 'private, no-store' },
      body: JSON.stringify({ code: status, message, error: message }),
    };
  }
  const stored = request.range === undefined ? await firstStored(ctx, hash, names) : await firstStat(ctx, hash, names);
  if (!stored) return NOT_FOUND;
  const gzipped = stored.name.endsWith('.gzip.svg') || stored.name.endsWith('.pos.gz');
  const inflate = gzipped && !acceptsGzip(request.acceptEncoding);
  const kind = stored.name.endsWith('svg')
    ? 'svg'
    : stored.name.endsWith('.pos.gz')
      ? 'json'
      : stored.name.slice(stored.name.lastIndexOf('.') + 1).replace('jpeg', 'jpg');
  const etag = `"${hash.slice(0, 8)}-${stored.size.toString(36)}-${stored.mtime.getTime().toString(36)}${inflate ? '-i' : ''}"`;
  const headers: Record<string, string> = {
    'content-type': TYPES[kind] ?? 'application/octet-stream',
    'cache-control': decision.cache === 'public' ? PUBLIC_CACHE : PRIVATE_CACHE,
    etag,
    'last-modified': stored.mtime.toUTCString(),
    'x-content-type-options': 'nosniff',
  };
  if (kind === 'svg') headers['content-security-policy'] = SVG_POLICY;
  if (gzipped) headers.vary = 'Accept-Encoding';
  if (!inflate) headers['accept-ranges'] = 'bytes';
  if (request.ifNoneMatch === etag) {
    stored.stream?.destroy();
    return { status: 304, headers, body: null };
  }
  if (gzipped && !inflate) headers['content-encoding'] = 'gzip';
  const key = outputKey(hash, stored.name);
  const range =
    !inflate && (request.ifRange === undefined || request.ifRange === etag)
      ? parseByteRange(request.range, stored.size)
      : null;
  if (range === 'unsatisfiable')
    return { status: 416, headers: { ...headers, 'content-range': `bytes */${stored.size}` }, body: null };
  const blob = stored.stream ? stored : await ctx.blobs.get(key, range ?? undefined);
  // Removed between the stat and the read (a document deleted or converted again).
  if (!blob) return NOT_FOUND;
  if (inflate) {
    // pipeline, not pipe: a reader that gives up on the inflated page (destroys it) closes the file too.
    const inflated = createGunzip();
    pipeline(blob.stream, inflated, () => undefined);
    return { status: 200, headers, body: inflated };
  }
  headers['content-length'] = String(blob.length);
  if (!range) return { status: 200, headers, body: blob.stream };
  headers['content-range'] = `bytes ${range.start}-${range.end}/${stored.size}`;
  return { status: 206, headers, body: blob.stream };
}

/** The answer to `GET /view/page/<hash>/<page>`. */
function viewPage(
  ctx: BackendContext,
  request: ViewFileRequest,
  hash: string,
  page: string,
): Promise<ViewFileAnswer<Readable>> | ViewFileAnswer<Readable> {
  if (!isMd5(hash)) return badHash();
  if (COVER_NAMES.has(page)) return pageAnswer(ctx, request, hash, 'cover', [page]);
  const match = PAGE_NAME.exec(page);
  if (!match) return NOT_FOUND;
  const n = Number(match[1]);
  if (match[2] === 'json') return pageAnswer(ctx, request, hash, n, [positionsFile(n)]);
  return pageAnswer(
    ctx,
    request,
    hash,
    n,
    PAGE_FILES.map((ext) => `${n}.${ext}`),
  );
}

/** The answer to `GET /view/cover/<hash>`. */
function viewCover(ctx: BackendContext, request: ViewFileRequest, hash: string): Promise<ViewFileAnswer<Readable>> {
  return pageAnswer(ctx, request, hash, 'cover', ['cover.png']);
}

function send(reply: FastifyReply, answer: ViewFileAnswer<Readable>) {
  return reply
    .code(answer.status)
    .headers(answer.headers)
    .send(answer.body ?? undefined);
}

function requestOf(request: FastifyRequest): ViewFileRequest {
  return {
    authorization: request.headers.authorization,
    acceptEncoding: request.headers['accept-encoding'],
    ifNoneMatch: request.headers['if-none-match'],
    range: request.headers.range,
    ifRange: [request.headers['if-range']].flat()[0],
  };
}

export function registerPageRoutes(app: FastifyInstance, ctx: BackendContext): void {
  app.get<{ Params: { hash: string; page: string } }>('/view/page/:hash/:page', async (request, reply) =>
    send(reply, await viewPage(ctx, requestOf(request), request.params.hash, request.params.page)),
  );
  app.get<{ Params: { hash: string } }>('/view/cover/:hash', async (request, reply) =>
    send(reply, await viewCover(ctx, requestOf(request), request.params.hash)),
  );
}

// The plain shapes of the two routes: a lower-case hash and a name without escapes, which
// the router would pass on as they are.
const PLAIN_PAGE_PATH = /^\/view\/page\/([0-9a-f]{32})\/([\w.]+)$/;
const PLAIN_COVER_PATH = /^\/view\/cover\/([0-9a-f]{32})$/;

/**
 * The page routes' answers for a gateway in the same process: the same code decides and
 * the file streams straight from the blob store, with no HTTP between them.
 */
export function viewFilesInProcess(ctx: BackendContext): ViewFiles<Readable> {
  return (url, request) => {
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    const page = PLAIN_PAGE_PATH.exec(path);
    if (page) return Promise.resolve(viewPage(ctx, request, page[1]!, page[2]!));
    const cover = PLAIN_COVER_PATH.exec(path);
    if (cover) return viewCover(ctx, request, cover[1]!);
    return null;
  };
}
