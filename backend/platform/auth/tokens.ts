import crypto from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Database } from '../../db';
import { sharedSecret } from './secrets';

// Login tokens as MOREDOC issues them (contract README §4.3): HS256, claims UserId, UUID,
// HaveAccess=false, exp, iat, iss="moredoc". Logout blacklists the UUID.

export interface TokenClaims {
  userId: number;
  uuid: string;
  exp: number;
}

const ISSUER = 'moredoc';

/** JWT_SECRET, or the secret generated once into the database (platform/auth/secrets.ts). */
export async function loadJwtSecret(db: Database, dataDir: string, fromEnv?: string): Promise<string> {
  return fromEnv || sharedSecret(db, 'jwt', dataDir);
}

/** The claims of a token whose signature was checked, with the times checked again at each use. */
interface VerifiedClaims extends TokenClaims {
  iat: number | undefined;
}

/** Verified tokens kept, at most (about 300 bytes each). */
const VERIFIED_MAX = 10_000;

export class TokenService {
  private readonly key: Uint8Array;
  /**
   * Tokens whose signature was checked, by their text, the oldest out first. The secret is fixed
   * for the process, so a token's signature needs checking once: a member's page makes three
   * backend calls and each page image one, and the HMAC went through WebCrypto's thread-pool job
   * each time (5–8 % of a member's document page, bench/README.md). Only valid tokens enter.
   */
  private readonly verified = new Map<string, VerifiedClaims>();

  constructor(
    secret: string,
    private readonly expireDays: number,
    private readonly verifiedMax = VERIFIED_MAX,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  /** How many verified tokens are kept (for tests and figures). */
  get verifiedTokens(): number {
    return this.verified.size;
  }

  async issue(userId: number): Promise<{ token: string; uuid: string; exp: number }> {
    const iat = Math.floor(Date.now() / 1000);
    const exp = iat + this.expireDays * 86400;
    const uuid = crypto.randomUUID();
    const token = await new SignJWT({ UserId: userId, UUID: uuid, HaveAccess: false })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setExpirationTime(exp)
      .setIssuedAt(iat)
      .setIssuer(ISSUER)
      .sign(this.key);
    return { token, uuid, exp };
  }

  /** The claims of a valid token, or null (bad signature, expired, issued in the future, malformed). */
  async verify(token: string): Promise<TokenClaims | null> {
    const known = this.verified.get(token);
    if (known) return current(known);
    let claims: VerifiedClaims;
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256', 'HS384', 'HS512'] });
      const { UserId: userId, UUID: uuid, exp, iat } = payload;
      if (typeof exp !== 'number' || typeof userId !== 'number' || typeof uuid !== 'string') return null;
      if (!Number.isSafeInteger(userId) || userId <= 0) return null;
      claims = { userId, uuid, exp, iat: typeof iat === 'number' ? iat : undefined };
    } catch {
      return null;
    }
    this.verified.set(token, claims);
    if (this.verified.size > this.verifiedMax) this.verified.delete(this.verified.keys().next().value as string);
    return current(claims);
  }
}

/** The claims while the token's times hold now: not expired, not issued in the future. */
function current({ userId, uuid, exp, iat }: VerifiedClaims): TokenClaims | null {
  const now = Math.floor(Date.now() / 1000);
  if (exp <= now) return null;
  if (iat !== undefined && iat > now + 5) return null;
  return { userId, uuid, exp };
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
