import type { FastifyInstance, FastifyReply } from 'fastify';
import { articlePagePath, categoryPagePath, documentPagePath } from '../../../shared/page-paths';
import type { Database } from '../../db';
import { engineOf, lockKeys } from '../../db/dialect';
import { badRequest } from '../../wire/errors';
import { sendBlob, sendNotFound } from '../../wire/files';
import type { BackendContext } from '../../platform/context';
import { articleEntries, categoryEntries, contentFingerprint, documentEntries, type SitemapEntry } from './sources';

// Sitemaps like MOREDOC's (README §9.5): an index at sitemap/sitemap.xml listing
// documents-<n>.xml, articles-<n>.xml and (ours) categories-<n>.xml, 10,000 URLs per file,
// in the blob store under `sitemap/` (DATA_DIR/sitemap on the local disk, or the S3 bucket:
// whichever process wrote them, every process serves them), served at `/sitemap.xml` and
// `/sitemap/*`. The URLs are our SPA's pages (shared/page-paths.ts), the ones each page
// names as canonical. Blobs are replaced whole (BlobStore.put), so a crawler never reads half
// of one, and files of a bigger earlier generation go.

const PER_FILE = 10_000;
const FILE_NAME = /^(documents|articles|categories)-\d+\.xml$/;

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

const PREFIX = 'sitemap';
const keyOf = (name: string) => `${PREFIX}/${name}`;

const day = (timestamp: string) => timestamp.slice(0, 10);

function urlset(domain: string, entries: readonly SitemapEntry[]): string {
  const body = entries.map(
    (e) =>
      `<url><loc>${escapeXml(domain + e.path)}</loc><lastmod>${day(e.lastmod)}</lastmod><changefreq>daily</changefreq><priority>1.0</priority></url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${body.join('')}</urlset>\n`;
}

async function write(app: BackendContext, name: string, content: string): Promise<void> {
  await app.blobs.put(keyOf(name), Buffer.from(content));
}

/** The site's address (`system.domain`); the sitemap protocol wants absolute URLs. */
export async function sitemapDomain(app: BackendContext): Promise<string> {
  return (await app.settings.snapshot()).siteOrigin();
}

/** The three lists as the sitemaps give them, newest content last. */
export async function sitemapEntries(
  db: Database,
): Promise<Record<'documents' | 'articles' | 'categories', SitemapEntry[]>> {
  const [documents, articles, categories] = await Promise.all([
    documentEntries(db),
    articleEntries(db),
    categoryEntries(db),
  ]);
  return {
    documents: documents.flatMap((d) => {
      const page = documentPagePath(d);
      return page ? [{ path: page, lastmod: d.updated_at }] : [];
    }),
    articles: articles.map((a) => ({ path: articlePagePath(a), lastmod: a.updated_at })),
    categories: categories.map((c) => ({ path: categoryPagePath(c), lastmod: c.updated_at })),
  };
}

const FINGERPRINT = 'fingerprint';

/** The content fingerprint the files were written from ('' before the first time). */
export async function writtenFingerprint(app: BackendContext): Promise<string> {
  const blob = await app.blobs.get(keyOf(FINGERPRINT));
  if (!blob) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of blob.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The last write asked for in each app (process): the next one starts when it has ended. */
const writesUnderWay = new WeakMap<BackendContext, Promise<void>>();

/**
 * Writes every sitemap file and the index; a 400 while `system.domain` is empty. Writes take
 * turns, each reading the content after the one before it has written its files: otherwise a
 * write that read earlier (a job's) could end after a later one (an admin's 更新站点地图) and put
 * its older files back, its sweep removing the newer ones. In one process they queue here; on
 * PostgreSQL the processes take turns on an advisory lock, held by a transaction whose
 * connection also reads the content (DATABASE_POOL_SIZE may be 1). No SQLite transaction is held
 * across the blob writes (its one connection would stall the site): one process serves SQLite.
 */
export function writeSitemaps(app: BackendContext): Promise<void> {
  const before = writesUnderWay.get(app) ?? Promise.resolve();
  const write = before.then(() =>
    engineOf(app.db) === 'postgres'
      ? app.db.transaction().execute(async (trx) => {
          await lockKeys(trx, ['sitemap.write']);
          await writeFiles(app, trx);
        })
      : writeFiles(app, app.db),
  );
  writesUnderWay.set(
    app,
    write.catch(() => undefined),
  );
  return write;
}

async function writeFiles(app: BackendContext, db: Database): Promise<void> {
  const domain = await sitemapDomain(app);
  if (!domain) throw badRequest('请先在“系统配置”中填写网站域名：站点地图中的网址需要以它开头');
  // Taken before the lists: a change made while they are read shows at the next watch.
  const fingerprint = await contentFingerprint(db);
  const lists = await sitemapEntries(db);
  const written = new Set<string>();
  const index: string[] = [];
  for (const [kind, entries] of Object.entries(lists)) {
    for (let i = 0; i * PER_FILE < entries.length; i += 1) {
      const chunk = entries.slice(i * PER_FILE, (i + 1) * PER_FILE);
      const name = `${kind}-${i}.xml`;
      await write(app, name, urlset(domain, chunk));
      written.add(name);
      const lastmod = chunk.reduce((latest, e) => (e.lastmod > latest ? e.lastmod : latest), '');
      index.push(
        `<sitemap><loc>${escapeXml(`${domain}/sitemap/${name}`)}</loc><lastmod>${day(lastmod)}</lastmod></sitemap>`,
      );
    }
  }
  await write(
    app,
    'sitemap.xml',
    `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${index.join('')}</sitemapindex>\n`,
  );
  const stale: string[] = [];
  for await (const key of app.blobs.list(PREFIX)) {
    const name = key.slice(PREFIX.length + 1);
    if (FILE_NAME.test(name) && !written.has(name)) stale.push(key);
  }
  for (const key of stale) await app.blobs.delete(key);
  await write(app, FINGERPRINT, fingerprint);
}

async function sendSitemap(reply: FastifyReply, app: BackendContext, name: string) {
  const blob = await app.blobs.get(keyOf(name));
  if (!blob) return sendNotFound(reply);
  return sendBlob(reply, blob, name);
}

export function registerSitemapRoutes(app: FastifyInstance, ctx: BackendContext): void {
  app.get('/sitemap.xml', async (_request, reply) => sendSitemap(reply, ctx, 'sitemap.xml'));
  app.get<{ Params: { name: string } }>('/sitemap/:name', async (request, reply) =>
    FILE_NAME.test(request.params.name) ? sendSitemap(reply, ctx, request.params.name) : sendNotFound(reply),
  );
}
