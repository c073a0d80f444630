// One access line per request (Fastify's own pair of request lines is off): method, URL
// without the values of secret query parameters, status, time, bytes sent, client address,
// and what a guard refused or which backend call failed and why, as they recorded it on the
// request, or why the embedded backend answered a failure on purpose (`reason`: the
// backend's `request.expectedFailure`, which the client never gets; gateway/forward.ts). At
// info; a fault (5xx, a backend call without an answer) at warn, so that LOG_LEVEL=warn keeps
// the faults and drops the rest: a 5xx the backend answered on purpose is none (a payment
// notification for a provider without keys, which anyone may post). A request the client
// gave up on before its answer is a debug line.
import fp from 'fastify-plugin';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { isUnder, splitUrl } from '../http';
import type { LaneAnswered } from '../page-lane';

export const REDACTED = '[redacted]';
/** Query parameters whose value is a credential: token, access_token, code, password, sign, api_key, … */
const SECRET_PARAMETER =
  /(?:^|[_-])(?:token|code|password|passwd|pwd|secret|sign|signature|key|captcha|ticket|session|auth)$/i;
/** Paths whose last part is itself a credential: the signed download links (docs/moredoc.md §9). */
const SECRET_PATH_PREFIXES = ['/download'];

function parameterName(pair: string): string {
  const eq = pair.indexOf('=');
  const raw = eq === -1 ? pair : pair.slice(0, eq);
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/** The URL as it may be written to a log: secret query values and download tokens replaced. */
export function loggableUrl(url: string): string {
  const [path, query] = splitUrl(url);
  const prefix = SECRET_PATH_PREFIXES.find((p) => isUnder(path, p) && path.length > p.length);
  const shownPath = prefix === undefined ? path : `${prefix}/${REDACTED}`;
  if (query === '') return shownPath;
  const pairs = query
    .slice(1)
    .split('&')
    .map((pair) =>
      pair.includes('=') && SECRET_PARAMETER.test(parameterName(pair))
        ? `${pair.slice(0, pair.indexOf('='))}=${REDACTED}`
        : pair,
    );
  return `${shownPath}?${pairs.join('&')}`;
}

/** What a guard refused, as it recorded it: `csrf:<reason>`, `rate-limit`. */
function refusal(request: FastifyRequest): string | undefined {
  if (request.csrfDecision?.decision === 'refused') return `csrf:${request.csrfDecision.reason}`;
  if (request.rateLimitDecision?.decision === 'limited') return 'rate-limit';
  return undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** bytes the connection had sent when the request arrived */
    bytesSentBefore: number;
  }
}

function accessLine(request: FastifyRequest, reply: FastifyReply): Record<string, unknown> {
  const line: Record<string, unknown> = {
    method: request.method,
    url: loggableUrl(request.originalUrl),
    status: reply.statusCode,
    ms: Math.round(reply.elapsedTime * 10) / 10,
    bytes: (request.raw.socket?.bytesWritten ?? request.bytesSentBefore) - request.bytesSentBefore,
    ip: request.ip,
  };
  const refused = refusal(request);
  if (refused !== undefined) line.refused = refused;
  if (request.upstreamFailure) {
    line.upstream = request.upstreamFailure.kind;
    line.upstreamReason = request.upstreamFailure.reason;
  }
  if (request.expectedFailure !== undefined) line.reason = request.expectedFailure;
  return line;
}

const LEVELS_WITH_INFO = new Set(['trace', 'debug', 'info']);

/** The client's address as Fastify's `request.ip` gives it for the gateway's TRUST_PROXY. */
function clientAddress(trustProxy: boolean | string[]): (request: IncomingMessage) => string | undefined {
  if (trustProxy === false) return (request) => request.socket.remoteAddress;
  const trusted = trustProxy === true ? () => true : proxyAddr.compile(trustProxy);
  return (request) => proxyAddr.all(request, trusted).at(-1);
}

/**
 * The access line of a page the lane answered (gateway/page-lane.ts), the same line as the
 * hook below writes; undefined when the level drops it (the lane's answers are never faults).
 */
export function laneAccessLog(log: FastifyBaseLogger, trustProxy: boolean | string[]): LaneAnswered | undefined {
  if (!LEVELS_WITH_INFO.has(log.level)) return undefined;
  const ip = clientAddress(trustProxy);
  return (request, answer) => {
    log.info(
      {
        reqId: answer.id,
        method: request.method,
        url: loggableUrl(request.url ?? '/'),
        status: answer.status,
        ms: answer.ms,
        bytes: answer.bytes,
        ip: ip(request),
      },
      'request',
    );
  };
}

export default fp(
  async function accessLog(fastify) {
    // The level is set once at start; no line object is made when it would be dropped.
    const infoEnabled = LEVELS_WITH_INFO.has(fastify.log.level);
    fastify.decorateRequest('bytesSentBefore', 0);
    fastify.decorateRequest('expectedFailure', undefined);
    fastify.addHook('onRequest', (request, _reply, done) => {
      request.bytesSentBefore = request.raw.socket?.bytesWritten ?? 0;
      done();
    });
    fastify.addHook('onResponse', (request, reply, done) => {
      const fault =
        (reply.statusCode >= 500 && request.expectedFailure === undefined) || request.upstreamFailure !== undefined;
      if (fault) request.log.warn(accessLine(request, reply), 'request');
      else if (infoEnabled) request.log.info(accessLine(request, reply), 'request');
      done();
    });
    fastify.addHook('onRequestAbort', (request, done) => {
      request.log.debug(
        { method: request.method, url: loggableUrl(request.originalUrl) },
        'client gave up before the answer',
      );
      done();
    });
  },
  { name: 'access-log' },
);
