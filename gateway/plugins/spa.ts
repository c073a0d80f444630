// The SPA: hashed assets from web/dist/assets (pre-compressed, immutable), the few files at
// the top of web/dist, and index.html for every page navigation, after the page guard, with
// the page's own head, its main content for crawlers (gateway/page-html.ts), and the start
// data with the page's route data filled in. This plugin gathers what a page is made from;
// gateway/page-render.ts makes it, gateway/page-cache.ts keeps it, gateway/page-encoding.ts
// compresses it, the lane answers it again.
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { readdir, readFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isBot } from '../../shared/bots';
import { isMissingCategory, isPastTheEnd } from '../../shared/page-head';
import { matchRoute, routeDataCalls } from '../../shared/routes';
import { normalizePath } from '../../shared/access';
import { MESSAGES, errorBody } from '../errors';
import { isUnder, pageOrigin, pathOf, splitUrl } from '../http';
import { pageAnalytics } from '../analytics';
import { loadFirstScreen } from '../first-screen';
import { IMAGE_FIRST_SCRIPT, IMAGE_FIRST_SCRIPT_PATH } from '../image-first';
import { fetchInlineImage } from '../inline-image';
import type { PageCache } from '../page-cache';
import { encodedBody, pageCoding } from '../page-encoding';
import type { PageLane } from '../page-lane';
import {
  CONTENT_MARKER,
  HEAD_MARKER,
  START_DATA_MARKER,
  queryOf,
  renderUnavailablePage,
  renderVisitorPage,
  type RenderedPage,
} from '../page-render';
import assets from './assets';
import { pagePolicy } from './security-headers';
import type { VisitorSession } from './page-guard';
import type { RouteData } from './route-data';
import type { PublicStartData } from './start-data';
import { BACKEND_FILES, BACKEND_PREFIXES } from './upstream';

export interface SpaOptions {
  webDist: string;
  /** The site's public origin for canonical URLs; undefined: the request's own. */
  publicOrigin: string | undefined;
  /** Where pages are kept (with the start data and route data they are made from). */
  cache: PageCache;
  /** The session cookie's name: a request that may carry one is not the lane's. */
  cookieName: string;
  /** Where kept visitors' pages are answered before Fastify (gateway/page-lane.ts); none: all here. */
  lane?: PageLane | undefined;
  /** How long a page waits for its first screen before it goes without (FIRST_SCREEN_TIME_LIMIT_MS). */
  firstScreenTimeLimitMs: number;
  /** How long after that a render still running is aborted, its thread ended (FIRST_SCREEN_HANG_MS). */
  firstScreenHangMs: number;
}

const TOP_FILE_CACHE = 'public, max-age=3600';
/** Files at the top of the site that the gateway makes itself. */
const OWN_FILES = ['/robots.txt', IMAGE_FIRST_SCRIPT_PATH];

/** Paths that are never a page: a miss there is a JSON 404, not index.html. */
const NEVER_PAGES = ['/api', '/assets', ...BACKEND_PREFIXES, ...BACKEND_FILES];

const NO_ROUTE_DATA: RouteData = Object.freeze({
  answers: [],
  bodies: [],
  missing: false,
  failures: [],
  unavailable: false,
});

/** A browser navigation (or a client that takes anything) to something that is not a file. */
function wantsPage(request: FastifyRequest, normalized: string): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const lower = normalized.toLowerCase();
  if (NEVER_PAGES.some((prefix) => isUnder(lower, prefix))) return false;
  return acceptsPage(request.headers.accept, normalized);
}

/** What the client takes, for a page path: HTML, or anything when the path names no file. */
function acceptsPage(accept: string | undefined = '', path: string): boolean {
  if (accept.includes('text/html')) return true;
  const lastSegment = path.slice(path.lastIndexOf('/') + 1);
  return (accept === '' || accept.includes('*/*')) && !lastSegment.includes('.');
}

function notFound(reply: FastifyReply) {
  return reply
    .code(404)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(errorBody(404, MESSAGES.notFound));
}

