import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenService } from '../../backend/platform/auth/tokens';
import { CLOCK_TOLERANCE_S } from '../../shared/clocks';

// Login tokens (backend/platform/auth/tokens.ts): verify() answers the claims of a token the
// service issued, each time; refuses it from its expiry on (past the clock tolerance), and refuses one changed in its
// signature or claims or signed with another secret, though it keeps the tokens it checked.

const DAY_S = 86400;

afterEach(() => {
  vi.useRealTimers();
});

describe('TokenService.verify', () => {
  it('answers the claims of a token it issued, every time', async () => {
    const tokens = new TokenService('secret-a', 7);
    const before = Date.now();
    const { token, uuid, exp } = await tokens.issue(42);
    const claims = await tokens.verify(token);
    expect(claims).toEqual({ userId: 42, uuid, exp, issuedAtMs: expect.any(Number) });
    expect(claims!.issuedAtMs).toBeGreaterThanOrEqual(before);
    expect(claims!.issuedAtMs).toBeLessThanOrEqual(Date.now());
    for (let i = 0; i < 2; i++) expect(await tokens.verify(token)).toEqual(claims);
  });

  it('refuses a token it checked before once its expiry has passed, by more than the clock tolerance', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const tokens = new TokenService('secret-a', 1);
    const { token, exp } = await tokens.issue(7);
    expect(await tokens.verify(token)).not.toBeNull();
    vi.setSystemTime((exp + CLOCK_TOLERANCE_S - 1) * 1000);
    expect(await tokens.verify(token)).not.toBeNull();
    vi.setSystemTime((exp + CLOCK_TOLERANCE_S) * 1000);
    expect(await tokens.verify(token)).toBeNull();
    vi.setSystemTime((exp + DAY_S) * 1000);
    expect(await tokens.verify(token)).toBeNull();
  });

  it('refuses one it never checked past its expiry and the tolerance too, and one issued further ahead', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const tokens = new TokenService('secret-a', 1);
    const first = await tokens.issue(7);
    const second = await tokens.issue(8);
    vi.setSystemTime((first.exp + CLOCK_TOLERANCE_S - 1) * 1000);
    expect(await tokens.verify(first.token)).not.toBeNull();
    vi.setSystemTime((second.exp + CLOCK_TOLERANCE_S) * 1000);
    expect(await tokens.read(second.token)).toBe('expired');
    // Issued by a clock further ahead of this one than the tolerance.
    const ahead = new TokenService('secret-a', 1, {
      now: async () => new Date(Date.now() + (CLOCK_TOLERANCE_S + 1) * 1000),
    });
    expect(await tokens.verify((await ahead.issue(9)).token)).toBeNull();
  });

  it("takes its times from the clock it is given, and warns once a minute of this machine's clock off it", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const told = (into: unknown[]) => ({ warn: (...args: unknown[]) => void into.push(args[0]) });
    let database = new Date('2030-01-01T00:01:00Z');
    const issuerWarnings: unknown[] = [];
    const issuer = new TokenService('secret-a', 7, { now: async () => database, log: told(issuerWarnings) });
    const checkerWarnings: unknown[] = [];
    const checker = new TokenService('secret-a', 7, { log: told(checkerWarnings) });
    const issued = await Promise.all([issuer.issue(1), issuer.issue(2)]);
    expect(issued[0]!.exp).toBe(database.getTime() / 1000 + 7 * DAY_S);
    for (const { token } of issued) expect((await checker.verify(token))?.issuedAtMs).toBe(database.getTime());
    // This clock a minute behind the database's: the machine issuing and the one checking tell it, once.
    expect(issuerWarnings).toEqual([{ behindS: 60, toleranceS: CLOCK_TOLERANCE_S }]);
    expect(checkerWarnings).toEqual([{ behindS: 60, toleranceS: CLOCK_TOLERANCE_S }]);
    // Two minutes on, this clock 90 s ahead of the database's: the sign-in tells it.
    vi.setSystemTime(new Date('2030-01-01T00:03:00Z'));
    database = new Date('2030-01-01T00:01:30Z');
    expect(await checker.verify((await issuer.issue(3)).token)).not.toBeNull();
    expect(issuerWarnings.at(-1)).toEqual({ behindS: -90, toleranceS: CLOCK_TOLERANCE_S });
    expect(checkerWarnings).toHaveLength(1);
  });

  it('refuses a checked token changed in its signature or its claims, and one signed with another secret', async () => {
    const tokens = new TokenService('secret-a', 7);
    const { token } = await tokens.issue(5);
    expect(await tokens.verify(token)).not.toBeNull();
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const flipped = signature.slice(0, -2) + (signature.at(-2) === 'A' ? 'B' : 'A') + signature.at(-1);
    expect(await tokens.verify(`${header}.${payload}.${flipped}`)).toBeNull();
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const admin = Buffer.from(JSON.stringify({ ...claims, UserId: 1 })).toString('base64url');
    expect(await tokens.verify(`${header}.${admin}.${signature}`)).toBeNull();
    expect(await new TokenService('secret-b', 7).verify(token)).toBeNull();
    // and the one it issued still passes
    expect(await tokens.verify(token)).not.toBeNull();
  });

  it('still answers every token right past the number it keeps', async () => {
    const tokens = new TokenService('secret-a', 7);
    const issued = await Promise.all(Array.from({ length: 5100 }, (_, i) => tokens.issue(i + 1)));
    for (const { token } of issued) await tokens.verify(token);
    for (const [i, { token }] of issued.entries())
      if (i % 100 === 0) expect((await tokens.verify(token))?.userId).toBe(i + 1);
  });
});
