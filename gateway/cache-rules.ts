// Which answers passing through the gateway make the data it keeps stale: the sessions the
// page guard keeps per token, the public start data, and the route data (the answers of the
// public pages' first calls). One table, read by page-guard.ts, start-data.ts and
// route-data.ts; each drops what it names in onSend, before the answer leaves, so that a
// client that writes and then loads a page never gets the data from before its write. What
// ends or changes sessions is told to the other instances too (page-guard.ts).
import { isWriteCall } from '../shared/writes';
import { isUnder, pathOf } from './http';

export type SharedData = 'sessions' | 'own-sessions' | 'public-start-data' | 'route-data';

export interface CacheRule {
  /** a write (shared/writes.ts: any method but GET/HEAD/OPTIONS, and the GETs that spend) to this path… */
  path: string;
  /** …exactly, or to it and anything below it */
  match: 'exact' | 'subtree';
  /** …makes this data stale for every visitor (`own-sessions`: the sessions of the tokens it carries, on every instance) */
  stale: SharedData;
}

export const CACHE_RULES: readonly CacheRule[] = [
  // Group rights and permissions: any kept session may have other rights now.
  { path: '/api/v1/group', match: 'subtree', stale: 'sessions' },
  { path: '/api/v1/permission', match: 'subtree', stale: 'sessions' },
  // A user's groups, password or profile: an admin may change another user's.
  { path: '/api/v1/user', match: 'exact', stale: 'sessions' },
  { path: '/api/v1/user/profile', match: 'exact', stale: 'sessions' },
  { path: '/api/v1/user/password', match: 'exact', stale: 'sessions' },
  // A password reset by mail or SMS ends every session of its account.
  { path: '/api/v1/user/findpassword/steptwo', match: 'exact', stale: 'sessions' },
  { path: '/api/v1/user/findpassword/mobile', match: 'exact', stale: 'sessions' },
  // A logout ends its own session, on every instance.
  { path: '/api/v1/user/logout', match: 'exact', stale: 'own-sessions' },
  // The settings (config and languages), navigation and categories inlined into every page.
  { path: '/api/v1/config', match: 'subtree', stale: 'public-start-data' },
  { path: '/api/v1/language', match: 'subtree', stale: 'public-start-data' },
  { path: '/api/v1/navigation', match: 'subtree', stale: 'public-start-data' },
  { path: '/api/v1/category', match: 'subtree', stale: 'public-start-data' },
  // Writes that file or unfile documents change the categories' doc_count.
  { path: '/api/v1/document', match: 'exact', stale: 'public-start-data' },
  { path: '/api/v1/document/category', match: 'exact', stale: 'public-start-data' },
  { path: '/api/v1/document/recycle', match: 'subtree', stale: 'public-start-data' },
  // What the public pages show first: documents (with their recycle bin, ratings, favourites
  // and comments, whose counts they show), articles, categories (counts, titles), banners,
  // friend links, ads, and the settings that shape the lists.
  ...['document', 'article', 'comment', 'favorite', 'category', 'banner', 'friendlink', 'advertisement', 'config'].map(
    (name): CacheRule => ({ path: `/api/v1/${name}`, match: 'subtree', stale: 'route-data' }),
  ),
];

export interface Staleness {
  /** the session kept for the token(s) the request carries */
  ownSession: boolean;
  /** …and not only on this instance: it ended (a logout) */
  ownSessionEnded: boolean;
  /** every kept session, on every instance */
  sessions: boolean;
  publicStartData: boolean;
  routeData: boolean;
}

const NOTHING: Staleness = Object.freeze({
  ownSession: false,
  ownSessionEnded: false,
  sessions: false,
  publicStartData: false,
  routeData: false,
});

/**
 * What an answer makes stale. Any write with a token may change that token's own session
 * (profile, credits, logout), whatever its answer, and a 401 says the token is no longer
 * good. A write to a path of the table makes shared data stale unless it was refused (4xx:
 * nothing changed), so that anonymous refused writes cannot empty the shared caches.
 */
export function stalenessAfter(method: string, url: string, statusCode: number): Staleness {
  const path = pathOf(url);
  if (!isWriteCall(method, path)) return statusCode === 401 ? { ...NOTHING, ownSession: true } : NOTHING;
  const staleness = { ...NOTHING, ownSession: true };
  if (statusCode >= 400 && statusCode < 500) return staleness;
  for (const rule of CACHE_RULES) {
    if (rule.match === 'exact' ? path !== rule.path : !isUnder(path, rule.path)) continue;
    if (rule.stale === 'sessions') staleness.sessions = true;
    else if (rule.stale === 'own-sessions') staleness.ownSessionEnded = true;
    else if (rule.stale === 'public-start-data') staleness.publicStartData = true;
    else staleness.routeData = true;
  }
  return staleness;
}
