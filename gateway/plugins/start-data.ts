// The public part of the start data (settings, navigation, categories), inlined into every
// page. Reused for a short time, and dropped as soon as a config, navigation or category
// change passes through the gateway (gateway/cache-rules.ts), before its answer leaves.
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { Category } from '../../shared/types/category';
import type { Settings } from '../../shared/types/config';
import type { Navigation } from '../../shared/types/navigation';
import { stalenessAfter } from '../cache-rules';

export interface PublicStartData {
  settings: Settings;
  navigation: Navigation[];
  categories: Category[];
}

export interface StartDataSource {
  /** the cached public part, refreshed when stale; undefined when the backend cannot give it */
  publicPart(request: FastifyRequest): Promise<PublicStartData | undefined>;
  /** the cached public part while it is fresh (what `publicPart` answers at once), else undefined */
  current(): PublicStartData | undefined;
  invalidate(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    startData: StartDataSource;
  }
}

export interface StartDataOptions {
  ttlMs: number;
}

// All navigation items (docs/product.md §9: page size 10000), all categories of both types (documents,
// articles): without `type` the backend lists document categories only.
export const START_DATA_PATHS = {
  settings: '/api/v1/settings',
  navigation: '/api/v1/navigation/list?page=1&size=10000',
  categories: '/api/v1/category/list?type=0&type=1',
};

export default fp<StartDataOptions>(
  async function startData(fastify, opts) {
    let cached: { data: PublicStartData; expires: number } | undefined;
    let loading: Promise<PublicStartData | undefined> | undefined;
    // Bumped by every relevant write, so that a load started before the write is not cached.
    let generation = 0;

    async function load(request: FastifyRequest): Promise<PublicStartData | undefined> {
      const started = generation;
      const call = { request };
      try {
        const [settings, navigation, categories] = await Promise.all([
          fastify.backend.getJson<Settings>(START_DATA_PATHS.settings, call),
          fastify.backend.getJson<{ navigation?: Navigation[] }>(START_DATA_PATHS.navigation, call),
          fastify.backend.getJson<{ category?: Category[] }>(START_DATA_PATHS.categories, call),
        ]);
        if (settings.status !== 200 || navigation.status !== 200 || categories.status !== 200 || !settings.body) {
          request.log.warn(
            { settings: settings.status, navigation: navigation.status, categories: categories.status },
            'start data not available',
          );
          return cached?.data;
        }
        const data: PublicStartData = {
          settings: settings.body,
          navigation: navigation.body?.navigation ?? [],
          categories: categories.body?.category ?? [],
        };
        if (generation === started) cached = { data, expires: Date.now() + opts.ttlMs };
        return data;
      } catch (error) {
        request.log.warn({ err: error }, 'start data not available');
        return cached?.data;
      }
    }

    function current(): PublicStartData | undefined {
      return cached && cached.expires > Date.now() ? cached.data : undefined;
    }

    fastify.decorate('startData', {
      publicPart(request: FastifyRequest) {
        const fresh = current();
        if (fresh) return Promise.resolve(fresh);
        // One load at a time: concurrent page requests share it.
        if (!loading) {
          const mine = load(request).finally(() => {
            if (loading === mine) loading = undefined;
          });
          loading = mine;
        }
        return loading;
      },
      current,
      invalidate() {
        generation++;
        cached = undefined;
        // a load already under way may have read the old data: later pages start a new one
        loading = undefined;
      },
    });

    // Before the answer leaves: a page loaded right after it must not get the old data.
    fastify.addHook('onSend', (request, reply, payload, done) => {
      if (stalenessAfter(request.method, request.url, reply.statusCode).publicStartData) {
        request.log.debug('public start data invalidated');
        fastify.startData.invalidate();
      }
      done(null, payload);
    });
  },
  { name: 'start-data', dependencies: ['backend-client'] },
);
