import crypto from 'node:crypto';
import { promisify } from 'node:util';

// Passwords are stored as `scrypt$N$r$p$<salt>$<hash>` (base64url). Hashes imported from a
// MOREDOC database (`md5$<salt>$<hex>`, Django style) are still accepted at login.

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;
/** log2 of scrypt's N for new hashes; verification reads the parameters from each hash. */
export const DEFAULT_PASSWORD_COST = 14;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

export async function hashPassword(plain: string, cost = DEFAULT_PASSWORD_COST): Promise<string> {
  const salt = crypto.randomBytes(16);
  const N = 2 ** cost;
  const hash = await scrypt(plain, salt, KEY_LENGTH, { N, r: R, p: P, maxmem: 256 * N * R });
  return ['scrypt', N, R, P, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(plain: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts[0] === 'scrypt' && parts.length === 6) {
    const [, n, r, p, salt, expected] = parts as [string, string, string, string, string, string];
    const expectedBuf = Buffer.from(expected, 'base64url');
    const actual = await scrypt(plain, Buffer.from(salt, 'base64url'), expectedBuf.length, {
      N: Number(n),
      r: Number(r),
      p: Number(p),
      maxmem: 256 * Number(n) * Number(r),
    });
    return actual.length === expectedBuf.length && crypto.timingSafeEqual(actual, expectedBuf);
  }
  if (parts[0] === 'md5' && parts.length === 3) {
    const actual = Buffer.from(
      crypto
        .createHash('md5')
        .update(parts[1] + plain)
        .digest('hex'),
    );
    const expectedBuf = Buffer.from(parts[2]!);
    return actual.length === expectedBuf.length && crypto.timingSafeEqual(actual, expectedBuf);
  }
  return false;
}

/** A readable random password for the generated admin account. */
export function generatePassword(): string {
  return crypto.randomBytes(12).toString('base64url');
}
