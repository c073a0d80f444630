// Login tokens (backend/platform/auth/tokens.ts): a token's signature is checked once and the
// token kept, but its times are checked at every use, and only valid tokens are kept.
import crypto from 'node:crypto';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenService } from '../../backend/platform/auth/tokens';

const SECRET = 'a-secret-of-the-tests-only';

async function signed(claims: Record<string, unknown>, iat: number, exp: number, secret = SECRET): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .setIssuer('moredoc')
    .sign(new TextEncoder().encode(secret));
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const claims = () => ({ UserId: 7, UUID: crypto.randomUUID(), HaveAccess: false });

afterEach(() => vi.useRealTimers());

describe('TokenService.verify', () => {
  it('keeps a valid token once checked, and the same claims come back', async () => {
    const tokens = new TokenService(SECRET, 1);
    const { token, uuid, exp } = await tokens.issue(7);
    expect(await tokens.verify(token)).toEqual({ userId: 7, uuid, exp });
    expect(tokens.verifiedTokens).toBe(1);
    expect(await tokens.verify(token)).toEqual({ userId: 7, uuid, exp });
    expect(tokens.verifiedTokens).toBe(1);
  });

  it('keeps no token that fails: another secret, a changed payload, an expired one, malformed claims', async () => {
    const tokens = new TokenService(SECRET, 1);
    const iat = nowSeconds();
    const good = await signed(claims(), iat, iat + 60);
    const [head, , signature] = good.split('.');
    const forged = `${head}.${Buffer.from(JSON.stringify({ ...claims(), UserId: 1, exp: iat + 60 })).toString('base64url')}.${signature}`;
    for (const token of [
      await signed(claims(), iat, iat + 60, 'another-secret'),
      forged,
      await signed(claims(), iat - 120, iat - 60),
      await signed({ ...claims(), UserId: 'admin' }, iat, iat + 60),
      await signed({ ...claims(), UserId: 0 }, iat, iat + 60),
      'not.a.token',
    ])
      expect(await tokens.verify(token)).toBeNull();
    expect(tokens.verifiedTokens).toBe(0);
  });

  it("checks a kept token's times at every use: refused once expired", async () => {
    const tokens = new TokenService(SECRET, 1);
    const iat = nowSeconds();
    const token = await signed(claims(), iat, iat + 60);
    expect(await tokens.verify(token)).not.toBeNull();
    vi.useFakeTimers({ toFake: ['Date'], now: (iat + 61) * 1000 });
    expect(await tokens.verify(token)).toBeNull();
  });

  it('refuses a token issued in the future, and takes it once its time has come', async () => {
    const tokens = new TokenService(SECRET, 1);
    const iat = nowSeconds() + 60;
    const token = await signed(claims(), iat, iat + 600);
    expect(await tokens.verify(token)).toBeNull();
    vi.useFakeTimers({ toFake: ['Date'], now: iat * 1000 });
    expect(await tokens.verify(token)).not.toBeNull();
    vi.useRealTimers();
    // kept from then on, and refused again at the real time
    expect(await tokens.verify(token)).toBeNull();
  });

  it('keeps at most as many tokens as it was given, the oldest out first', async () => {
    const tokens = new TokenService(SECRET, 1, 2);
    const issued = await Promise.all([1, 2, 3].map((id) => tokens.issue(id)));
    for (const { token } of issued) expect(await tokens.verify(token)).not.toBeNull();
    expect(tokens.verifiedTokens).toBe(2);
    // the dropped one is checked again, and still valid
    expect(await tokens.verify(issued[0]!.token)).toMatchObject({ userId: 1 });
  });
});
