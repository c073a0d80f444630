// /metrics in Prometheus text format: requests and their latency by route group and status,
// upstream failures, and the decisions of the gateway's guards. Off unless configured
// (METRICS=1, or METRICS_TOKEN which also requires `Authorization: Bearer <token>`); when
// off no hook is installed and /metrics answers 404.
import fp from 'fastify-plugin';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { GatewayError, MESSAGES } from '../errors';
import type { PageLane } from '../page-lane';
import { isUnder, pathOf } from '../http';
import { API_PREFIX, BACKEND_FILES, BACKEND_PREFIXES } from './upstream';

export interface MetricsOptions {
  enabled: boolean;
  /** when set, a scrape must send `Authorization: Bearer <token>` */
  token: string | undefined;
  /** The lane in front of Fastify (gateway/page-lane.ts): its answers pass no hook, it reports them. */
  lane?: PageLane | undefined;
}

export const METRICS_PATH = '/metrics';
const UNAUTHORIZED_MESSAGE = '需要有效的访问令牌';
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export type RouteGroup = 'api' | 'upload' | 'file' | 'asset' | 'page' | 'health' | 'metrics' | 'other';

/**
 * The group a request is counted in, from its path: `api` (proxied JSON calls), `upload`
 * (multipart uploads), `file` (document pages, covers, downloads, uploaded files, sitemap),
 * `asset` (the SPA's hashed files), `health`, `metrics`, and `page` for every other GET/HEAD
 * (HTML navigations and the SPA's top-level files). Bounded, so it is safe as a label.
 */
export function routeGroup(method: string, url: string): RouteGroup {
  const path = pathOf(url).toLowerCase();
  if (isUnder(path, `${API_PREFIX}/upload`)) return 'upload';
  if (isUnder(path, API_PREFIX)) return 'api';
  if (isUnder(path, '/assets')) return 'asset';
  if (path === '/healthz' || path === '/readyz') return 'health';
  if (path === METRICS_PATH) return 'metrics';
  if (BACKEND_PREFIXES.some((prefix) => isUnder(path, prefix)) || BACKEND_FILES.includes(path)) return 'file';
  return method === 'GET' || method === 'HEAD' ? 'page' : 'other';
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function bearerToken(request: FastifyRequest): string | undefined {
  const match = /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

export default fp<MetricsOptions>(
  async function metrics(fastify, opts) {
    if (!opts.enabled) {
      fastify.get(METRICS_PATH, async () => {
        throw new GatewayError(404, MESSAGES.notFound);
      });
      return;
    }

    const registry = new Registry();
    collectDefaultMetrics({ register: registry });

    const requests = new Counter({
      name: 'gateway_http_requests_total',
      help: 'HTTP requests answered by the gateway, by route group and status code',
      labelNames: ['group', 'status'] as const,
      registers: [registry],
    });
    const duration = new Histogram({
      name: 'gateway_http_request_duration_seconds',
      help: 'Time from request received to response sent, by route group and status code',
      labelNames: ['group', 'status'] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    });
    const upstreamErrors = new Counter({
      name: 'gateway_upstream_errors_total',
      help: 'Requests for which a call to the backend got no answer (timeout, refused, reset, aborted, other)',
      labelNames: ['kind'] as const,
      registers: [registry],
    });
    const guardDecisions = new Counter({
      name: 'gateway_guard_decisions_total',
      help: 'Decisions of the guards: the page guard on /admin and /member pages (allow, login, home), the site switches (closed, login), CSRF and rate-limit refusals',
      labelNames: ['guard', 'decision'] as const,
      registers: [registry],
    });

    /** What the guards decided, as they recorded it on the request. */
    function recordGuardDecisions(request: FastifyRequest, group: RouteGroup): void {
      const page = request.pageDecision;
      if (page && group === 'page') {
        // The site switches act on every page: the closed-site page, and a public page sent
        // to the login page (only a switch does that).
        if (page.decision === 'closed' || (page.access === 'public' && page.decision === 'login')) {
          guardDecisions.inc({ guard: 'site', decision: page.decision });
        } else if (page.access !== 'public') {
          guardDecisions.inc({
            guard: page.access === 'admin' ? 'admin_page' : 'member_page',
            decision: page.decision,
          });
        }
      }
      if (request.csrfDecision?.decision === 'refused') guardDecisions.inc({ guard: 'csrf', decision: 'refused' });
      if (request.rateLimitDecision?.decision === 'limited')
        guardDecisions.inc({ guard: 'rate_limit', decision: 'refused' });
      if (request.upstreamFailure) upstreamErrors.inc({ kind: request.upstreamFailure.kind });
    }

    fastify.addHook('onResponse', async (request, reply) => {
      const group = routeGroup(request.method, request.url);
      const labels = { group, status: String(reply.statusCode) };
      requests.inc(labels);
      duration.observe(labels, reply.elapsedTime / 1000);
      recordGuardDecisions(request, group);
    });
    // The lane answers public pages of visitors without a session: no guard decides anything
    // there worth counting (a public page allowed), only the answer and its time.
    opts.lane?.onAnswer((request, answer) => {
      const labels = { group: routeGroup(request.method ?? 'GET', request.url ?? '/'), status: String(answer.status) };
      requests.inc(labels);
      duration.observe(labels, answer.ms / 1000);
    });

    const expected = opts.token === undefined ? undefined : digest(opts.token);
    fastify.get(METRICS_PATH, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (expected !== undefined) {
        const given = bearerToken(request);
        if (given === undefined || !timingSafeEqual(digest(given), expected)) {
          reply.header('www-authenticate', 'Bearer realm="metrics"');
          throw new GatewayError(401, UNAUTHORIZED_MESSAGE);
        }
      }
      reply.type(registry.contentType);
      return registry.metrics();
    });
  },
  { name: 'metrics' },
);
