// CSRF: a state-changing request that carries the token cookie must come from our own
// origin. Browsers say so with Sec-Fetch-Site; older ones with Origin. Requests without the
// cookie (API clients with their own bearer token) are not at risk and pass. The decision
// is recorded on the request (`request.csrfDecision`) for the metrics and the access log.
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { GatewayError, MESSAGES } from '../errors';
import { STATE_CHANGING_METHODS } from '../http';

export interface CsrfOptions {
  cookieName: string;
  /** undefined: the origin is the one the request was sent to (scheme + Host) */
  publicOrigin: string | undefined;
}

/**
 * Why a state-changing request passed or was refused. Passed: `same-origin` (the browser
 * says so, or Origin is ours), `no-cookie` (no session to ride on). Refused: `cross-site`
 * (Sec-Fetch-Site other than same-origin), `foreign-origin` (Origin not ours), `no-origin`
 * (the cookie, and neither header).
 */
export type CsrfReason = 'same-origin' | 'no-cookie' | 'cross-site' | 'foreign-origin' | 'no-origin';

export interface CsrfDecision {
  decision: 'allowed' | 'refused';
  reason: CsrfReason;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** set for every state-changing request */
    csrfDecision?: CsrfDecision;
  }
}

function expectedOrigin(request: FastifyRequest, publicOrigin: string | undefined): string | undefined {
  if (publicOrigin) return publicOrigin;
  const host = request.headers.host;
  return host ? `${request.protocol}://${host}` : undefined;
}

/** undefined: the request comes from our origin; else why it does not, or cannot show it does. */
function foreignSource(request: FastifyRequest, publicOrigin: string | undefined): 'cross-site' | 'foreign-origin' | 'no-origin' | undefined {
  const fetchSite = request.headers['sec-fetch-site'];
  // The browser's own statement wins: anything but same-origin (same-site, cross-site,
  // none) is refused even if an Origin header would match.
  if (fetchSite !== undefined) return fetchSite === 'same-origin' ? undefined : 'cross-site';
  const origin = request.headers.origin;
  if (origin === undefined) return 'no-origin';
  return origin === expectedOrigin(request, publicOrigin) ? undefined : 'foreign-origin';
}

function csrfDecisionFor(request: FastifyRequest, opts: CsrfOptions): CsrfDecision {
  if (request.cookies?.[opts.cookieName] === undefined) return { decision: 'allowed', reason: 'no-cookie' };
  const foreign = foreignSource(request, opts.publicOrigin);
  return foreign === undefined ? { decision: 'allowed', reason: 'same-origin' } : { decision: 'refused', reason: foreign };
}

export default fp<CsrfOptions>(
  async function csrf(fastify, opts) {
    fastify.decorateRequest('csrfDecision', undefined);
    fastify.addHook('onRequest', (request, _reply, done) => {
      if (!STATE_CHANGING_METHODS.has(request.method)) return done();
      const decision = csrfDecisionFor(request, opts);
      request.csrfDecision = decision;
      if (decision.decision === 'allowed') return done();
      request.log.warn({ reason: decision.reason, origin: request.headers.origin, secFetchSite: request.headers['sec-fetch-site'] }, 'cross-origin state change refused');
      done(new GatewayError(403, MESSAGES.forbiddenCsrf));
    });
  },
  { name: 'csrf', dependencies: ['token-cookie'] },
);
