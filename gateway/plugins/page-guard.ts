// Server-side page guard (docs/product.md §2 access rules and the site switches is_close /
// login_required, applied by shared/access exactly as the SPA applies them): resolves the
// visitor's session from the cookie and the switches from the cached public settings, then
// decides whether a page navigation is served, sent to the login page or home, or gets the
// closed-site page.
import fp from 'fastify-plugin';
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { decideAccess, normalizePath, pathGuard, siteSwitchesFrom } from '../../shared/access';
import type { AccessKind } from '../../shared/routes';
import { allowPagesFrom } from '../../shared/permissions';
import type { Permission } from '../../shared/types/permission';
import type { User } from '../../shared/types/user';
import { expiryMs } from '../../shared/clocks';
import { stalenessAfter } from '../cache-rules';
import { GatewayError, MESSAGES } from '../errors';
import { splitUrl } from '../http';
import { isLiveToken, jwtExpiry } from './token-cookie';
import type { PublicStartData } from './start-data';

export interface VisitorSession {
  /** set when the cookie holds a token the backend accepted (or could not be asked about) */
  token?: string;
  user?: User;
  permissions?: Permission[];
  allowPages: string[];
  /** the backend failed (not 401) while the session was resolved */
  fault?: GatewayError;
}

/**
 * `render`: serve the page; `closed`: serve it with status 503 (the SPA shows 站点已关闭).
 * Both carry the public start data the decision was made with, for the page to inline.
 * `unavailable`: the backend could not give what the page needs (the site's settings, or who
 * the visitor of a session is): the page that says so (page-render.ts `renderUnavailablePage`).
 */
export type GuardOutcome =
  | { kind: 'render' | 'closed'; session: VisitorSession; publicPart: PublicStartData | undefined }
  | { kind: 'redirect'; location: string }
  | { kind: 'refused' }
  | { kind: 'unavailable' };

export interface PageGuard {
  check(request: FastifyRequest, reply: FastifyReply): Promise<GuardOutcome>;
}

/** What the guard decided for a page, by the path's access kind: read by the metrics. */
export interface PageDecision {
  access: AccessKind;
  decision: 'allow' | 'login' | 'home' | 'closed';
}

declare module 'fastify' {
  interface FastifyInstance {
    pageGuard: PageGuard;
  }
  interface FastifyRequest {
    /** set by `pageGuard.check` when it answers with a decision (not for refused paths or faults) */
    pageDecision?: PageDecision;
  }
}

/** Sessions ended or changed: every one, or those of these keys (`cacheKey` of their tokens). */
export type ChangedSessions = 'all' | readonly string[];

/**
 * The embedded backend's way to tell every instance on its database that sessions ended or
 * changed, and to hear it from them (backend/platform/auth/session-changes.ts).
 */
export interface SessionChangeFeed {
  tell(changed: ChangedSessions): Promise<void>;
  subscribe(listener: (changed: ChangedSessions) => void): () => void;
}

export interface PageGuardOptions {
  cookieName: string;
  sessionCacheTtlMs: number;
  sessionCacheMax: number;
  /** with the embedded backend: what the other instances change is dropped here at once; none over HTTP */
  sessionChanges?: SessionChangeFeed | undefined;
}

class SessionRejected extends Error {}

const cacheKey = (token: string) => createHash('sha256').update(token).digest('base64url');

/** The tokens a request is sent with: the cookie's, and an API client's own bearer token. */
function tokensOf(request: FastifyRequest): string[] {
  const tokens: string[] = [];
  if (request.sessionToken) tokens.push(request.sessionToken);
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  if (bearer) tokens.push(bearer);
  return tokens;
}

interface CachedSession {
  /** the cache's time for it, or its token's end if sooner (`exp` and the clocks' tolerance: expiryMs) */
  expires: number;
  /** never rejects; shared by every page of the token while it is kept */
  session: Promise<VisitorSession | undefined>;
}

