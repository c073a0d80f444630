import crypto from 'node:crypto';
import { SignJWT, errors, jwtVerify } from 'jose';
import type { Database } from '../../db';
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

export class TokenService {
  private readonly key: Uint8Array;
  /** token → its claims, in the order first verified (the oldest goes first when full) */
  private readonly verified = new Map<string, TokenClaims>();

  constructor(
    secret: string,
    private readonly expireDays: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async issue(userId: number): Promise<{ token: string; uuid: string; exp: number }> {
    const issuedAtMs = Date.now();
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
      if (kept.exp > Math.floor(Date.now() / 1000)) return kept;
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
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256', 'HS384', 'HS512'] });
      const now = Math.floor(Date.now() / 1000);
      if (typeof payload.exp !== 'number') return null;
      if (payload.exp <= now) return 'expired';
      if (typeof payload.iat === 'number' && payload.iat > now + 5) return null;
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
