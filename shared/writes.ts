// Which API calls change state: the one declaration the gateway reads to check where a call
// comes from (CSRF, gateway/plugins/csrf.ts) and which kept data a call makes stale
// (gateway/cache-rules.ts). Every method but GET, HEAD and OPTIONS writes, and so do the GET
// RPCs below: MOREDOC serves them as GET, so a browser sends them with a top-level navigation
// from any site, the SameSite=Lax cookie included.

/**
 * The GET RPCs that change what belongs to the caller or costs them. Decided for every GET
 * RPC of the backend's modules: the downloads spend credits, pay the uploader, record the
 * download and use the daily quotas (per user and per address). Left out, as they change
 * nothing of the caller's: the view counters of GetDocument and GetArticle, the search records
 * of the searches (statistics like those; SEARCH_RECORD_LIMIT a minute per address; but they
 * name the caller: GET_RPCS_THAT_RECORD_THE_CALLER), the
 * sign-in state OAuth's Authorize stores (rate-limited per address: shared/sign-in-paths.ts)
 * and the captcha GetUserCaptcha keeps (both valid only for the answer, which another site
 * cannot read), and GetOrder, which asks the payment provider and records what it says (as
 * its notification would).
 */
export const GET_RPCS_THAT_WRITE: readonly string[] = [
  '/api/v1/document/download',
  '/api/v1/document/download/bereviewed',
];

/**
 * The GET RPCs that record what their caller asked, under the caller, though they change nothing the caller has: the
 * searches (the admin's search records name the member). A link from another site must not put words in a member's
 * records: the gateway sends such a call, and the page's own such call (its route data), without the member's session
 * when the browser says it comes from another site (docs/decisions/121): the search is answered and recorded as a
 * visitor's.
 */
export const GET_RPCS_THAT_RECORD_THE_CALLER: readonly string[] = ['/api/v1/document/search', '/api/v1/article/search'];

/**
 * Sent by the SPA on such a call while it is on a page opened from another site (StartData.openedFromAnotherSite):
 * the gateway sends the call without the session, as it sends the page's route data. It can only withhold the
 * caller's name, so the gateway honours it whoever sends it (docs/decisions/121).
 */
export const AS_VISITOR_HEADER = 'x-record-as-visitor';

const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);
const RECORDING_GETS: ReadonlySet<string> = new Set(GET_RPCS_THAT_RECORD_THE_CALLER);
const WRITING_GETS: ReadonlySet<string> = new Set(GET_RPCS_THAT_WRITE);

/**
 * Does a call change state: any method but GET, HEAD and OPTIONS, and a GET (or HEAD, which
 * servers answer by running the GET) of GET_RPCS_THAT_WRITE. `path` without its query, in the
 * form the backend routes it.
 */
export function isWriteCall(method: string, path: string): boolean {
  const upper = method.toUpperCase();
  if (!SAFE_METHODS.has(upper)) return true;
  return upper !== 'OPTIONS' && WRITING_GETS.has(path);
}

/** Does a call record under its caller what it asked (GET_RPCS_THAT_RECORD_THE_CALLER); `path` as isWriteCall's. */
export function recordsTheCaller(method: string, path: string): boolean {
  const upper = method.toUpperCase();
  return (upper === 'GET' || upper === 'HEAD') && RECORDING_GETS.has(path);
}
