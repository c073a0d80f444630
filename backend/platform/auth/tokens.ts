import crypto from 'node:crypto';
import { SignJWT, errors, jwtVerify } from 'jose';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db';
import { CLOCK_TOLERANCE_S, beforeExpiry } from '../../../shared/clocks';
import { sharedSecret } from './secrets';

// Login tokens as MOREDOC issues them (docs/moredoc.md §4): HS256, claims UserId, UUID,
// HaveAccess=false, exp, iat, iss="moredoc", and ours, IssuedAtMs (iat in ms, which MOREDOC's
// clients ignore). Logout blacklists the UUID.

export interface TokenClaims {
  userId: number;
  uuid: string;
  exp: number;
  /**
   * When it was issued, in ms: our `IssuedAtMs` claim (a password change ends the sessions opened before
   * it, even within the same second), else `iat` (MOREDOC's tokens, seconds), else 0.
   */
  issuedAtMs: number;
}

const ISSUER = 'moredoc';

/** JWT_SECRET, or the secret generated once into the database (platform/auth/secrets.ts). */
export async function loadJwtSecret(db: Database, dataDir: string, fromEnv?: string): Promise<string> {
  return fromEnv || sharedSecret(db, 'jwt', dataDir);
}

/**
 * Tokens whose signature this service checked, at most: a member's page makes three backend
 * calls, each with the same token, and the signature's check (jose's, through WebCrypto, a
 * thread-pool job each) was 6–9 % of the page's CPU. The expiry is read again at every use;
 * logouts and deleted users are not kept here (session.ts reads them for every call).
 */
const VERIFIED_KEPT = 5000;

/**
 * A machine whose clock is further than this off the database's is logged (once a minute at
 * most): told by a token issued ahead of it (behind), or at a sign-in it issues (either way).
 */
const SKEW_WARNED_S = 5;
const SKEW_WARNING_EVERY_MS = 60_000;

export interface TokenServiceOptions {
  /**
   * The clock tokens are issued by: the database's (`databaseNow`), so that `iat` and `IssuedAtMs`
   * agree with `sessions_from`, which a password change writes by it too, whichever machine
   * issued the token. The process's clock when not given (unit tests).
   */
  now?: () => Promise<Date>;
  /** where this machine's clock found off the database's is told */
  log?: Pick<FastifyBaseLogger, 'warn'>;
}

export class TokenService {
  private readonly key: Uint8Array;
  /** token → its claims, in the order first verified (the oldest goes first when full) */
  private readonly verified = new Map<string, TokenClaims>();
  private readonly now: () => Promise<Date>;
  private readonly log: Pick<FastifyBaseLogger, 'warn'> | undefined;
  private skewWarnedAt = -Infinity;

  constructor(
    secret: string,
    private readonly expireDays: number,
    options: TokenServiceOptions = {},
  ) {
    this.key = new TextEncoder().encode(secret);
    this.now = options.now ?? (async () => new Date());
    this.log = options.log;
  }

  async issue(userId: number): Promise<{ token: string; uuid: string; exp: number }> {
    const issuedAtMs = (await this.now()).getTime();
    const behindS = Math.round((issuedAtMs - Date.now()) / 1000);
    if (Math.abs(behindS) > SKEW_WARNED_S) this.warnSkew(behindS);
    const iat = Math.floor(issuedAtMs / 1000);
    const exp = iat + this.expireDays * 86400;
    const uuid = crypto.randomUUID();
    const token = await new SignJWT({ UserId: userId, UUID: uuid, HaveAccess: false, IssuedAtMs: issuedAtMs })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setExpirationTime(exp)
      .setIssuedAt(iat)
      .setIssuer(ISSUER)
      .sign(this.key);
    return { token, uuid, exp };
  }

  /** The claims of a valid token, or null (bad signature, expired, issued in the future, malformed). */
  async verify(token: string): Promise<TokenClaims | null> {
    const read = await this.read(token);
    return read === 'expired' ? null : read;
  }

  /** As `verify`, but a token this service signed whose time has run out is told apart: 'expired'. */
  async read(token: string): Promise<TokenClaims | 'expired' | null> {
    const kept = this.verified.get(token);
    if (kept) {
      if (beforeExpiry(kept.exp, Date.now())) return kept;
      this.verified.delete(token);
      return 'expired';
    }
    const claims = await this.check(token);
    if (claims && claims !== 'expired') {
      if (this.verified.size >= VERIFIED_KEPT) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, claims);
    }
    return claims;
  }

  private async check(token: string): Promise<TokenClaims | 'expired' | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256', 'HS384', 'HS512'],
        clockTolerance: CLOCK_TOLERANCE_S,
      });
      // jose refused an `exp` past by more than the tolerance (JWTExpired, below).
      const now = Math.floor(Date.now() / 1000);
      if (typeof payload.exp !== 'number') return null;
      if (typeof payload.iat === 'number') {
        if (payload.iat > now + CLOCK_TOLERANCE_S) return null;
        // Issued ahead of this machine's clock by more than a rounding: this clock is behind.
        if (payload.iat > now + SKEW_WARNED_S) this.warnSkew(payload.iat - now);
      }
      const userId = payload.UserId;
      const uuid = payload.UUID;
      if (typeof userId !== 'number' || !Number.isSafeInteger(userId) || userId <= 0 || typeof uuid !== 'string')
        return null;
      const issuedAtMs =
        typeof payload.IssuedAtMs === 'number'
          ? payload.IssuedAtMs
          : typeof payload.iat === 'number'
            ? payload.iat * 1000
            : 0;
      return { userId, uuid, exp: payload.exp, issuedAtMs };
    } catch (error) {
      // jose checks the signature before the claims: an expired one was signed here.
      return error instanceof errors.JWTExpired ? 'expired' : null;
    }
  }

  /** This machine's clock is `behindS` seconds behind the database's (ahead when negative): told, at most once a minute. */
  private warnSkew(behindS: number): void {
    const at = Date.now();
    if (at - this.skewWarnedAt < SKEW_WARNING_EVERY_MS) return;
    this.skewWarnedAt = at;
    this.log?.warn(
      { behindS, toleranceS: CLOCK_TOLERANCE_S },
      "this machine's clock is off the database's (behindS: how far behind, negative when ahead; set up NTP): " +
        'past the tolerance, sign-in tokens are refused on the machine behind the one that issued them',
    );
  }
}

/** `Authorization: Bearer <jwt>` as grpc-gateway reads it: split on the first space, scheme case-insensitive. */
export function bearerFromHeader(header: string | undefined): string | null {
  if (!header) return null;
  const cut = header.indexOf(' ');
  if (cut < 0 || header.slice(0, cut).toLowerCase() !== 'bearer') return null;
  const token = header.slice(cut + 1).trim();
  return token || null;
}

/** The upload routes' reading (gin AuthGin): exactly two space-separated parts, scheme unchecked. */
export function tokenFromUploadHeader(header: string | undefined): string | null {
  if (!header) return null;
  const parts = header.split(' ');
  return parts.length === 2 && parts[1] ? parts[1] : null;
}
