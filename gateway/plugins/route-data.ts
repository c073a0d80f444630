// Route data: the API calls the first screen of a page makes (declared once in
// shared/routes.ts), made by the gateway for the page it serves, in parallel and within a
// short time limit, so that their answers go into the page with the start data and the
// first screen needs no API request. A call that fails or is late is left out: the SPA then
// makes it itself; one the backend answers it cannot now (a 5xx with its reason: its database
// or file storage away) goes in as that failure, which the first screen shows (decision 118). Visitors' answers are kept briefly per call (the same for everybody) in the
// page cache (gateway/page-cache.ts), which drops them when a change makes them stale.
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { callUrl, type ApiCall, type CallAnswer, type CallFailure } from '../../shared/api-call';
import { normalizeFailure } from '../../shared/api-failure';
import { routeDataCalls, type RouteMatch } from '../../shared/routes';
import { recordsTheCaller } from '../../shared/writes';
import type { Category } from '../../shared/types/category';
import type { PageCache, RouteAnswer } from '../page-cache';

export interface RouteData {
  /** What the screens keep of the answers (each call's `select`): what the page carries. */
  answers: CallAnswer[];
  /** The answers as the backend gave them, for what the gateway renders itself (crawler content). */
  bodies: CallAnswer[];
  /** The page's subject does not exist: its call answered 404. */
  missing: boolean;
  /**
   * That 404, or a call the backend could not answer now (`unavailable`), as the screens keep it:
   * what the page carries, so that the app shows it without asking again (its 重试 asks).
   */
  failures: CallFailure[];
  /** A call was answered with a 5xx carrying the backend's reason: the page is made without its data. */
  unavailable: boolean;
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
}

declare module 'fastify' {
  interface FastifyInstance {
    routeData: RouteDataSource;
  }
}

export interface RouteDataOptions {
  /** How long the page waits for the calls; 0: no calls (pages carry no route data). */
  timeoutMs: number;
  /** where visitors' answers are kept, with their lifetime */
  cache: PageCache;
}

function hasMessage(body: unknown): boolean {
  const message = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : undefined;
  return typeof message === 'string' && message !== '';
}

const NOTHING: RouteData = Object.freeze({ answers: [], bodies: [], missing: false, failures: [], unavailable: false });

export default fp<RouteDataOptions>(
  async function routeData(fastify, opts) {
    function call(request: FastifyRequest, url: string, token: string | undefined): Promise<RouteAnswer> {
      // Never rejects: a call without an answer is one the SPA makes itself.
      return fastify.backend.getJson<unknown>(url, { request, ...(token ? { token } : {}) }).catch(() => undefined);
    }

    function answerOf(request: FastifyRequest, url: string, token: string | undefined): Promise<RouteAnswer> {
      if (token) return call(request, url, token);
      return opts.cache.routeAnswer(url, () => call(request, url, undefined));
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
        // A page opened from another site makes its searches as a visitor's (shared/writes.ts recordsTheCaller).
        const tokenOf = (c: ApiCall) =>
          recordsTheCaller('GET', c.path) && request.fromAnotherSite ? undefined : token;
        const settled = await Promise.all(
          calls.map((c) => Promise.race([answerOf(request, callUrl(c), tokenOf(c)), late])),
        );
        const data: RouteData = { answers: [], bodies: [], missing: false, failures: [], unavailable: false };
        settled.forEach((answer, i) => {
          const declared = calls[i] as ApiCall;
          if (answer === 'late' || answer === undefined) return;
          if (answer.status === 200) {
            data.answers.push({ key: declared.key, data: declared.select(answer.body) });
            data.bodies.push({ key: declared.key, data: answer.body });
          }
          // The API's own 404 (JSON): a plain 404 means the backend has no such call at all.
          else if (answer.status === 404 && declared.subject && answer.body !== undefined) {
            data.missing = true;
            data.failures.push({ key: declared.key, failure: normalizeFailure({ status: 404, data: answer.body }) });
          }
          // A call whose 404 means none (no related articles): the screen would keep that too.
          else if (answer.status === 404 && declared.whenMissing !== undefined)
            data.answers.push({ key: declared.key, data: declared.whenMissing });
          // The backend's own reason why it cannot answer now (数据库暂时不可用…): the first
          // screen says it, where it would show the part loading until the app asked again.
          else if (answer.status >= 500 && hasMessage(answer.body)) {
            data.unavailable = true;
            data.failures.push({
              key: declared.key,
              failure: normalizeFailure({ status: answer.status, data: answer.body }),
            });
          }
        });
        if (settled.includes('late'))
          request.log.warn({ timeoutMs: opts.timeoutMs }, 'route data late: the page goes without some of it');
        return data;
      } finally {
        clearTimeout(timer);
      }
    }

    fastify.decorate('routeData', { load });
  },
  { name: 'route-data', dependencies: ['backend-client', 'csrf'] },
);
