// The login token lives in an httpOnly cookie; the SPA never sees it. This plugin reads it
// from requests and writes/clears it on replies, with the same attributes every time.
import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import type { FastifyReply } from 'fastify';
import { beforeExpiry, expiryMs } from '../../shared/clocks';
import { GatewayError, MESSAGES } from '../errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** the token cookie's value when it is well-formed, else undefined */
    readonly sessionToken: string | undefined;
  }
  interface FastifyReply {
    /** sets the cookie (Max-Age to the token's end: its exp and the clocks' tolerance) and marks the answer no-store */
    setTokenCookie(token: string): void;
    clearTokenCookie(): void;
  }
}

export interface TokenCookieOptions {
  cookieName: string;
  /** undefined: Secure follows the request's protocol (trusted proxies only) */
  publicOrigin: string | undefined;
}

// Browsers drop cookies over 4096 bytes (name + value); stay clear like oauth2-proxy does.
export const MAX_TOKEN_LENGTH = 4000;
const TOKEN_SHAPE = /^[A-Za-z0-9._~+/=-]+$/;

export function isWellFormedToken(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_TOKEN_LENGTH && TOKEN_SHAPE.test(value);
}

/** The JWT's `exp` claim (unix seconds), read without verifying: only the backend can verify. */
export function jwtExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (payload === undefined) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const exp = typeof claims === 'object' && claims !== null ? (claims as { exp?: unknown }).exp : undefined;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A token worth sending: well-formed, a JWT, and not past its `exp` by more than the backend
 * allows (CLOCK_TOLERANCE_S): a gateway whose clock is a few minutes ahead still lets the member
 * through to the backend, which takes the token.
 */
export function isLiveToken(token: string, nowMs = Date.now()): boolean {
  if (token.split('.').length !== 3) return false;
  const exp = jwtExpiry(token);
  return exp === undefined || beforeExpiry(exp, nowMs);
}

export default fp<TokenCookieOptions>(
  async function tokenCookie(fastify, opts) {
    await fastify.register(cookie);
    const secure: boolean | 'auto' = opts.publicOrigin ? opts.publicOrigin.startsWith('https:') : 'auto';
    const attributes = { httpOnly: true, sameSite: 'lax' as const, path: '/', secure };

    fastify.decorateRequest('sessionToken', {
      getter() {
        const value = this.cookies?.[opts.cookieName];
        return isWellFormedToken(value) ? value : undefined;
      },
    });

    fastify.decorateReply('setTokenCookie', function setTokenCookie(this: FastifyReply, token: string) {
      if (!isWellFormedToken(token)) throw new GatewayError(502, MESSAGES.tokenTooLarge);
      const exp = jwtExpiry(token);
      // The cookie lives as long as the backend takes the token by this clock (expiryMs), not to the raw exp: a
      // gateway ahead of the issuer's clock would otherwise sign a member out minutes before their token ends.
      const maxAge = exp === undefined ? undefined : Math.floor((expiryMs(exp) - Date.now()) / 1000);
      this.header('cache-control', 'no-store');
      if (maxAge !== undefined && maxAge <= 0) {
        this.clearCookie(opts.cookieName, attributes);
        return;
      }
      this.setCookie(opts.cookieName, token, maxAge === undefined ? attributes : { ...attributes, maxAge });
    });

    fastify.decorateReply('clearTokenCookie', function clearTokenCookie(this: FastifyReply) {
      this.header('cache-control', 'no-store');
      this.clearCookie(opts.cookieName, attributes);
    });
  },
  { name: 'token-cookie' },
);
