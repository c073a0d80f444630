// CSRF: a state-changing request must not be one another site made a browser send. Which
// calls change state is declared once, in shared/writes.ts: every method but GET, HEAD and
// OPTIONS, and the GET RPCs that spend (the downloads), which a link, a form, an image or a
// top-level navigation from any site would otherwise send with the SameSite=Lax cookie.
// - With the token cookie, it must come from our own origin: browsers say so with
//   Sec-Fetch-Site, older ones with Origin (or, on a GET, which carries none, Referer).
// - Sign-in calls (login, register, find-password, OAuth login, SMS codes) carry no cookie yet; one
//   that a browser says comes from another site is refused too, or another site could sign
//   its visitor in to the attacker's account (login CSRF). So is a writing GET without the
//   cookie and without an Authorization header of its own (a visitor's download would use the
//   per-address quota).
// - A JSON call under /api/v1 with a body must say it is JSON: a cross-site form can only send
//   text/plain, form-urlencoded or multipart without a CORS preflight, and the backend
//   reads any body as JSON. The uploads take multipart bodies only, the payment
//   notifications any (Alipay posts a form, WeChat Pay JSON): a body of another type is a 415.
// Requests without the cookie from other clients (API clients with their own bearer
// token, curl) pass. The decision is recorded on the request (`request.csrfDecision`) for
// the metrics and the access log.
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { GatewayError, MESSAGES } from '../errors';
import { isWriteCall } from '../../shared/writes';
import { SAFE_METHODS, isJsonType, isMultipartType, isUnder, pathOf } from '../http';
import { API_PREFIX, PAYMENT_NOTIFY_PREFIX, SIGN_IN_PATHS, UPLOAD_PREFIX } from './upstream';

export interface CsrfOptions {
  cookieName: string;
  /** undefined: the origin is the one the request was sent to (scheme + Host) */
  publicOrigin: string | undefined;
}

/**
 * Why a state-changing request passed or was refused. Passed: `same-origin` (the browser
 * says so, or Origin is ours), `no-cookie` (no session to ride on, not a sign-in from
 * another site). Refused (403): `cross-site` (Sec-Fetch-Site other than same-origin),
 * `foreign-origin` (Origin not ours), `no-origin` (the cookie, and neither header);
 * refused (415): `not-json` (a JSON call with a body of another type, or of no stated type),
 * `not-multipart` (an upload whose body is not a multipart form).
 */
export type CsrfReason =
  'same-origin' | 'no-cookie' | 'cross-site' | 'foreign-origin' | 'no-origin' | 'not-json' | 'not-multipart';

export interface CsrfDecision {
  decision: 'allowed' | 'refused';
  reason: CsrfReason;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** set for every state-changing request */
    csrfDecision?: CsrfDecision;
    /**
     * The browser says the request comes from another origin (the rule a state change is refused by): a call that
     * records under its caller (shared/writes.ts recordsTheCaller) is then sent without the session.
     */
    readonly fromAnotherSite: boolean;
  }
}

function expectedOrigin(request: FastifyRequest, publicOrigin: string | undefined): string | undefined {
  if (publicOrigin) return publicOrigin;
  const host = request.headers.host;
  return host ? `${request.protocol}://${host}` : undefined;
}

function originOf(url: string): string | undefined {
  return URL.canParse(url) ? new URL(url).origin : undefined;
}

/**
 * undefined: nothing says the request comes from another origin; else what does. Without
 * any of the headers the request is refused only when `proofRequired` (it carries the cookie).
 */
function foreignSource(
  request: FastifyRequest,
  publicOrigin: string | undefined,
  proofRequired: boolean,
): CsrfReason | undefined {
  const fetchSite = request.headers['sec-fetch-site'];
  // The browser's own statement wins: anything but same-origin (same-site, cross-site,
  // none) is refused even if an Origin header would match.
  if (fetchSite !== undefined) return fetchSite === 'same-origin' ? undefined : 'cross-site';
  // Older browsers: Origin, which a same-origin GET does not carry; then the Referer, which
  // no page can set to ours (another site can only leave it out).
  const claimed =
    request.headers.origin ??
    (request.headers.referer !== undefined ? (originOf(request.headers.referer) ?? 'null') : undefined);
  if (claimed === undefined) return proofRequired ? 'no-origin' : undefined;
  return claimed === expectedOrigin(request, publicOrigin) ? undefined : 'foreign-origin';
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * A body, if there is one, of the type the route takes: JSON for the API's calls, a multipart
 * form for the uploads, anything for the payment notifications and outside the API (a call
 * without a body has nothing to misread). Undefined when it is, else why not.
 */
function bodyTypeRefusal(request: FastifyRequest, path: string): 'not-json' | 'not-multipart' | undefined {
  if (!isUnder(path, API_PREFIX) || isUnder(path, PAYMENT_NOTIFY_PREFIX) || !hasBody(request)) return undefined;
  const type = request.headers['content-type'];
  if (isUnder(path, UPLOAD_PREFIX)) return isMultipartType(type) ? undefined : 'not-multipart';
  return isJsonType(type) ? undefined : 'not-json';
}

function csrfDecisionFor(request: FastifyRequest, path: string, opts: CsrfOptions): CsrfDecision {
  const hasCookie = request.cookies?.[opts.cookieName] !== undefined;
  const writingRead = SAFE_METHODS.has(request.method);
  if (hasCookie || SIGN_IN_PATHS.has(path) || (writingRead && request.headers.authorization === undefined)) {
    const foreign = foreignSource(request, opts.publicOrigin, hasCookie);
    if (foreign !== undefined) return { decision: 'refused', reason: foreign };
  }
  const badBody = bodyTypeRefusal(request, path);
  if (badBody) return { decision: 'refused', reason: badBody };
  return { decision: 'allowed', reason: hasCookie ? 'same-origin' : 'no-cookie' };
}

export default fp<CsrfOptions>(
  async function csrf(fastify, opts) {
    fastify.decorateRequest('csrfDecision', undefined);
    fastify.decorateRequest('fromAnotherSite', {
      getter() {
        return foreignSource(this, opts.publicOrigin, false) !== undefined;
      },
    });
    fastify.addHook('onRequest', (request, _reply, done) => {
      const path = pathOf(request.url);
      if (!isWriteCall(request.method, path)) return done();
      const decision = csrfDecisionFor(request, path, opts);
      request.csrfDecision = decision;
      if (decision.decision === 'allowed') return done();
      // The access line carries the refusal; the headers behind it only at debug.
      request.log.debug(
        {
          reason: decision.reason,
          origin: request.headers.origin,
          secFetchSite: request.headers['sec-fetch-site'],
          contentType: request.headers['content-type'],
        },
        'state change refused',
      );
      done(
        decision.reason === 'not-json'
          ? new GatewayError(415, MESSAGES.notJson)
          : decision.reason === 'not-multipart'
            ? new GatewayError(415, MESSAGES.notMultipart)
            : // A link or a bookmark to a download: say where downloads start.
              SAFE_METHODS.has(request.method)
              ? new GatewayError(403, MESSAGES.forbiddenCrossSiteRead)
              : new GatewayError(403, MESSAGES.forbiddenCsrf),
      );
    });
  },
  { name: 'csrf', dependencies: ['token-cookie'] },
);
