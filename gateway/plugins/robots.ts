// /robots.txt, made from the route table (shared/robots.ts): the member, admin, sign-in and
// API paths disallowed, and the sitemap at the site's origin.
import fp from 'fastify-plugin';
import { robotsTxt } from '../../shared/robots';
import { pageOrigin } from '../http';

export interface RobotsOptions {
  publicOrigin: string | undefined;
}

export default fp<RobotsOptions>(
  async function robots(fastify, opts) {
    fastify.get('/robots.txt', (request, reply) =>
      reply.header('cache-control', 'public, max-age=3600').type('text/plain; charset=utf-8').send(robotsTxt(pageOrigin(request, opts.publicOrigin))),
    );
  },
  { name: 'robots' },
);
