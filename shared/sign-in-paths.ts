/**
 * Where passwords and SMS codes are tried (a member's password change checks the old password,
 * which a stolen session would otherwise guess at will; binding a number checks its SMS code),
 * accounts made or recovered, and SMS codes and the
 * register e-mail codes sent (paid messages; mails from the site's own account to any
 * address, which a spammer's loop would otherwise send at one per address): rate-limited by the gateway (per process) and by the backend (across every
 * process sharing the database), and refused from other sites even without a cookie.
 */
export const SIGN_IN_PATHS: ReadonlySet<string> = new Set([
  '/api/v1/user/login',
  '/api/v1/user/register',
  '/api/v1/user/email/code',
  '/api/v1/user/findpassword/stepone',
  '/api/v1/user/findpassword/steptwo',
  '/api/v1/oauth/login',
  '/api/v1/user/sms/code',
  '/api/v1/user/register/mobile',
  '/api/v1/user/login/mobile',
  '/api/v1/user/findpassword/mobile',
  '/api/v1/user/password',
  '/api/v1/user/mobile',
]);
