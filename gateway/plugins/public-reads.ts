// Visitors' public reads: the API calls whose answer to a visitor (no session) is the same for
// every visitor and whose call changes nothing (settings, categories, lists of documents,
// articles, banners, ads…), and the pages and covers of documents (a free page is public: its
// answer says `Cache-Control: public`). Their answers are kept, bytes and headers as Fastify sent them,
// and answered again by the lane in front of Fastify (gateway/page-lane.ts) while the page
// cache's generation is the one they were read in and their lifetime (the route data's) lasts,
// then while one request makes their successor: the one invalidation signal
// (plugins/page-changes.ts) ends them as it ends kept pages. A call
// through the gateway and the backend cost 0.2–2 ms of CPU, one from the lane 40–85 µs
// (docs/performance.md §2), and visitors make these calls on every page;
// a page image through Fastify, the rights decision and its file costs about 0.5 ms, and under
// load its file reads through libuv's thread pool made the slowest answers of the site (seconds).
// A session, a conditional or ranged request, any status but 200, an answer marked `private` or
// `no-store`, a streamed answer and any call that counts something (a view) is never kept.
import fp from 'fastify-plugin';
import type { IncomingMessage } from 'node:http';
import type { PageLane } from '../page-lane';
import type { PageCache } from '../page-cache';
import { pathOf } from '../http';

/**
 * The reads kept, by path: a visitor's answer depends on the URL alone and the call writes
 * nothing. GetDocument (`/api/v1/document`) counts a view with `with_author`: kept without it
 * only. GetArticle and the searches count views and search records: never kept.
 */
export const PUBLIC_READS: ReadonlySet<string> = new Set([
  '/api/v1/settings',
  '/api/v1/stats',
  '/api/v1/navigation/list',
  '/api/v1/category/list',
  '/api/v1/document',
  '/api/v1/document/list',
  '/api/v1/document/home',
  '/api/v1/document/hot',
  '/api/v1/document/related',
  '/api/v1/article/list',
  '/api/v1/article/related',
  '/api/v1/article/neighbours',
  '/api/v1/banner/list',
  '/api/v1/friendlink/list',
  '/api/v1/advertisement/position',
]);

/** A document's page or cover, in the plain shapes the backend's page routes answer (upstream.ts). */
const VIEW_FILE = /^\/view\/(?:page\/[0-9a-f]{32}\/[\w.]+|cover\/[0-9a-f]{32})$/;

/** Request headers that make an answer other than the plain 200 (a 304, a range). */
const CONDITIONAL = ['if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since', 'if-range', 'range'];

/** How long the request passed to make a kept answer's successor has before another is passed. */
const SUCCESSOR_MS = 1000;

/** Each key starts so; the page plugin's never do (gateway/plugins/spa.ts). */
const KEY_PREFIX = 'api\n';

/**
 * The lane's key of a visitor's public read, by all its answer depends on (the URL as it came,
 * and the codings the client takes: a gzip page is inflated for a client without gzip, a remote
 * backend may compress); undefined for any other request.
 */
export function publicReadKey(request: IncomingMessage, cookieName: string): string | undefined {
  const url = request.url ?? '/';
  if (url.startsWith('/api/v1/')) {
    const path = pathOf(url);
    if (!PUBLIC_READS.has(path)) return undefined;
    if (path === '/api/v1/document' && url.includes('with_author')) return undefined;
  } else if (!url.startsWith('/view/') || !VIEW_FILE.test(pathOf(url))) return undefined;
  const { headers } = request;
  // A session, or what may be one, is the backend's to read.
  if (headers.authorization !== undefined || headers.cookie?.includes(cookieName)) return undefined;
  for (const name of CONDITIONAL) if (headers[name] !== undefined) return undefined;
  return `${KEY_PREFIX}${headers['accept-encoding'] ?? ''}\n${url}`;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** a public read's lane key, and the page cache's generation when it began (kept only if no change came meanwhile) */
    publicRead: { key: string; generation: number } | undefined;
  }
}

export interface PublicReadsOptions {
  lane: PageLane;
  cache: PageCache;
  cookieName: string;
  /** how long a kept answer is answered again at most (the route data's lifetime) */
  ttlMs: number;
}

export default fp<PublicReadsOptions>(
  async function publicReads(fastify, opts) {
    const { lane, cache, cookieName, ttlMs } = opts;
    const keyOf = (request: IncomingMessage) => publicReadKey(request, cookieName);
    lane.install(keyOf);
    fastify.decorateRequest('publicRead', undefined);

    fastify.addHook('onRequest', (request, _reply, done) => {
      // Only a request the lane would take as it came (a canonical URL: the lane does not normalise).
      if (request.method === 'GET' && request.raw.url === request.url) {
        const key = keyOf(request.raw);
        if (key !== undefined) request.publicRead = { key, generation: cache.generation };
      }
      done();
    });

    fastify.addHook('onSend', (request, reply, payload, done) => {
      const read = request.publicRead;
      if (read !== undefined && reply.statusCode === 200 && read.generation === cache.generation)
        keep(read, reply.getHeaders(), payload);
      done(null, payload);
    });

    function keep(
      { key, generation }: { key: string; generation: number },
      sent: Record<string, number | string | string[] | undefined>,
      payload: unknown,
    ): void {
      // A streamed answer (a large one) is not kept.
      const body = Buffer.isBuffer(payload) ? payload : typeof payload === 'string' ? Buffer.from(payload) : undefined;
      if (body === undefined) return;
      // An answer its headers keep to its reader is not anyone else's.
      if (/\b(?:private|no-store)\b/i.test(String(sent['cache-control'] ?? ''))) return;
      const headers: string[] = [];
      for (const [name, value] of Object.entries(sent)) {
        if (value === undefined || name === 'x-request-id' || name === 'content-length' || name === 'connection')
          continue;
        // an answer that sets a cookie is its visitor's alone
        if (name === 'set-cookie') return;
        headers.push(name, Array.isArray(value) ? value.join(', ') : String(value));
      }
      headers.push('content-length', String(body.length));
      const expires = Date.now() + ttlMs;
      /** when a request was last passed to Fastify to make its successor */
      let passed = Number.NEGATIVE_INFINITY;
      lane.keep(key, {
        status: 200,
        headers,
        body,
        state: (time) => {
          if (cache.generation !== generation || time >= expires + ttlMs) return 'drop';
          if (time < expires) return 'answer';
          // Past its lifetime: one request (one a second at most) makes its successor while
          // the others get this answer, as a page past its time is (page-cache.ts). Were they all
          // passed, every visitor of that moment would make it at once: under 200 connections,
          // a burst of page reads through the thread pool that made answers wait for seconds.
          if (time - passed < SUCCESSOR_MS) return 'answer';
          passed = time;
          return 'pass';
        },
      });
    }
  },
  { name: 'public-reads', dependencies: ['upstream'] },
);