export default fp<SpaOptions>(
  async function spa(fastify, opts) {
    const indexPath = join(opts.webDist, 'index.html');
    let template: string;
    try {
      template = await readFile(indexPath, 'utf8');
    } catch {
      throw new Error(
        // WEB_DIST set: npm start builds nothing, and npm run build:web writes web/dist, not that folder.
        `The SPA is not built: ${indexPath} is missing. WEB_DIST names the built SPA (default web/dist, ` +
          'which `npm run build:web` makes, and `npm start` builds while WEB_DIST is unset).',
      );
    }
    const missingMarkers = [HEAD_MARKER, CONTENT_MARKER, START_DATA_MARKER].filter(
      (marker) => !template.includes(marker),
    );
    if (missingMarkers.length > 0)
      fastify.log.warn({ indexPath, missingMarkers }, 'index.html lacks some of the page markers');

    // reply.sendFile for the files below and for what the asset table leaves to it.
    await fastify.register(fastifyStatic, {
      root: opts.webDist,
      serve: false,
      preCompressed: true,
      index: false,
      dotfiles: 'deny',
    });
    await fastify.register(assets, { dir: join(opts.webDist, 'assets') });

    // favicon.ico and the like from web/public (index.html is never served raw).
    const topFiles = (await readdir(opts.webDist, { withFileTypes: true })).filter(
      (entry) =>
        entry.isFile() &&
        entry.name !== 'index.html' &&
        /^[\w-][\w.-]*$/.test(entry.name) &&
        !/\.(?:br|gz)$/.test(entry.name),
    );
    for (const { name } of topFiles) {
      if (BACKEND_FILES.includes(`/${name}`) || OWN_FILES.includes(`/${name}`)) continue;
      fastify.get(`/${name}`, (_request, reply) => {
        reply.header('cache-control', TOP_FILE_CACHE);
        return reply.sendFile(name, opts.webDist, { cacheControl: false });
      });
    }

    // The loader of the app's code on a page whose first screen's image is painted first (image-first.ts).
    fastify.get(IMAGE_FIRST_SCRIPT_PATH, (_request, reply) =>
      reply.header('cache-control', TOP_FILE_CACHE).type('text/javascript; charset=utf-8').send(IMAGE_FIRST_SCRIPT),
    );
    const firstScreen = await loadFirstScreen(
      opts.webDist,
      fastify.log,
      opts.firstScreenTimeLimitMs,
      opts.firstScreenHangMs,
    );
    fastify.addHook('onClose', async () => firstScreen?.close());

    const { cache } = opts;
    const https = opts.publicOrigin?.startsWith('https:') ?? false;

    /** A visitor's page is the same for every visitor of the URL (and origin), crawlers apart. */
    function visitorKeyOf(request: FastifyRequest, normalized: string, closed: boolean): string {
      const crawler = isBot(request.headers['user-agent']);
      return `${crawler ? 'c' : 'p'}${closed ? 'x' : ''} ${pageOrigin(request, opts.publicOrigin)}${normalized}${splitUrl(request.url)[1]}`;
    }

    function pageFor(
      request: FastifyRequest,
      normalized: string,
      closed: boolean,
      session: VisitorSession,
      publicPart: PublicStartData | undefined,
    ): RenderedPage | Promise<RenderedPage> {
      const [, search] = splitUrl(request.url);
      const plan = () => {
        const match = matchRoute(normalized);
        const address = { query: queryOf(search), categories: publicPart?.categories ?? [] };
        const withData =
          !closed && match !== undefined && routeDataCalls(match, address.query, address.categories).length > 0;
        return { match, address, withData };
      };
      const fresh = async ({ match, address, withData }: ReturnType<typeof plan>) => {
        const loaded =
          withData && match ? await fastify.routeData.load(request, match, address, session.token) : NO_ROUTE_DATA;
        // A category the site does not show, or a list's page past its last, is missing too.
        const missing =
          !closed &&
          !!publicPart &&
          (isMissingCategory(match, address.categories) ||
            isPastTheEnd({ match, ...address, answers: loaded.answers }));
        const routeData = missing ? { ...loaded, missing: true } : loaded;
        return renderVisitorPage(
          template,
          firstScreen,
          {
            path: normalized,
            search,
            origin: pageOrigin(request, opts.publicOrigin),
            match,
            closed,
            session,
            publicPart,
            routeData,
            crawler: isBot(request.headers['user-agent']),
            // A page with route data is made for its request alone, never kept (pageFor below).
            fromAnotherSite: withData && request.fromAnotherSite,
          },
          // Within the first screen's own time limit: the page is not made later for its image.
          (path) => fetchInlineImage(fastify.backend.pool, path, opts.firstScreenTimeLimitMs),
        );
      };
      // A visitor's page that is kept is answered before anything else is worked out.
      if (!session.token)
        return cache.visitorPage(visitorKeyOf(request, normalized, closed), publicPart, () => fresh(plan()));
      const planned = plan();
      if (planned.withData) return fresh(planned);
      return cache.sessionPage(session, `${closed ? 'x' : ''}${normalized}${search}`, publicPart, () => fresh(planned));
    }

    // The lane answers a visitor's page again as long as the page kept here is the one this
    // handler would answer: same page, not expired, same start data and route data (PageCache).
    const lane = opts.lane;
    lane?.install(laneKey);

    /** The lane's key of a request: a visitor's page request, by all the answer depends on. */
    function laneKey(raw: IncomingMessage): string | undefined {
      const { headers } = raw;
      // A session, or what may be one, is the page guard's to resolve.
      if (headers.authorization !== undefined || headers.cookie?.includes(opts.cookieName)) return undefined;
      const url = raw.url ?? '/';
      if (!acceptsPage(headers.accept, pathOf(url))) return undefined;
      const origin = opts.publicOrigin
        ? ''
        : `${headers.host}\n${String(headers['x-forwarded-host'])}\n${String(headers['x-forwarded-proto'])}`;
      return `${pageCoding(headers['accept-encoding']) ?? ''}\n${isBot(headers['user-agent']) ? 'c' : 'p'}\n${origin}\n${url}`;
    }

    function keepInLane(
      request: FastifyRequest,
      reply: FastifyReply,
      answer: { normalized: string; closed: boolean; page: RenderedPage; body: Buffer },
    ): void {
      // Only a request the lane would take as it came (a canonical path: the lane does not normalise).
      if (request.method !== 'GET' || request.raw.url !== `${answer.normalized}${splitUrl(request.url)[1]}`) return;
      const key = laneKey(request.raw);
      if (key === undefined) return;
      const current = cache.currentTest(visitorKeyOf(request, answer.normalized, answer.closed), answer.page);
      if (!current) return;
      const headers: string[] = [];
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value === undefined || name === 'x-request-id') continue;
        // never for a visitor's page; if it were, the answer would be this visitor's alone
        if (name === 'set-cookie') return;
        headers.push(name, Array.isArray(value) ? value.join(', ') : String(value));
      }
      headers.push('content-length', String(answer.body.length));
      // A page past its time is the page cache's to answer while its successor is made.
      const state = (time: number) => (current(time) ? 'answer' : 'drop');
      lane?.keep(key, { status: answer.page.status, headers, body: answer.body, state });
    }

    fastify.setNotFoundHandler(async (request, reply) => {
      const normalized = normalizePath(request.url);
      if (normalized === null || !wantsPage(request, normalized)) return notFound(reply);

      const outcome = await fastify.pageGuard.check(request, reply);
      if (outcome.kind === 'refused') return notFound(reply);
      if (outcome.kind === 'redirect') {
        return reply.code(302).header('cache-control', 'no-store').header('location', outcome.location).send();
      }
      if (outcome.kind === 'unavailable') {
        // Never kept: the next load, once the backend is back, gets the page itself.
        return reply
          .code(503)
          .header('cache-control', 'no-store')
          .header('retry-after', '10')
          .type('text/html; charset=utf-8')
          .send(renderUnavailablePage(template, `${normalized}${splitUrl(request.url)[1]}`));
      }

      const { session, publicPart } = outcome;
      const closed = outcome.kind === 'closed';
      const page = await pageFor(request, normalized, closed, session, publicPart);
      const coding = pageCoding(request.headers['accept-encoding']);
      reply
        .code(page.status)
        .header('cache-control', session.token ? 'private, no-cache' : 'no-cache')
        .header('vary', page.forCrawlers ? 'Accept-Encoding, Cookie, User-Agent' : 'Accept-Encoding, Cookie')
        .type('text/html; charset=utf-8');
      if (coding) reply.header('content-encoding', coding);
      if (page.link) reply.header('link', page.link);
      // The page carries the site's statistics code (page-render.ts): its CSP lets it run.
      const analytics = pageAnalytics(publicPart?.settings.system?.analytics, normalized);
      if (analytics) reply.header('content-security-policy', pagePolicy(https, analytics));
      const encoded = coding ? encodedBody(page, coding) : page.html;
      const body = Buffer.isBuffer(encoded) ? encoded : await encoded;
      if (lane && !session.token) keepInLane(request, reply, { normalized, closed, page, body });
      return reply.send(body);
    });
  },
  { name: 'spa', dependencies: ['page-guard', 'start-data', 'route-data'] },
);
