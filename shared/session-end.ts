// Why the backend refused a login token the caller sent (docs/decisions/079): a header beside
// MOREDOC's one 401 message, which MOREDOC's own clients ignore. The SPA says it in the
// sign-in-again dialog and on the login page it leads to.

export const SESSION_END_HEADER = 'x-session-end';

/**
 * - `expired`: the token's time ran out;
 * - `password-changed`: a password change elsewhere (the member's, a reset, an admin's) ended it;
 * - `account-removed`: an admin deleted the account;
 * - `logged-out`: the token was signed out.
 */
export const SESSION_ENDS = ['expired', 'password-changed', 'account-removed', 'logged-out'] as const;
export type SessionEnd = (typeof SESSION_ENDS)[number];

/** The session end a header's value names, or undefined for any other value. */
export function sessionEndOf(value: string | null | undefined): SessionEnd | undefined {
  return SESSION_ENDS.find((end) => end === value);
}
