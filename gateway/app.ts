// The gateway as one Fastify instance built from a plain config object. Tests build it
// directly; server.ts adds the process around it.
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { GatewayConfig } from './config';
import { answerClientError, unencodedAddressAnswer, unreadableAddressAnswer } from './client-error';
import { loggerOptions } from './logging';
import accessLog, { laneAccessLog } from './plugins/access-log';
import errorHandler from './plugins/error-handler';
import tokenCookie from './plugins/token-cookie';
import securityHeaders, { siteSecurityHeaders } from './plugins/security-headers';
import authRateLimit from './plugins/rate-limit';
import csrf from './plugins/csrf';
import backendClient from './plugins/backend-client';
import health from './plugins/health';
import upstream, { canonicalApiUrl } from './plugins/upstream';
import startData from './plugins/start-data';
import expectContinue from './plugins/expect-continue';
import routeData from './plugins/route-data';
import robots from './plugins/robots';
import pageGuard, { type SessionChangeFeed } from './plugins/page-guard';
import spa from './plugins/spa';
import { FIRST_SCREEN_HANG_MS, FIRST_SCREEN_TIME_LIMIT_MS } from './first-screen';
import metrics from './plugins/metrics';
import type { Dispatcher } from 'undici';
import type { ViewFiles } from '../shared/view-files';
import { PageLane } from './page-lane';
import { PageCache, type PageChangeFeed } from './page-cache';
import pageChanges from './plugins/page-changes';
import publicReads from './plugins/public-reads';

/** How many route data answers, and visitors' rendered pages, are kept at most. */
const PAGE_CACHE_MAX = 2_000;
/** Pages a logged-in visitor's session keeps rendered (those without route data). */
const SESSION_PAGES_MAX = 32;
/**
 * The bytes of visitors' pages kept, and of the lane's answers (their compressed copies among
 * them): a reader's page carries its first page image (up to 256 KiB), 2,000 of them would be
 * half a GiB. 32 MiB each: about 1,300 pages of 25 KiB, or 100 readers' pages of 330 KiB. The
 * route data answers too: 2,000 lists of a large library (45–110 KiB of JSON each, every page
 * number and order a visitor asks for) would be 200 MiB of text, more once parsed.
 */
const PAGE_CACHE_BYTES = 32 * 2 ** 20;

/** `backendUrl`: a remote backend; unset with `BuildOptions.embedded`. */
export type GatewayBuildConfig = GatewayConfig;

export interface BuildOptions {
  /** where pino writes (tests capture the log here); default stdout */
  logStream?: DestinationStream;
  /** the embedded backend's page and cover answers, when it runs in this process (gateway/view-files.ts) */
  viewFiles?: ViewFiles<Readable> | undefined;
  /** the embedded backend in this process, answering every backend call without a socket (embedded-backend.ts) */
  dispatcher?: Dispatcher | undefined;
  /** the embedded backend's content changes: kept pages follow them at once (embedded-backend.ts) */
  backendChanges?: PageChangeFeed | undefined;
  /** the embedded backend's sessions ended or changed on any instance: the page guard drops them (embedded-backend.ts) */
  sessionChanges?: SessionChangeFeed | undefined;
  /** how long a page waits for its first screen (default FIRST_SCREEN_TIME_LIMIT_MS); tests of a late one shorten it */
  firstScreenTimeLimitMs?: number | undefined;
  /** how long after that a render still running is aborted (default FIRST_SCREEN_HANG_MS); tests of a hung one shorten it */
  firstScreenHangMs?: number | undefined;
}

