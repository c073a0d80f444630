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

/**
 * The sign-in call served as a GET that stores something per call: OAuth's Authorize keeps a state for every visitor
 * who asks, so an anonymous loop would grow `oauth_state` without end. Rate-limited like SIGN_IN_PATHS; not checked
 * for its origin (its answer, the provider's page, is readable by our own pages only, and it spends nothing).
 */
export const SIGN_IN_READS: ReadonlySet<string> = new Set(['/api/v1/oauth/authorize']);

/**
 * Does the sign-in limit count this request: a POST or PUT to SIGN_IN_PATHS, or a GET (or HEAD, which servers answer
 * by running the GET) of SIGN_IN_READS. `path` without its query, in the form the backend routes it.
 */
export function isLimitedSignIn(method: string, path: string): boolean {
  if (method === 'POST' || method === 'PUT') return SIGN_IN_PATHS.has(path);
  if (method === 'GET' || method === 'HEAD') return SIGN_IN_READS.has(path);
  return false;
}
