// The hashed build assets (/assets/*) from memory. web/dist/assets is read once at start into
// a table: exact file name → the plain file, its .br and .gz, each with its headers computed
// once. A request is a Map lookup by exact name: no file system, no path to resolve, nothing
// to traverse. The table is the build output, loaded up to a fixed budget; files beyond it,
// and the rare conditional or range request, go to @fastify/static, which has the full HTTP
// semantics for those (304, 206, 412, 416). Its per-request checks (a folder listing to
// verify the spelling of the .br/.gz name, a stat, a stream) made it 20 to 30 times slower than
// nginx on the largest chunk.
import fp from 'fastify-plugin';
import { readdir, readFile, stat } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { extname, join } from 'node:path';

export interface AssetsOptions {
  /** web/dist/assets */
  dir: string;
  /** bytes of bodies (plain + .br + .gz) held in memory; default ASSET_MEMORY_BUDGET */
  memoryBudget?: number;
}

export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
export const ASSET_MAX_AGE_MS = 31_536_000_000;
/** Far above a Vite build of this SPA (1.4 MiB with its .br and .gz). */
export const ASSET_MEMORY_BUDGET = 32 * 1024 * 1024;

export type ContentCoding = 'br' | 'gzip';
/** Server preference on a tie: brotli is smaller. */
const CODINGS: readonly ContentCoding[] = ['br', 'gzip'];
const CODING_SUFFIX: Record<ContentCoding, string> = { br: '.br', gzip: '.gz' };

// What @fastify/send (mime 3) answers for these, so that either path sends the same type.
const CONTENT_TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.mjs': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/vnd.microsoft.icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
};
const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

export function contentTypeOf(name: string): string {
  return CONTENT_TYPES[extname(name).toLowerCase()] ?? DEFAULT_CONTENT_TYPE;
}

/** Request headers that need the file semantics of @fastify/static rather than a plain 200. */
const FILE_SEMANTICS_HEADERS = [
  'range',
  'if-match',
  'if-none-match',
  'if-modified-since',
  'if-unmodified-since',
] as const;

function needsFileSemantics(headers: IncomingHttpHeaders): boolean {
  return FILE_SEMANTICS_HEADERS.some((name) => headers[name] !== undefined);
}

/**
 * Accept-Encoding (RFC 9110 §12.5.3) with q-values: the offered coding with the highest q
 * wins, brotli before gzip on a tie; `*` stands for any coding not named; q=0 refuses.
 * The plain file is sent when no offered coding is acceptable, when the client names
 * identity with a higher q, and when there is no header at all (as @fastify/static does).
 */
