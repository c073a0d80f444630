// The one signal that makes kept pages and their data stale before their time
// (gateway/page-cache.ts `invalidate`), fed from two places: a write passing through the
// gateway that gateway/cache-rules.ts names, before its answer leaves (a client that writes and
// then loads a page never gets the data from before its write); and, when the backend runs in
// this process, every content change the backend tells (gateway/embedded-backend.ts), such as a
// conversion that publishes a document. A backend over HTTP tells nothing: lifetimes bound the rest.
import fp from 'fastify-plugin';
import { stalenessAfter } from '../cache-rules';
import type { PageCache, PageChangeFeed } from '../page-cache';

export interface PageChangesOptions {
  cache: PageCache;
  /** the changes told by the backend in this process; none over HTTP */
  backendChanges?: PageChangeFeed | undefined;
}

export default fp<PageChangesOptions>(
  async function pageChanges(fastify, opts) {
    fastify.addHook('onSend', (request, reply, payload, done) => {
      opts.cache.invalidate(stalenessAfter(request.method, request.url, reply.statusCode));
      done(null, payload);
    });
    const stop = opts.backendChanges?.((stale) => opts.cache.invalidate(stale));
    if (stop) fastify.addHook('onClose', async () => stop());
  },
  { name: 'page-changes' },
);