export function buildGateway(config: GatewayBuildConfig, options: BuildOptions = {}): FastifyInstance {
  // Kept visitors' pages are answered in front of Fastify (gateway/page-lane.ts), metrics on
  // or off: the lane tells the access log and the metrics of each answer.
  const metricsEnabled = config.metrics?.enabled ?? false;
  const lane = new PageLane(PAGE_CACHE_MAX * 2, PAGE_CACHE_BYTES);
  // The answers given before Fastify's hooks run (an address it or Node cannot read) carry them too.
  const headers = siteSecurityHeaders(config.publicOrigin);
  const app = Fastify({
    serverFactory: lane.serverFactory,
    logger: loggerOptions(config.logLevel, options.logStream),
    trustProxy: config.trustProxy,
    // Our own ids: a client-sent X-Request-Id is not trusted.
    genReqId: () => randomUUID(),
    // Closing: new requests get 503, idle keep-alive sockets are closed, in-flight ones finish.
    return503OnClosing: true,
    // Fastify's 10 s per plugin is a clock a busy machine misses (the asset table's reads, a
    // database's migrations): a start that is slow is not a fault.
    pluginTimeout: 120_000,
    forceCloseConnections: 'idle',
    // One access line per request instead of Fastify's two (plugins/access-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    // API calls are routed, counted, checked and forwarded as the backend routes them.
    rewriteUrl: (req) => canonicalApiUrl(req.url ?? '/'),
    // An address the router cannot read gets a Chinese answer, not Fastify's English JSON.
    frameworkErrors: unreadableAddressAnswer(headers),
    // Any other request Node's parser refuses: Chinese too (decision 110).
    clientErrorHandler: answerClientError,
  });
  // A client that half-closes its side after a complete request (shutdown(SHUT_WR), `nc -N`,
  // some proxies) still gets the answer; by default Node aborts the request on that FIN.
  (app.server as { httpAllowHalfOpen?: boolean }).httpAllowHalfOpen = true;
  // An address with unencoded bytes gets a Chinese answer before Fastify's English one.
  app.server.prependListener('clientError', unencodedAddressAnswer(headers));
  lane.onAnswer(laneAccessLog(app.log, config.trustProxy));
  // Closing: every request is Fastify's, which answers 503 and closes the connections.
  app.addHook('preClose', (done) => {
    lane.close();
    done();
  });

  // Hooks in callback style: they run for every request, and an async hook costs a promise.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  // During shutdown, answers still in flight close their connection, so that keep-alive
  // clients do not hold the process open.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!app.server.listening) reply.header('connection', 'close');
    done(null, payload);
  });

  app.register(errorHandler);
  app.register(accessLog);
  // Before every route, so that its response hook sees them all.
  app.register(metrics, { enabled: metricsEnabled, token: config.metrics?.token, lane });
  app.register(tokenCookie, { cookieName: config.tokenCookie, publicOrigin: config.publicOrigin });
  app.register(securityHeaders, { publicOrigin: config.publicOrigin });
  app.register(authRateLimit, { ...config.authRateLimit, ipv6Prefix: config.ipv6Prefix });
  app.register(csrf, { cookieName: config.tokenCookie, publicOrigin: config.publicOrigin });
  app.register(backendClient, {
    backendUrl: config.backendUrl,
    dispatcher: options.dispatcher,
    timeoutMs: config.upstreamTimeoutMs,
  });
  app.register(health);
  app.register(upstream, {
    timeoutMs: config.upstreamTimeoutMs,
    bodyTimeoutMs: config.bodyTimeoutMs,
    viewFiles: options.viewFiles,
  });
  // The start data, route data and pages kept for public pages, and the one signal that drops them.
  const pageCache = new PageCache({
    startDataTtlMs: config.startDataTtlMs,
    routeDataTtlMs: config.routeDataTtlMs,
    maxEntries: PAGE_CACHE_MAX,
    maxSessionPages: SESSION_PAGES_MAX,
    maxPageBytes: PAGE_CACHE_BYTES,
    maxAnswerBytes: PAGE_CACHE_BYTES,
    maxSessionPageBytes: PAGE_CACHE_BYTES,
  });
  app.register(pageChanges, { cache: pageCache, backendChanges: options.backendChanges });
  // Visitors' public API reads, answered again by the lane while the page cache holds them current.
  app.register(publicReads, {
    lane,
    cache: pageCache,
    cookieName: config.tokenCookie,
    ttlMs: config.routeDataTtlMs,
  });
  app.register(startData, { cache: pageCache });
  app.register(expectContinue);
  app.register(pageGuard, {
    cookieName: config.tokenCookie,
    sessionCacheTtlMs: config.sessionCacheTtlMs,
    sessionCacheMax: config.sessionCacheMax,
    sessionChanges: options.sessionChanges,
  });
  app.register(routeData, {
    timeoutMs: config.routeDataTimeoutMs,
    cache: pageCache,
  });
  app.register(robots, { publicOrigin: config.publicOrigin });
  app.register(spa, {
    webDist: config.webDist,
    publicOrigin: config.publicOrigin,
    cache: pageCache,
    cookieName: config.tokenCookie,
    lane,
    firstScreenTimeLimitMs: options.firstScreenTimeLimitMs ?? FIRST_SCREEN_TIME_LIMIT_MS,
    firstScreenHangMs: options.firstScreenHangMs ?? FIRST_SCREEN_HANG_MS,
  });

  return app;
}
