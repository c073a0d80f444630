// The public part of the start data (settings, navigation, categories), inlined into every
// page. Kept in the page cache (gateway/page-cache.ts) for a short time, and dropped there as
// soon as a config, navigation or category change passes through the gateway or, with the
// backend in this process, the backend tells one (gateway/plugins/page-changes.ts).
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { Category } from '../../shared/types/category';
import type { Settings } from '../../shared/types/config';
import type { Navigation } from '../../shared/types/navigation';
import type { PageCache } from '../page-cache';

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
}

declare module 'fastify' {
  interface FastifyInstance {
    startData: StartDataSource;
  }
}

export interface StartDataOptions {
  /** where the public part is kept, with its lifetime */
  cache: PageCache;
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
    const { cache } = opts;
    let loading: { generation: number; data: Promise<PublicStartData | undefined> } | undefined;

    async function load(request: FastifyRequest): Promise<PublicStartData | undefined> {
      const started = cache.generation;
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
          // Never kept before (an instance started while its database is away): the settings
          // alone, which the embedded backend answers from memory, so that the pages have the
          // site's own name and switches rather than none.
          const last = cache.lastStartData();
          if (last || settings.status !== 200 || !settings.body) return last;
          return { settings: settings.body, navigation: [], categories: [] };
        }
        const data: PublicStartData = {
          settings: settings.body,
          navigation: navigation.body?.navigation ?? [],
          categories: categories.body?.category ?? [],
        };
        cache.keepStartData(data, started);
        return data;
      } catch (error) {
        request.log.warn({ err: error }, 'start data not available');
        return cache.lastStartData();
      }
    }

    fastify.decorate('startData', {
      publicPart(request: FastifyRequest) {
        const fresh = cache.startData();
        if (fresh) return Promise.resolve(fresh);
        // One load at a time: concurrent page requests share it, unless a change came since
        // it started (it may have read the old data).
        if (loading?.generation !== cache.generation) {
          const mine = {
            generation: cache.generation,
            data: load(request).finally(() => {
              if (loading === mine) loading = undefined;
            }),
          };
          loading = mine;
        }
        return loading.data;
      },
      current: () => cache.startData(),
    });
  },
  { name: 'start-data', dependencies: ['backend-client'] },
);
