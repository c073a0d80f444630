import { describe, expect, it } from 'vitest';
import { CLOCK_TOLERANCE_S, beforeExpiry, expiryMs } from '../../shared/clocks';

// The one expiry rule of a sign-in token for the backend's check and the gateway's page guard.

describe('beforeExpiry', () => {
  const exp = 2_000_000_000;

  it('passes a token up to the tolerance after its exp, and not from then on', () => {
    expect(CLOCK_TOLERANCE_S).toBe(300);
    expect(beforeExpiry(exp, exp * 1000 - 1)).toBe(true);
    expect(beforeExpiry(exp, (exp + 60) * 1000)).toBe(true);
    expect(beforeExpiry(exp, (exp + CLOCK_TOLERANCE_S) * 1000 - 1)).toBe(true);
    expect(beforeExpiry(exp, (exp + CLOCK_TOLERANCE_S) * 1000)).toBe(false);
    expect(beforeExpiry(exp, (exp + 600) * 1000)).toBe(false);
  });
});

describe('expiryMs', () => {
  it('is the first moment beforeExpiry refuses the token', () => {
    const exp = 2_000_000_000;
    expect(expiryMs(exp)).toBe((exp + CLOCK_TOLERANCE_S) * 1000);
    expect(beforeExpiry(exp, expiryMs(exp) - 1)).toBe(true);
    expect(beforeExpiry(exp, expiryMs(exp))).toBe(false);
  });
});
