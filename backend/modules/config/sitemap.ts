import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { fileInside, sendFile, sendNotFound } from '../../wire/files';
import type { BackendContext } from '../../platform/context';
import { publishedArticleLinks } from '../article/service';
import { publicDocumentLinks } from '../document/service';

// Sitemaps as MOREDOC writes them (README §9.5): an index at sitemap/sitemap.xml that lists
// documents-<n>.xml and articles-<n>.xml, 10,000 URLs per file, under DATA_DIR, served at
// `/sitemap.xml` and `/sitemap/*`. It lists documents and articles, through their modules.

const PER_FILE = 10_000;

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

const sitemapDir = (dataDir: string) => path.join(dataDir, 'sitemap');

function urlset(urls: { loc: string; lastmod: string }[]): string {
  const body = urls.map((u) => `<url><loc>${escapeXml(u.loc)}</loc><lastmod>${u.lastmod.slice(0, 10)}</lastmod><changefreq>daily</changefreq><priority>1.0</priority></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${body.join('')}</urlset>\n`;
}

export async function writeSitemaps(app: BackendContext): Promise<void> {
  const cfg = await app.settings.snapshot();
  const domain = cfg.str('system', 'domain').replace(/\/+$/, '');
  const documents = await publicDocumentLinks(app.db);
  const articles = await publishedArticleLinks(app.db);
  const dir = sitemapDir(app.dataDir);
  await fs.mkdir(dir, { recursive: true });
  const files: { name: string; lastmod: string }[] = [];
  const write = async (kind: string, urls: { loc: string; lastmod: string }[]) => {
    for (let i = 0; i * PER_FILE < urls.length; i += 1) {
      const chunk = urls.slice(i * PER_FILE, (i + 1) * PER_FILE);
      const name = `${kind}-${i}.xml`;
      await fs.writeFile(path.join(dir, name), urlset(chunk));
      files.push({ name, lastmod: chunk.at(-1)!.lastmod });
    }
  };
  await write('documents', documents.map((d) => ({ loc: `${domain}/document/${d.uuid}`, lastmod: d.updated_at })));
  await write('articles', articles.map((a) => ({ loc: `${domain}/article/${a.identifier}`, lastmod: a.updated_at })));
  const index = files.map((f) => `<sitemap><loc>${escapeXml(`${domain}/sitemap/${f.name}`)}</loc><lastmod>${f.lastmod.slice(0, 10)}</lastmod></sitemap>`);
  await fs.writeFile(path.join(dir, 'sitemap.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${index.join('')}</sitemapindex>\n`);
}

export function registerSitemapRoutes(app: FastifyInstance, ctx: BackendContext): void {
  const dir = sitemapDir(path.resolve(ctx.dataDir));
  app.get('/sitemap.xml', async (_request, reply) => sendFile(reply, path.join(dir, 'sitemap.xml')));
  app.get<{ Params: { name: string } }>('/sitemap/:name', async (request, reply) => {
    const file = /^[a-z]+-\d+\.xml$/.test(request.params.name) ? fileInside(dir, request.params.name) : null;
    return file ? sendFile(reply, file) : sendNotFound(reply);
  });
}
