// docs/product.md §2 "Access rules", applied identically by the gateway's page guard (on the raw
// request path) and by the SPA's route guards (on client-side navigations), plus the two
// site-wide switches of the security settings (closed site, login required), which MOREDOC
// only applies in its client and we apply on the server as well.
import { isAdmin } from './permissions';
import { articleIdentifierOf, matchRoute, type AccessKind, type RouteDef } from './routes';
import type { Settings } from './types/config';

/** `security.is_close` and `security.login_required`; absent = off. */
export interface SiteSwitches {
  closed?: boolean;
  loginRequired?: boolean;
  /**
   * The identifiers of the footer's article pages (关于我们, 文库协议, 隐私政策…): open to the
   * visitors of a site open to members only, who agree to two of them when they register.
   */
  footerArticles?: readonly string[];
}

export interface Session {
  loggedIn: boolean;
  allowPages: readonly string[];
  /** The site-wide switches; absent when the settings are unknown, which means both off. */
  site?: SiteSwitches;
}

export type AccessDecision =
  | { kind: 'allow' }
  | { kind: 'login'; location: string }
  | { kind: 'home'; location: string }
  | { kind: 'closed' }
  | { kind: 'refused' };

/** Admin pages that pass with a token whatever the user's allowPages (docs/product.md §2). */
export const ALWAYS_ALLOWED_ADMIN_PAGES: readonly string[] = ['/admin', '/admin/index', '/admin/dashboard'];

/** Pages open to everybody whatever the site switches: signing in must stay possible. */
export const ALWAYS_OPEN_PAGES: readonly string[] = ['/auth/login', '/auth/forgot', '/oauth/callback'];
/** Open too, unless the site is closed (the backend refuses registrations then anyway). */
const REGISTER_PAGE = '/auth/register';

/**
 * The home page's parameter naming the admin page a user was sent home from (`/?denied=%2Fadmin%2Forder`),
 * so that the SPA says 无权限 there, after a page load as after a move inside the app.
 */
export const DENIED_PAGE_PARAM = 'denied';

const LOGIN_PATH = '/auth/login';
const FORGOT_PASSWORD_PAGE = '/auth/forgot';
const MAX_REDIRECT_LENGTH = 2048;
const ENCODED_SLASH = /%(2f|5c)/i;
const PERCENT_ESCAPE = /%[0-9a-f]{2}/i;
/**
 * Segments of letters, digits, `_` and `-` only: no escape, dot segment, `;`, empty segment or trailing slash to deal
 * with.
 */
const CANONICAL_PATH = /^(?:\/[\w-]+)+$/;

