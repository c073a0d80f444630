// /robots.txt, made from the route table (shared/robots.ts): the member, admin, sign-in and
// API paths disallowed, and the sitemap at the site's origin. The backend writes sitemaps only
// once 网站域名 (`system.domain`) is set (their URLs start with it): until then none is named.
import fp from 'fastify-plugin';
import { robotsTxt } from '../../shared/robots';
import { pageOrigin } from '../http';

export interface RobotsOptions {
  publicOrigin: string | undefined;
}

export default fp<RobotsOptions>(
  async function robots(fastify, opts) {
    fastify.get('/robots.txt', async (request, reply) => {
      const domain = (await fastify.startData.publicPart(request))?.settings.system?.domain?.trim();
      const text = robotsTxt(domain ? pageOrigin(request, opts.publicOrigin) : undefined);
      return reply.header('cache-control', 'public, max-age=3600').type('text/plain; charset=utf-8').send(text);
    });
  },
  { name: 'robots', dependencies: ['start-data'] },
);
