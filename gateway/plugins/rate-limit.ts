// Rate limits on the endpoints that guess passwords or create accounts: login, register,
// both steps of find-password and the WeChat/QQ sign-in, counted per client address and endpoint.
import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { GatewayError, MESSAGES } from '../errors';
import type { RateLimitSetting } from '../config';
import { pathOf } from './upstream';

export const RATE_LIMITED_PATHS = new Set([
  '/api/v1/user/login',
  '/api/v1/user/register',
  '/api/v1/user/findpassword/stepone',
  '/api/v1/user/findpassword/steptwo',
  '/api/v1/oauth/login',
]);

function limitedPath(request: FastifyRequest): string | undefined {
  if (request.method !== 'POST' && request.method !== 'PUT') return undefined;
  const path = pathOf(request.url);
  return RATE_LIMITED_PATHS.has(path) ? path : undefined;
}

export default fp<RateLimitSetting>(
  async function authRateLimit(fastify, opts) {
    await fastify.register(rateLimit, {
      global: true,
      max: opts.max,
      timeWindow: opts.windowMs,
      // Only the endpoints above are counted; everything else is let through untouched.
      allowList: (request) => limitedPath(request) === undefined,
      keyGenerator: (request) => `${request.ip}|${limitedPath(request)}`,
      errorResponseBuilder: () => new GatewayError(429, MESSAGES.tooManyRequests),
    });
  },
  { name: 'rate-limit' },
);
