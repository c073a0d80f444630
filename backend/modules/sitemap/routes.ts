import type { FastifyInstance } from 'fastify';
import type { BackendContext } from '../../platform/context';
import { defineService } from '../../platform/rpc';
import { registerSitemapRoutes } from './files';
import { startSitemapJobs } from './refresh';

// `/sitemap.xml` and `/sitemap/*` (no RPC: ConfigAPI's UpdateSitemap writes them through
// service.ts), and the job that writes them again.

async function registerSitemap(app: FastifyInstance, ctx: BackendContext): Promise<void> {
  registerSitemapRoutes(app, ctx);
  await startSitemapJobs(ctx);
}

export const sitemapService = defineService('sitemap', [], { routes: registerSitemap });
