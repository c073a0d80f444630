// How far a machine's clock may be off the clock that issued a sign-in token (the database's,
// docs/decisions/113): one rule for the backend, which checks the token, and the gateway, which
// decides before asking it whether a member's page needs a login.

/**
 * How far the machine checking a token may be off the clock that issued it, either way, as jose's
 * `clockTolerance`: a token issued up to this far in its future passes, and one passes up to this
 * long after its `exp`. Five minutes, as Kerberos allows: a machine a minute off (no NTP yet)
 * signs nobody out.
 */
export const CLOCK_TOLERANCE_S = 300;

/**
 * The first moment (ms, this machine's clock) a token whose `exp` (unix seconds) is `exp` no longer passes: what keeps
 * a session (the gateway's copy of it, the cookie that carries it) ends then too, not at the raw `exp`.
 */
export function expiryMs(exp: number): number {
  return (exp + CLOCK_TOLERANCE_S) * 1000;
}

/** Whether a token whose `exp` (unix seconds) is `exp` still passes at `nowMs` by this machine's clock. */
export function beforeExpiry(exp: number, nowMs: number): boolean {
  return expiryMs(exp) > nowMs;
}
