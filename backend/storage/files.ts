import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { BackendContext } from '../platform/context';
import { defineService } from '../platform/rpc';
import { sitemapDir } from '../modules/config/sitemap';

// File routes outside the API: `/uploads/*` (content-addressed images, cacheable forever),
// `/favicon.ico` (the system.favicon image), `/sitemap.xml` and `/sitemap/*`.

const TYPES: Record<string, string> = {
  '.ico': 'image/x-icon', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif',
  '.bmp': 'image/bmp', '.webp': 'image/webp', '.xml': 'text/xml; charset=utf-8',
};

function notFound(reply: FastifyReply) {
  return reply.code(404).header('content-type', 'text/plain; charset=utf-8').send('404 page not found');
}

/** A file inside `root` given a user- or admin-supplied relative path, or null. */
function inside(root: string, relative: string): string | null {
  const resolved = path.resolve(root, relative);
  return resolved.startsWith(root + path.sep) ? resolved : null;
}

function sendFile(reply: FastifyReply, file: string) {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile()) return notFound(reply);
  return reply
    .header('content-type', TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream')
    .header('content-length', stat.size)
    .header('last-modified', stat.mtime.toUTCString())
    .header('x-content-type-options', 'nosniff')
    .send(fs.createReadStream(file));
}

async function registerFileRoutes(app: FastifyInstance, ctx: BackendContext): Promise<void> {
  const dataDir = path.resolve(ctx.dataDir);
  const uploads = path.join(dataDir, 'uploads');
  fs.mkdirSync(uploads, { recursive: true });
  await app.register(fastifyStatic, {
    root: uploads,
    prefix: '/uploads/',
    decorateReply: false,
    index: false,
    dotfiles: 'deny',
    wildcard: true,
    immutable: true,
    maxAge: '365d',
    setHeaders: (reply) => reply.header('x-content-type-options', 'nosniff'),
  });

  app.get('/favicon.ico', async (_request, reply) => {
    const favicon = (await ctx.settings.snapshot()).str('system', 'favicon').replace(/^[./]+/, '');
    const file = favicon.startsWith('uploads/') ? inside(uploads, favicon.slice('uploads/'.length)) : null;
    return file ? sendFile(reply, file) : notFound(reply);
  });

  app.get('/sitemap.xml', async (_request, reply) => sendFile(reply, path.join(sitemapDir(dataDir), 'sitemap.xml')));
  app.get<{ Params: { name: string } }>('/sitemap/:name', async (request, reply) => {
    const file = /^[a-z]+-\d+\.xml$/.test(request.params.name) ? inside(sitemapDir(dataDir), request.params.name) : null;
    return file ? sendFile(reply, file) : notFound(reply);
  });
}

export const fileService = defineService('files', [], { routes: registerFileRoutes });