export default fp<PageGuardOptions>(
  async function pageGuard(fastify, opts) {
    // The visitor's session (user, permissions, allowed pages) per token (by hash), for a
    // short time, bounded, oldest out first; a pending load is shared. Only page answers use
    // it: every API call still goes to the backend, which decides.
    const sessionCache = new Map<string, CachedSession>();

    async function loadSession(token: string, request: FastifyRequest): Promise<VisitorSession | undefined> {
      const call = { token, request };
      const [user, permissions] = await Promise.allSettled([
        fastify.backend.getJson<User>('/api/v1/user', call).then((answer) => {
          if (answer.status === 401) throw new SessionRejected();
          if (answer.status !== 200 || !answer.body) throw new GatewayError(502, MESSAGES.badGateway);
          return answer.body;
        }),
        fastify.backend.getJson<{ permission?: Permission[] }>('/api/v1/user/permission', call).then((answer) => {
          if (answer.status === 401) throw new SessionRejected();
          if (answer.status !== 200) throw new GatewayError(502, MESSAGES.badGateway);
          return answer.body?.permission ?? [];
        }),
      ]);
      const failures = [user, permissions].filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failures.some((f) => f.reason instanceof SessionRejected)) return undefined;
      const session: VisitorSession = { token, allowPages: [] };
      if (user.status === 'fulfilled') session.user = user.value;
      if (permissions.status === 'fulfilled') {
        session.permissions = permissions.value;
        session.allowPages = allowPagesFrom(permissions.value);
      }
      const failure = failures[0]?.reason as unknown;
      if (failure !== undefined) {
        session.fault =
          failure instanceof GatewayError ? failure : new GatewayError(502, MESSAGES.badGateway, { cause: failure });
        request.log.warn({ err: failure }, 'session not resolved');
      }
      // Shared by the pages of this token: nobody may change it.
      return Object.freeze(session);
    }

    /** undefined: the backend does not accept the token (401). */
    function resolveSession(token: string, request: FastifyRequest): Promise<VisitorSession | undefined> {
      const key = cacheKey(token);
      const now = Date.now();
      const hit = sessionCache.get(key);
      if (hit && hit.expires > now) return hit.session;
      sessionCache.delete(key);
      // A session ends with its token (expiryMs: its `exp`, and the tolerance the backend allows): those ended go before a new one comes in, not once
      // a thousand newer ones push them out (a walk of the cache, on a miss, which asks the backend).
      for (const [kept, entry] of sessionCache) if (entry.expires <= now) sessionCache.delete(kept);
      const exp = jwtExpiry(token);
      const session = loadSession(token, request);
      sessionCache.set(key, {
        expires: Math.min(now + opts.sessionCacheTtlMs, exp === undefined ? Infinity : expiryMs(exp)),
        session,
      });
      // Only a whole session is kept: not a rejected token, not one the backend failed on.
      void session.then((loaded) => {
        if ((!loaded || loaded.fault) && sessionCache.get(key)?.session === session) sessionCache.delete(key);
      });
      while (sessionCache.size > opts.sessionCacheMax) {
        const oldest = sessionCache.keys().next().value as string;
        sessionCache.delete(oldest);
      }
      return session;
    }

    async function check(request: FastifyRequest, reply: FastifyReply): Promise<GuardOutcome> {
      const [path, query] = splitUrl(request.url);
      const normalized = normalizePath(path);
      if (normalized === null) return { kind: 'refused' };

      // Never rejects; undefined when the backend cannot give the settings: then the
      // switches count as off, as before they existed, rather than locking everybody out.
      const publicPartLoad = fastify.startData.publicPart(request);
      let session: VisitorSession = { allowPages: [] };
      const hadCookie = request.cookies[opts.cookieName] !== undefined;
      const token = request.sessionToken;
      if (token !== undefined && isLiveToken(token)) {
        const resolved = await resolveSession(token, request);
        if (resolved) session = resolved;
        else reply.clearTokenCookie();
      } else if (hadCookie) {
        // garbage or expired: no need to ask the backend
        reply.clearTokenCookie();
      }

      const publicPart = await publicPartLoad;
      const decision = decideAccess(path, query, {
        loggedIn: session.token !== undefined,
        allowPages: session.allowPages,
        site: siteSwitchesFrom(publicPart?.settings),
      });
      if (decision.kind === 'refused') return { kind: 'refused' };
      // Without the permissions we cannot tell whether this user may see an admin page, or
      // may enter a closed site (admins may): say the backend failed, do not guess. Nor without
      // the settings (never had since the start: the backend away) or the user of a session
      // (the SPA would take a member for a visitor and send them to the login page).
      if (
        ((decision.kind === 'home' || decision.kind === 'closed') && session.fault && !session.permissions) ||
        ((decision.kind === 'allow' || decision.kind === 'closed') &&
          (!publicPart || (session.fault !== undefined && !session.user)))
      ) {
        request.log.warn({ err: session.fault }, 'page not made: the backend is unavailable');
        return { kind: 'unavailable' };
      }
      request.pageDecision = { access: pathGuard(normalized), decision: decision.kind };
      switch (decision.kind) {
        case 'login':
        case 'home':
          return { kind: 'redirect', location: decision.location };
        case 'closed':
          return { kind: 'closed', session, publicPart };
        case 'allow':
          return { kind: 'render', session, publicPart };
      }
    }

    fastify.decorate('pageGuard', { check });
    fastify.decorateRequest('pageDecision', undefined);

    // Before the answer leaves, so that the next page cannot get the session from before
    // it: what gateway/cache-rules.ts says the answer makes stale. A logout, a password or
    // someone's rights: the other instances are told too, else they would serve the pages of
    // a session that ended (its user's profile inlined) until their kept copy runs out.
    const changes = opts.sessionChanges;
    fastify.addHook('onSend', (request, reply, payload, done) => {
      const stale = stalenessAfter(request.method, request.url, reply.statusCode);
      const keys = tokensOf(request).map(cacheKey);
      if (stale.sessions) sessionCache.clear();
      else if (stale.ownSession) for (const key of keys) sessionCache.delete(key);
      const told = stale.sessions ? 'all' : stale.ownSessionEnded ? keys : undefined;
      if (changes && told)
        changes.tell(told).catch((error: unknown) => {
          request.log.warn({ err: error }, 'the other instances were not told of the sessions that ended');
        });
      done(null, payload);
    });
    const stop = changes?.subscribe((changed) => {
      if (changed === 'all') sessionCache.clear();
      else for (const key of changed) sessionCache.delete(key);
    });
    if (stop) fastify.addHook('onClose', async () => stop());
  },
  { name: 'page-guard', dependencies: ['backend-client', 'token-cookie', 'start-data'] },
);
