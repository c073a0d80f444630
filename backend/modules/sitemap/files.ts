import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { articlePagePath, categoryPagePath, documentPagePath } from '../../../shared/page-paths';
import { badRequest } from '../../wire/errors';
import { fileInside, sendFile, sendNotFound } from '../../wire/files';
import type { BackendContext } from '../../platform/context';
import { articleEntries, categoryEntries, contentFingerprint, documentEntries, type SitemapEntry } from './sources';

// Sitemaps like MOREDOC's (README §9.5): an index at sitemap/sitemap.xml listing
// documents-<n>.xml, articles-<n>.xml and (ours) categories-<n>.xml, 10,000 URLs per file,
// under DATA_DIR, served at `/sitemap.xml` and `/sitemap/*`. The URLs are our SPA's pages
// (shared/page-paths.ts), the ones each page names as canonical. Files are replaced
// atomically, so a crawler never reads half of one, and files of a bigger earlier generation go.

const PER_FILE = 10_000;
const FILE_NAME = /^(documents|articles|categories)-\d+\.xml$/;

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

const sitemapDir = (dataDir: string) => path.join(dataDir, 'sitemap');

const day = (timestamp: string) => timestamp.slice(0, 10);

function urlset(domain: string, entries: readonly SitemapEntry[]): string {
  const body = entries.map((e) => `<url><loc>${escapeXml(domain + e.path)}</loc><lastmod>${day(e.lastmod)}</lastmod><changefreq>daily</changefreq><priority>1.0</priority></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${body.join('')}</urlset>\n`;
}

async function writeAtomically(file: string, content: string): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await fs.writeFile(temporary, content);
  await fs.rename(temporary, file);
}

/** The site's address (`system.domain`); the sitemap protocol wants absolute URLs. */
export async function sitemapDomain(app: BackendContext): Promise<string> {
  return (await app.settings.snapshot()).siteOrigin();
}

/** The three lists as the sitemaps give them, newest content last. */
export async function sitemapEntries(app: BackendContext): Promise<Record<'documents' | 'articles' | 'categories', SitemapEntry[]>> {
  const [documents, articles, categories] = await Promise.all([documentEntries(app.db), articleEntries(app.db), categoryEntries(app.db)]);
  return {
    documents: documents.flatMap((d) => {
      const page = documentPagePath(d);
      return page ? [{ path: page, lastmod: d.updated_at }] : [];
    }),
    articles: articles.map((a) => ({ path: articlePagePath(a), lastmod: a.updated_at })),
    categories: categories.map((c) => ({ path: categoryPagePath(c), lastmod: c.updated_at })),
  };
}

const fingerprintFile = (dataDir: string) => path.join(sitemapDir(dataDir), 'fingerprint');

/** The content fingerprint the files were written from ('' before the first time). */
export async function writtenFingerprint(app: BackendContext): Promise<string> {
  return fs.readFile(fingerprintFile(app.dataDir), 'utf8').catch(() => '');
}

/** Writes every sitemap file and the index; a 400 while `system.domain` is empty. */
export async function writeSitemaps(app: BackendContext): Promise<void> {
  const domain = await sitemapDomain(app);
  if (!domain) throw badRequest('请先在「系统配置」中填写网站域名：站点地图中的网址需要以它开头');
  // Taken before the lists: a change made while they are read shows at the next watch.
  const fingerprint = await contentFingerprint(app.db);
  const lists = await sitemapEntries(app);
  const dir = sitemapDir(app.dataDir);
  await fs.mkdir(dir, { recursive: true });
  const written = new Set<string>();
  const index: string[] = [];
  for (const [kind, entries] of Object.entries(lists)) {
    for (let i = 0; i * PER_FILE < entries.length; i += 1) {
      const chunk = entries.slice(i * PER_FILE, (i + 1) * PER_FILE);
      const name = `${kind}-${i}.xml`;
      await writeAtomically(path.join(dir, name), urlset(domain, chunk));
      written.add(name);
      const lastmod = chunk.reduce((latest, e) => (e.lastmod > latest ? e.lastmod : latest), '');
      index.push(`<sitemap><loc>${escapeXml(`${domain}/sitemap/${name}`)}</loc><lastmod>${day(lastmod)}</lastmod></sitemap>`);
    }
  }
  await writeAtomically(path.join(dir, 'sitemap.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${index.join('')}</sitemapindex>\n`);
  for (const name of await fs.readdir(dir)) {
    if (FILE_NAME.test(name) && !written.has(name)) await fs.rm(path.join(dir, name), { force: true });
  }
  await writeAtomically(fingerprintFile(app.dataDir), fingerprint);
}

export function registerSitemapRoutes(app: FastifyInstance, ctx: BackendContext): void {
  const dir = sitemapDir(path.resolve(ctx.dataDir));
  app.get('/sitemap.xml', async (_request, reply) => sendFile(reply, path.join(dir, 'sitemap.xml')));
  app.get<{ Params: { name: string } }>('/sitemap/:name', async (request, reply) => {
    const file = FILE_NAME.test(request.params.name) ? fileInside(dir, request.params.name) : null;
    return file ? sendFile(reply, file) : sendNotFound(reply);
  });
}
