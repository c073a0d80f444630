import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { fileInside, sendFile } from '../../wire/files';
import type { BackendContext } from '../../platform/context';
import { defineService } from '../../platform/rpc';
import { DEFAULT_FAVICON } from './default-favicon';

// File routes outside the API: `/uploads/*` (content-addressed images, cacheable forever)
// and `/favicon.ico` (the system.favicon image, or our default icon until one is uploaded).

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
    const file = favicon.startsWith('uploads/') ? fileInside(uploads, favicon.slice('uploads/'.length)) : null;
    if (file && fs.statSync(file, { throwIfNoEntry: false })?.isFile()) return sendFile(reply, file);
    return reply
      .header('content-type', 'image/x-icon')
      .header('cache-control', 'public, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .send(DEFAULT_FAVICON);
  });
}

export const fileService = defineService('files', [], { routes: registerFileRoutes });
