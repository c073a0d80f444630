// Rate limits on the endpoints that guess passwords or create accounts (SIGN_IN_PATHS:
// login, register, both steps of find-password, the WeChat/QQ sign-in, and the SMS code
// sending and the sign-in, sign-up and reset by SMS code) and on the WeChat/QQ authorize
// that stores a state per call (SIGN_IN_READS; isLimitedSignIn), counted per
// client address and endpoint, on the canonical path the backend routes (so that
// `/api/v1/user/%6cogin` counts as the login). Each counted request carries the decision
// (`request.rateLimitDecision`) for the metrics and the access log; every other request
// passes without a look at the store.
import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { tooManyTriesMessage } from '../../shared/api-failure';
import { GatewayError } from '../errors';
import type { RateLimitSetting } from '../config';
import { pathOf } from '../http';
import { isLimitedSignIn } from '../../shared/sign-in-paths';
import { addressKey } from '../../shared/address-key';

export interface RateLimitDecision {
  /** the limited path the request was counted against */
  endpoint: string;
  /** `counted`: within the limit; `limited`: over it, refused with 429 */
  decision: 'counted' | 'limited';
}

declare module 'fastify' {
  interface FastifyRequest {
    /** set for requests to a limited endpoint */
    rateLimitDecision?: RateLimitDecision;
  }
}

function limitedEndpoint(request: FastifyRequest): string | undefined {
  const path = pathOf(request.url);
  return isLimitedSignIn(request.method, path) ? path : undefined;
}

export interface AuthRateLimitOptions extends RateLimitSetting {
  /** CLIENT_IPV6_PREFIX: an IPv6 client counts by its prefix of so many bits (addressKey), as in the backend's limits */
  ipv6Prefix: number;
}

export default fp<AuthRateLimitOptions>(
  async function authRateLimit(fastify, opts) {
    await fastify.register(rateLimit, { global: false });
    const count = fastify.createRateLimit({
      max: opts.max,
      timeWindow: opts.windowMs,
      keyGenerator: (request) => `${addressKey(request.ip, opts.ipv6Prefix)}|${request.rateLimitDecision?.endpoint}`,
    });
    fastify.decorateRequest('rateLimitDecision', undefined);

    fastify.addHook('onRequest', (request, reply, done) => {
      const endpoint = limitedEndpoint(request);
      if (endpoint === undefined) return done();
      const decision: RateLimitDecision = { endpoint, decision: 'counted' };
      request.rateLimitDecision = decision;
      count(request).then((state) => {
        if (state.isAllowed) return done();
        reply.header('x-ratelimit-limit', state.max);
        reply.header('x-ratelimit-remaining', state.remaining);
        reply.header('x-ratelimit-reset', state.ttlInSeconds);
        if (!state.isExceeded) return done();
        decision.decision = 'limited';
        reply.header('retry-after', state.ttlInSeconds);
        done(new GatewayError(429, tooManyTriesMessage(state.ttlInSeconds)));
      }, done);
    });
  },
  { name: 'rate-limit' },
);
