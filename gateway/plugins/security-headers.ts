// Security headers on every answer: a CSP that runs only our own scripts (the start data is
// inlined as type="application/json", which is data, not script), no framing, nosniff, and a
// referrer policy that does not leak paths to other sites.
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';

export interface SecurityHeadersOptions {
  publicOrigin: string | undefined;
}

export default fp<SecurityHeadersOptions>(
  async function securityHeaders(fastify, opts) {
    const https = opts.publicOrigin?.startsWith('https:') ?? false;
    await fastify.register(helmet, {
      global: true,
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          scriptSrcAttr: ["'none'"],
          // Semi UI sets inline style attributes.
          styleSrc: ["'self'", "'unsafe-inline'"],
          // Logos, banners and covers may be on another host (settings hold URLs).
          imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
          fontSrc: ["'self'", 'data:'],
          mediaSrc: ["'self'", 'blob:'],
          connectSrc: ["'self'"],
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
    });
  },
  { name: 'security-headers' },
);
