// Route data: the API calls the first screen of a page makes (declared once in
// shared/routes.ts), made by the gateway for the page it serves, in parallel and within a
// short time limit, so that their answers go into the page with the start data and the
// first screen needs no API request. A call that fails or is late is left out: the SPA then
// makes it itself. Visitors' answers are kept briefly per call (the same for everybody) and
// dropped when a write that changes them passes through the gateway (gateway/cache-rules.ts).
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { callUrl, type ApiCall, type CallAnswer } from '../../shared/api-call';
import { routeDataCalls, type RouteMatch } from '../../shared/routes';
import type { Category } from '../../shared/types/category';
import { stalenessAfter } from '../cache-rules';
import type { BackendAnswer } from './backend-client';

export interface RouteData {
  /** What the screens keep of the answers (each call's `select`): what the page carries. */
  answers: CallAnswer[];
  /** The answers as the backend gave them, for what the gateway renders itself (crawler content). */
  bodies: CallAnswer[];
  /** The page's subject does not exist: its call answered 404. */
  missing: boolean;
}

export interface RouteDataSource {
  /**
   * The answers for the page at `match` (`categories`: the start data's); `token`: the visitor's, whose answers are not
   * shared.
   */
  load(
    request: FastifyRequest,
    match: RouteMatch,
    page: { query: Readonly<Record<string, string>>; categories: readonly Category[] },
    token: string | undefined,
  ): Promise<RouteData>;
  /** Bumped by every write that makes kept answers stale: pages rendered before it are stale too. */
  readonly generation: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeData: RouteDataSource;
  }
}

export interface RouteDataOptions {
  /** How long the page waits for the calls; 0: no calls (pages carry no route data). */
  timeoutMs: number;
  /** How long a visitor's answer is reused. */
  ttlMs: number;
  /** How many answers are kept at most (oldest out first). */
  maxEntries: number;
}

type Answer = BackendAnswer<unknown> | undefined;

const NOTHING: RouteData = Object.freeze({ answers: [], bodies: [], missing: false });

export default fp<RouteDataOptions>(
  async function routeData(fastify, opts) {
    const kept = new Map<string, { expires: number; answer: Promise<Answer> }>();
    let generation = 0;

    function call(request: FastifyRequest, url: string, token: string | undefined): Promise<Answer> {
      // Never rejects: a call without an answer is one the SPA makes itself.
      return fastify.backend.getJson<unknown>(url, { request, ...(token ? { token } : {}) }).catch(() => undefined);
    }

    function answerOf(request: FastifyRequest, url: string, token: string | undefined): Promise<Answer> {
      if (token) return call(request, url, token);
      const hit = kept.get(url);
      if (hit && hit.expires > Date.now()) return hit.answer;
      kept.delete(url);
      const started = generation;
      const answer = call(request, url, undefined);
      kept.set(url, { expires: Date.now() + opts.ttlMs, answer });
      // Only answers are kept, and none of a load that a write overtook.
      void answer.then((a) => {
        if ((a?.status !== 200 && a?.status !== 404) || generation !== started) {
          if (kept.get(url)?.answer === answer) kept.delete(url);
        }
      });
      while (kept.size > opts.maxEntries) kept.delete(kept.keys().next().value as string);
      return answer;
    }

    async function load(
      request: FastifyRequest,
      match: RouteMatch,
      page: { query: Readonly<Record<string, string>>; categories: readonly Category[] },
      token: string | undefined,
    ): Promise<RouteData> {
      if (opts.timeoutMs <= 0) return NOTHING;
      const calls = routeDataCalls(match, page.query, page.categories);
      if (!calls.length) return NOTHING;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), opts.timeoutMs);
      });
      try {
        const settled = await Promise.all(calls.map((c) => Promise.race([answerOf(request, callUrl(c), token), late])));
        const data: RouteData = { answers: [], bodies: [], missing: false };
        settled.forEach((answer, i) => {
          const declared = calls[i] as ApiCall;
          if (answer === 'late' || answer === undefined) return;
          if (answer.status === 200) {
            data.answers.push({ key: declared.key, data: declared.select(answer.body) });
            data.bodies.push({ key: declared.key, data: answer.body });
          }
          // The API's own 404 (JSON): a plain 404 means the backend has no such call at all.
          else if (answer.status === 404 && declared.subject && answer.body !== undefined) data.missing = true;
          // A call whose 404 means none (no related articles): the screen would keep that too.
          else if (answer.status === 404 && declared.whenMissing !== undefined)
            data.answers.push({ key: declared.key, data: declared.whenMissing });
        });
        if (settled.includes('late'))
          request.log.warn({ timeoutMs: opts.timeoutMs }, 'route data late: the page goes without some of it');
        return data;
      } finally {
        clearTimeout(timer);
      }
    }

    fastify.decorate('routeData', {
      load,
      get generation() {
        return generation;
      },
    });

    // Before the answer leaves: a page loaded right after a write must not get the old data.
    fastify.addHook('onSend', (request, reply, payload, done) => {
      if (stalenessAfter(request.method, request.url, reply.statusCode).routeData) {
        generation++;
        kept.clear();
      }
      done(null, payload);
    });
  },
  { name: 'route-data', dependencies: ['backend-client'] },
);