export function negotiateEncoding(
  header: string | undefined,
  offered: readonly ContentCoding[],
): ContentCoding | undefined {
  if (header === undefined || offered.length === 0) return undefined;
  const rated = new Map<string, number>();
  for (const part of header.split(',')) {
    const [rawName = '', ...params] = part.split(';');
    const name = rawName.trim().toLowerCase();
    if (name === '') continue;
    let q = 1;
    for (const param of params) {
      const [key = '', value = ''] = param.split('=');
      if (key.trim().toLowerCase() !== 'q') continue;
      const parsed = Number(value.trim());
      q = value.trim() !== '' && parsed >= 0 && parsed <= 1 ? parsed : 0;
    }
    rated.set(name === 'x-gzip' ? 'gzip' : name, q);
  }
  const any = rated.get('*');
  let best: ContentCoding | undefined;
  let bestQ = 0;
  for (const coding of CODINGS) {
    if (!offered.includes(coding)) continue;
    const q = rated.get(coding) ?? any ?? 0;
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  // Unnamed, identity is acceptable but not preferred: it is the fallback, not a rival.
  const identityQ = rated.get('identity') ?? any ?? 0;
  return best !== undefined && bestQ >= identityQ ? best : undefined;
}

interface Variant {
  body: Buffer;
  headers: Readonly<Record<string, string>>;
}

interface Asset {
  name: string;
  /** undefined: over the memory budget, served from disk */
  plain?: Variant;
  encoded: Partial<Record<ContentCoding, Variant>>;
  codings: ContentCoding[];
}

export interface AssetTable {
  assets: Map<string, Asset>;
  /** bytes of bodies held in memory */
  bytes: number;
  /** files served from disk because the budget was spent */
  onDisk: number;
}

async function variant(path: string, name: string, coding: ContentCoding | undefined): Promise<Variant> {
  const [body, info] = await Promise.all([readFile(path), stat(path)]);
  // The same validators @fastify/static sends for the file, so either path revalidates the other's.
  const headers: Record<string, string> = {
    'accept-ranges': 'bytes',
    'cache-control': ASSET_CACHE_CONTROL,
    'last-modified': info.mtime.toUTCString(),
    etag: `W/"${info.size.toString(16)}-${info.mtime.getTime().toString(16)}"`,
    'content-type': contentTypeOf(name),
    'content-length': String(body.length),
    vary: 'accept-encoding',
  };
  if (coding) headers['content-encoding'] = coding;
  return { body, headers: Object.freeze(headers) };
}

/** Reads the asset folder (flat, as Vite writes it) into the table, smallest files first. */
export async function loadAssetTable(dir: string, memoryBudget = ASSET_MEMORY_BUDGET): Promise<AssetTable> {
  let entries;
  try {
    entries = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile() && !e.name.startsWith('.'));
  } catch (error) {
    // A build without assets (test fixtures): nothing to serve.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { assets: new Map(), bytes: 0, onDisk: 0 };
    throw error;
  }
  const names = new Set(entries.map((e) => e.name));
  const originals = [...names].filter(
    (name) =>
      !CODINGS.some((c) => name.endsWith(CODING_SUFFIX[c]) && names.has(name.slice(0, -CODING_SUFFIX[c].length))),
  );
  const sized = await Promise.all(
    originals.map(async (name) => {
      let size = (await stat(join(dir, name))).size;
      for (const coding of CODINGS) {
        if (names.has(name + CODING_SUFFIX[coding])) size += (await stat(join(dir, name + CODING_SUFFIX[coding]))).size;
      }
      return { name, size };
    }),
  );
  sized.sort((a, b) => a.size - b.size);

  // The budget is spent smallest first; the files it holds are then read all at once (one
  // after the other, a few hundred reads wait behind a busy thread pool for seconds).
  const table: AssetTable = { assets: new Map(), bytes: 0, onDisk: 0 };
  const reads: Promise<void>[] = [];
  for (const { name, size } of sized) {
    const codings = CODINGS.filter((coding) => names.has(name + CODING_SUFFIX[coding]));
    const asset: Asset = { name, encoded: {}, codings };
    table.assets.set(name, asset);
    if (table.bytes + size > memoryBudget) {
      table.onDisk++;
      continue;
    }
    table.bytes += size;
    reads.push(
      variant(join(dir, name), name, undefined).then((plain) => {
        asset.plain = plain;
      }),
      ...codings.map((coding) =>
        variant(join(dir, name + CODING_SUFFIX[coding]), name, coding).then((encoded) => {
          asset.encoded[coding] = encoded;
        }),
      ),
    );
  }
  await Promise.all(reads);
  return table;
}

export default fp<AssetsOptions>(
  async function assets(fastify, opts) {
    const table = await loadAssetTable(opts.dir, opts.memoryBudget);
    fastify.log.debug({ files: table.assets.size, bytes: table.bytes, onDisk: table.onDisk }, 'assets loaded');

    // GET, and HEAD (Fastify answers it from the GET route, without the body).
    fastify.get<{ Params: { '*': string } }>('/assets/*', async (request, reply) => {
      const asset = table.assets.get(request.params['*']);
      if (asset === undefined) return reply.callNotFound();
      if (asset.plain === undefined || needsFileSemantics(request.headers)) {
        return reply.sendFile(asset.name, opts.dir, { maxAge: ASSET_MAX_AGE_MS, immutable: true });
      }
      const coding = negotiateEncoding(request.headers['accept-encoding'], asset.codings);
      const chosen = (coding && asset.encoded[coding]) || asset.plain;
      return reply.headers(chosen.headers).send(chosen.body);
    });
  },
  // reply.sendFile, with preCompressed on, comes from the SPA's @fastify/static registration.
  { name: 'assets', dependencies: ['@fastify/static'] },
);
