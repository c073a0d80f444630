// Security headers on every answer: a CSP that runs only our own scripts (the start data is
// inlined as type="application/json", which is data, not script), no framing, nosniff, and a
// referrer policy that does not leak paths to other sites. helmet makes the set; it is run
// once at start into a frozen object (as middleware per request, through @fastify/helmet,
// it rebuilt the same CSP string for every answer).
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AnalyticsScript } from '../analytics';

export interface SecurityHeadersOptions {
  publicOrigin: string | undefined;
}

function helmetOptions(https: boolean, analytics?: AnalyticsScript): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // A page with the site's statistics code runs that too, and what it loads (gateway/analytics.ts).
        scriptSrc: ["'self'", ...(analytics ? [analytics.hash, ...analytics.hosts] : [])],
        scriptSrcAttr: ["'none'"],
        // Semi UI sets inline style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Logos, banners and covers may be on another host (settings hold URLs).
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        mediaSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'", ...(analytics?.hosts ?? [])],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // Served over plain http (localhost), HSTS would be ignored at best.
    strictTransportSecurity: https ? { maxAge: 63072000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
  };
}

/**
 * The headers every answer carries, for a site served over https or not: helmet's output; a
 * page with the site's statistics code gets a CSP that lets it run (`pagePolicy`).
 */
export function securityHeaders(https: boolean, analytics?: AnalyticsScript): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const collector = {
    setHeader(name: string, value: string | number) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader() {},
  };
  // No directive is a function of the request, so helmet runs synchronously and needs none.
  helmet(helmetOptions(https, analytics))(
    {} as IncomingMessage,
    collector as unknown as ServerResponse,
    (error?: unknown) => {
      if (error) throw error;
    },
  );
  return Object.freeze(headers);
}

/** The headers of every answer of a site served from `publicOrigin` (over https or not). */
export const siteSecurityHeaders = (publicOrigin: string | undefined) =>
  securityHeaders(publicOrigin?.startsWith('https:') ?? false);

let lastPolicy: { https: boolean; analytics: AnalyticsScript; policy: string } | undefined;

/** The CSP of a page that carries the site's statistics code. */
export function pagePolicy(https: boolean, analytics: AnalyticsScript): string {
  if (lastPolicy?.https !== https || lastPolicy.analytics !== analytics) {
    const policy = securityHeaders(https, analytics)['content-security-policy'] ?? '';
    lastPolicy = { https, analytics, policy };
  }
  return lastPolicy.policy;
}

export default fp<SecurityHeadersOptions>(
  async function securityHeadersPlugin(fastify, opts) {
    const headers = siteSecurityHeaders(opts.publicOrigin);
    // First thing for every request, so that errors, redirects and 404s carry them too.
    fastify.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
  },
  { name: 'security-headers' },
);
