// Security headers on every answer: a CSP that runs only our own scripts (the start data is
// inlined as type="application/json", which is data, not script), no framing, nosniff, and a
// referrer policy that does not leak paths to other sites. The set is helmet 8's (with our
// CSP), computed once at start: @fastify/helmet rebuilt helmet and its CSP on every request.
import fp from 'fastify-plugin';

export interface SecurityHeadersOptions {
  publicOrigin: string | undefined;
}

const CSP_DIRECTIVES: Array<[string, string[]]> = [
  ['default-src', ["'self'"]],
  ['script-src', ["'self'"]],
  ['script-src-attr', ["'none'"]],
  // Semi UI sets inline style attributes.
  ['style-src', ["'self'", "'unsafe-inline'"]],
  // Logos, banners and covers may be on another host (settings hold URLs).
  ['img-src', ["'self'", 'data:', 'blob:', 'https:']],
  ['font-src', ["'self'", 'data:']],
  ['media-src', ["'self'", 'blob:']],
  ['connect-src', ["'self'"]],
  ['object-src', ["'none'"]],
  ['base-uri', ["'self'"]],
  ['form-action', ["'self'"]],
  ['frame-ancestors', ["'none'"]],
];

/** The headers every answer carries, for a site served over https or not. */
export function securityHeaders(https: boolean): Readonly<Record<string, string>> {
  const csp = [...CSP_DIRECTIVES, ...(https ? [['upgrade-insecure-requests', []] as [string, string[]]] : [])]
    .map(([name, values]) => [name, ...values].join(' '))
    .join(';');
  return Object.freeze({
    'content-security-policy': csp,
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'strict-origin-when-cross-origin',
    // Served over plain http (localhost), HSTS would be ignored at best.
    ...(https ? { 'strict-transport-security': 'max-age=63072000; includeSubDomains' } : {}),
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'DENY',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  });
}

export default fp<SecurityHeadersOptions>(
  async function securityHeadersPlugin(fastify, opts) {
    const headers = securityHeaders(opts.publicOrigin?.startsWith('https:') ?? false);
    // First thing for every request, so that errors, redirects and 404s carry them too.
    fastify.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
  },
  { name: 'security-headers' },
);
