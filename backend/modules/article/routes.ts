import type { FastifyInstance } from 'fastify';
import type { BackendContext } from '../../platform/context';
import { defineService } from '../../platform/rpc';
import { adminRpcs } from './admin-rpcs';
import { articleRpcs } from './article-rpcs';
import { rebuildArticleIndex, reindexArticlesKind, scheduleArticleReindexIfNeeded } from './indexing';
import { searchRpcs } from './search-rpcs';

// ArticleAPI (docs/moredoc.md, ArticleAPI; what we answer differently: docs/api.md §13),
// and the job that refills the article search index.

async function registerArticleJobs(app: FastifyInstance, ctx: BackendContext): Promise<void> {
  ctx.jobs.register(
    reindexArticlesKind,
    async ({ refill }) => {
      await rebuildArticleIndex(ctx, { refill });
    },
    { timeoutMs: 3600_000 },
  );
  app.addHook('onReady', async () => scheduleArticleReindexIfNeeded(ctx));
}

export const articleService = defineService('ArticleAPI', [...articleRpcs, ...searchRpcs, ...adminRpcs], {
  routes: registerArticleJobs,
});
