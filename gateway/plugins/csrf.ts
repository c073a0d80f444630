// CSRF: a state-changing request that carries the token cookie must come from our own
// origin. Browsers say so with Sec-Fetch-Site; older ones with Origin. Requests without the
// cookie (API clients with their own bearer token) are not at risk and pass.
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { GatewayError, MESSAGES } from '../errors';

export interface CsrfOptions {
  cookieName: string;
  /** undefined: the origin is the one the request was sent to (scheme + Host) */
  publicOrigin: string | undefined;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function expectedOrigin(request: FastifyRequest, publicOrigin: string | undefined): string | undefined {
  if (publicOrigin) return publicOrigin;
  const host = request.headers.host;
  return host ? `${request.protocol}://${host}` : undefined;
}

export function isSameOriginRequest(request: FastifyRequest, publicOrigin: string | undefined): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  // The browser's own statement wins: anything but same-origin (same-site, cross-site,
  // none) is refused even if an Origin header would match.
  if (fetchSite !== undefined) return fetchSite === 'same-origin';
  const origin = request.headers.origin;
  return origin !== undefined && origin === expectedOrigin(request, publicOrigin);
}

export default fp<CsrfOptions>(
  async function csrf(fastify, opts) {
    fastify.addHook('onRequest', async (request) => {
      if (!STATE_CHANGING.has(request.method)) return;
      if (request.cookies?.[opts.cookieName] === undefined) return;
      if (isSameOriginRequest(request, opts.publicOrigin)) return;
      request.log.warn(
        { origin: request.headers.origin, secFetchSite: request.headers['sec-fetch-site'] },
        'cross-origin state change refused',
      );
      throw new GatewayError(403, MESSAGES.forbiddenCsrf);
    });
  },
  { name: 'csrf', dependencies: ['token-cookie'] },
);
