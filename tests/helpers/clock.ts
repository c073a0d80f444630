import { SignJWT, decodeJwt } from 'jose';
import { vi } from 'vitest';
import { withDatabase } from './backend';

/**
 * Runs `work` with this process's Date `ms` off the machine's clock (ahead, or behind when
 * negative), as on a machine whose clock drifted: a backend started in this process answers by
 * it, the database's clock does not move. Timers keep running.
 */
export async function withClockOff<T>(ms: number, work: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + ms);
  try {
    return await work();
  } finally {
    vi.useRealTimers();
  }
}

/**
 * `token` as if its member had signed in `ms` ago (its `iat` and `IssuedAtMs` moved back, the
 * rest kept, signed again with the site's key): a session a machine up to that far behind the
 * database's clock takes, where it refuses one issued just now (past the tokens' clock tolerance,
 * backend/platform/auth/tokens.ts).
 */
export async function signedInAgo(dataDir: string, token: string, ms: number): Promise<string> {
  const secret = await withDatabase(
    dataDir,
    async (db) =>
      (await db.selectFrom('secret').select('value').where('name', '=', 'jwt').executeTakeFirstOrThrow()).value,
  );
  const claims = decodeJwt(token);
  const issuedAtMs = (claims.IssuedAtMs as number) - ms;
  return new SignJWT({ ...claims, IssuedAtMs: issuedAtMs, iat: Math.floor(issuedAtMs / 1000) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(String(secret)));
}