/** C0 controls, DEL and C1 controls: never part of a path we accept. */
function hasControlChar(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code <= 0x1f || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

/**
 * The canonical form of a request path, or null when it is refused.
 * Percent-decodes once; refuses encoded slashes (%2F, %5C), backslashes, control
 * characters, malformed or double percent-encoding; drops matrix parameters (everything
 * from a `;` to the end of its segment, so `/admin;x` is `/admin`); collapses `//`;
 * resolves `.` and `..` (never above the root); drops a trailing slash. A query string or
 * hash in `raw` is ignored.
 */
export function normalizePath(raw: string): string | null {
  if (typeof raw !== 'string') return null;
  const path = raw.split(/[?#]/, 1)[0] as string;
  // Most paths are canonical already (the page guard asks for every page): say so at once.
  if (path === '/' || CANONICAL_PATH.test(path)) return path;
  // The others (a dot, an escape, a trailing slash) come back as often: remember their answers.
  const known = normalized.get(path);
  if (known !== undefined) return known;
  const result = normalizeUncached(path);
  if (normalized.size >= NORMALIZED_KEPT) normalized.clear();
  normalized.set(path, result);
  return result;
}

/** How many paths' normal forms are kept; all are forgotten when there are more. */
const NORMALIZED_KEPT = 2_000;
const normalized = new Map<string, string | null>();

function normalizeUncached(path: string): string | null {
  if (!path.startsWith('/') || path.includes('\\') || hasControlChar(path) || ENCODED_SLASH.test(path)) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return null;
  }
  if (decoded.includes('\\') || hasControlChar(decoded) || PERCENT_ESCAPE.test(decoded)) return null;
  const segments: string[] = [];
  for (const part of decoded.split('/')) {
    const segment = part.split(';', 1)[0] as string;
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

/**
 * What a normalised path needs: `/admin…` a token and the page, `/member…` and
 * `/vip/checkout` a token, another route of the table that says so (`/upload`) a token,
 * anything else nothing. Paths are compared case-insensitively because the SPA's router
 * matches paths case-insensitively.
 */
export function pathGuard(normalizedPath: string): AccessKind {
  const lower = normalizedPath.toLowerCase();
  if (lower.startsWith('/admin')) return 'admin';
  if (lower.startsWith('/member') || lower.startsWith('/vip/checkout')) return 'token';
  return matchRoute(lower)?.route.access === 'token' ? 'token' : 'public';
}

function pageKey(page: string): string {
  const trimmed = page.length > 1 && page.endsWith('/') ? page.slice(0, -1) : page;
  return trimmed.toLowerCase();
}

/** Whether a normalised path is one of the admin screens of the route table (case ignored). */
export function isAdminScreen(normalizedPath: string): boolean {
  return matchRoute(normalizedPath.toLowerCase())?.route.layout === 'admin';
}

/** Whether a logged-in user may open an admin page (trailing slash and case ignored). */
export function isAdminPageAllowed(normalizedPath: string, allowPages: readonly string[]): boolean {
  const key = pageKey(normalizedPath);
  return ALWAYS_ALLOWED_ADMIN_PAGES.includes(key) || allowPages.some((page) => pageKey(page) === key);
}

// The canonical path re-encoded segment by segment, as a browser would send it.
function encodePath(normalizedPath: string): string {
  return normalizedPath
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}

/**
 * The site switches as `GET /api/v1/settings` reports them (false values are omitted there), and
 * the footer's article pages (`footerArticles`, present when there are any).
 */
export function siteSwitchesFrom(
  settings: Pick<Settings, 'security' | 'footer'> | null | undefined,
): Required<Omit<SiteSwitches, 'footerArticles'>> & Pick<SiteSwitches, 'footerArticles'> {
  const security = settings?.security;
  const footerArticles = Object.values(settings?.footer ?? {}).flatMap((href) => {
    const identifier = typeof href === 'string' ? articleIdentifierOf(href) : undefined;
    return identifier === undefined ? [] : [identifier];
  });
  return {
    closed: security?.is_close === true,
    loginRequired: security?.login_required === true,
    ...(footerArticles.length ? { footerArticles } : {}),
  };
}

/**
 * Whether a normalised path stays open to everybody under the given switches: signing in, and on
 * a site that is not closed registering and the footer's article pages (decision 097).
 */
export function isAlwaysOpen(normalizedPath: string, site: SiteSwitches = {}): boolean {
  const key = normalizedPath.toLowerCase();
  if (ALWAYS_OPEN_PAGES.includes(key)) return true;
  if (site.closed === true) return false;
  if (key === REGISTER_PAGE) return true;
  const article = articleIdentifierOf(normalizedPath);
  return article !== undefined && (site.footerArticles ?? []).includes(article);
}

function loginDecision(normalizedPath: string, query: string): AccessDecision {
  const search = query === '' || query === '?' ? '' : query.startsWith('?') ? query : `?${query}`;
  return { kind: 'login', location: loginLocation(encodePath(normalizedPath) + search) };
}

/**
 * Decide a navigation. `path` is the raw request path, `query` its query string (with or
 * without the leading `?`, possibly empty).
 * First the site switches, on every page but the always-open ones: with either switch on, a
 * token-less visitor goes to the login page (path and query as `redirect`); on a closed
 * site, a logged-in user who is no admin gets `closed` (admins pass, so they can reopen it).
 * Then docs/product.md §2: a token-less visitor of a guarded path goes to the login page; a logged-in
 * visitor of an admin page outside allowPages goes home; a path under `/admin` that is no admin
 * screen is served, to get the fatal 404.
 */
export function decideAccess(path: string, query: string, session: Session): AccessDecision {
  const normalized = normalizePath(path);
  if (normalized === null) return { kind: 'refused' };
  const site = session.site ?? {};
  if ((site.closed === true || site.loginRequired === true) && !isAlwaysOpen(normalized, site)) {
    if (!session.loggedIn) return loginDecision(normalized, query);
    if (site.closed === true && !isAdmin(session.allowPages)) return { kind: 'closed' };
  }
  const guard = pathGuard(normalized);
  if (guard === 'public') return { kind: 'allow' };
  if (!session.loggedIn) return loginDecision(normalized, query);
  if (guard === 'token' || isAdminPageAllowed(normalized, session.allowPages)) return { kind: 'allow' };
  // No admin screen at all (a mistyped or stale address): served, so that it gets the 404 screen.
  if (!isAdminScreen(normalized)) return { kind: 'allow' };
  return { kind: 'home', location: deniedLocation(normalized) };
}

/** Home, naming the admin page refused (DENIED_PAGE_PARAM), in its canonical form. */
export function deniedLocation(normalizedPath: string): string {
  return `/?${DENIED_PAGE_PARAM}=${encodeURIComponent(pageKey(normalizedPath))}`;
}

/** The admin screen a home page's query says the user was sent home from (DENIED_PAGE_PARAM), if it names one. */
export function deniedAdminRoute(query: string): RouteDef | undefined {
  const path = new URLSearchParams(query).get(DENIED_PAGE_PARAM);
  const normalized = path === null ? null : normalizePath(path);
  const route = normalized === null ? undefined : matchRoute(pageKey(normalized))?.route;
  return route?.layout === 'admin' ? route : undefined;
}

function isSafePathPart(path: string): boolean {
  if (!path.startsWith('/') || path.includes('//') || path.includes('\\')) return false;
  if (/\s/.test(path) || hasControlChar(path)) return false;
  return path.split('/').every((segment) => segment !== '.' && segment !== '..');
}

/**
 * A same-origin path (with its query and hash) safe to navigate to, or `/`.
 * Only a path that starts with a single `/` passes, and only when neither it nor any of
 * its percent-decoded forms contains `//`, a backslash, whitespace, a control character or
 * a `.`/`..` segment (the oauth2-proxy rule, checked after decoding). Targets inside
 * `/auth/` give `/` too, so that a login never redirects to a login.
 */
export function safeRedirect(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_REDIRECT_LENGTH) return '/';
  if (hasControlChar(value)) return '/';
  let path = value.split(/[?#]/, 1)[0] as string;
  if (!isSafePathPart(path)) return '/';
  // Decode until stable (a few rounds at most) so that encoded variants are judged too.
  for (let round = 0; PERCENT_ESCAPE.test(path); round++) {
    if (round === 3) return '/';
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      return '/';
    }
    if (!isSafePathPart(decoded)) return '/';
    path = decoded;
  }
  const lower = path.toLowerCase();
  if (lower === '/auth' || lower.startsWith('/auth/')) return '/';
  return value;
}

/** The login page that returns to `fullPath` (path and query) after login, when that is safe. */
export function loginLocation(fullPath: string): string {
  return withRedirect(LOGIN_PATH, fullPath);
}

/** The registration page that returns to `fullPath` afterwards, when that is safe, as login does. */
export function registerLocation(fullPath: string): string {
  return withRedirect(REGISTER_PAGE, fullPath);
}

/** Find-password, whose login afterwards returns to `fullPath`, when that is safe. */
export function forgotPasswordLocation(fullPath: string): string {
  return withRedirect(FORGOT_PASSWORD_PAGE, fullPath);
}

function withRedirect(authPath: string, fullPath: string): string {
  const target = safeRedirect(fullPath);
  return target === '/' ? authPath : `${authPath}?redirect=${encodeURIComponent(target)}`;
}
