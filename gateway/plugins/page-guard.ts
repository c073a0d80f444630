// Server-side page guard (SPEC §2 access rules and the site switches is_close /
// login_required, applied by shared/access exactly as the SPA applies them): resolves the
// visitor's session from the cookie and the switches from the cached public settings, then
// decides whether a page navigation is served, sent to the login page or home, or gets the
// closed-site page.
import fp from 'fastify-plugin';
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { decideAccess, normalizePath, siteSwitchesFrom } from '../../shared/access';
import { allowPagesFrom } from '../../shared/permissions';
import type { Permission, User } from '../../shared/types';
import { GatewayError, MESSAGES } from '../errors';
import { isLiveToken } from './token-cookie';
import type { PublicStartData } from './start-data';
import { LOGOUT_PATH, pathOf } from './upstream';

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
 */
export type GuardOutcome =
  | { kind: 'render' | 'closed'; session: VisitorSession; publicPart: PublicStartData | undefined }
  | { kind: 'redirect'; location: string }
  | { kind: 'refused' };

export interface PageGuard {
  check(request: FastifyRequest, reply: FastifyReply): Promise<GuardOutcome>;
}

declare module 'fastify' {
  interface FastifyInstance {
    pageGuard: PageGuard;
  }
}

export interface PageGuardOptions {
  cookieName: string;
  permissionCacheTtlMs: number;
  permissionCacheMax: number;
}

class SessionRejected extends Error {}

/** Writes after which cached permissions may be wrong: group rights, user groups, permissions. */
const PERMISSION_WRITES = /^\/api\/v1\/(?:group(?:\/|$)|permission(?:\/|$)|user$)/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function splitUrl(url: string): [path: string, query: string] {
  const q = url.indexOf('?');
  return q === -1 ? [url, ''] : [url.slice(0, q), url.slice(q)];
}

const cacheKey = (token: string) => createHash('sha256').update(token).digest('base64url');

export default fp<PageGuardOptions>(
  async function pageGuard(fastify, opts) {
    // Per token (by hash), bounded, oldest out first; a pending load is shared.
    const permissionCache = new Map<string, { expires: number; permissions: Promise<Permission[]> }>();

    function permissionsFor(token: string, request: FastifyRequest): Promise<Permission[]> {
      const key = cacheKey(token);
      const hit = permissionCache.get(key);
      if (hit && hit.expires > Date.now()) return hit.permissions;
      permissionCache.delete(key);
      const permissions = fastify.backend
        .getJson<{ permission?: Permission[] }>('/api/v1/user/permission', { token, clientIp: request.ip, requestId: request.id })
        .then((answer) => {
          if (answer.status === 401) throw new SessionRejected();
          if (answer.status !== 200) throw new GatewayError(502, MESSAGES.badGateway);
          return answer.body?.permission ?? [];
        });
      permissionCache.set(key, { expires: Date.now() + opts.permissionCacheTtlMs, permissions });
      // A failed load is not kept.
      permissions.catch(() => {
        if (permissionCache.get(key)?.permissions === permissions) permissionCache.delete(key);
      });
      while (permissionCache.size > opts.permissionCacheMax) {
        const oldest = permissionCache.keys().next().value as string;
        permissionCache.delete(oldest);
      }
      return permissions;
    }

    async function userFor(token: string, request: FastifyRequest): Promise<User> {
      const answer = await fastify.backend.getJson<User>('/api/v1/user', { token, clientIp: request.ip, requestId: request.id });
      if (answer.status === 401) throw new SessionRejected();
      if (answer.status !== 200 || !answer.body) throw new GatewayError(502, MESSAGES.badGateway);
      return answer.body;
    }

    /** undefined: the backend does not accept the token (401). */
    async function resolveSession(token: string, request: FastifyRequest): Promise<VisitorSession | undefined> {
      const [user, permissions] = await Promise.allSettled([userFor(token, request), permissionsFor(token, request)]);
      const failures = [user, permissions].filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failures.some((f) => f.reason instanceof SessionRejected)) {
        permissionCache.delete(cacheKey(token));
        return undefined;
      }
      const session: VisitorSession = { token, allowPages: [] };
      if (user.status === 'fulfilled') session.user = user.value;
      if (permissions.status === 'fulfilled') {
        session.permissions = permissions.value;
        session.allowPages = allowPagesFrom(permissions.value);
      }
      const failure = failures[0]?.reason as unknown;
      if (failure !== undefined) {
        session.fault = failure instanceof GatewayError ? failure : new GatewayError(502, MESSAGES.badGateway, { cause: failure });
        request.log.warn({ err: failure }, 'session not resolved');
      }
      return session;
    }

    async function check(request: FastifyRequest, reply: FastifyReply): Promise<GuardOutcome> {
      const [path, query] = splitUrl(request.url);
      if (normalizePath(path) === null) return { kind: 'refused' };

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
      switch (decision.kind) {
        case 'refused':
          return { kind: 'refused' };
        case 'login':
          return { kind: 'redirect', location: decision.location };
        case 'home':
          // Without the permissions we cannot tell: say the backend failed, do not guess.
          if (session.fault && session.permissions === undefined) throw session.fault;
          return { kind: 'redirect', location: decision.location };
        case 'closed':
          // Nor whether this user is an admin, who may enter a closed site.
          if (session.fault && session.permissions === undefined) throw session.fault;
          return { kind: 'closed', session, publicPart };
        case 'allow':
          return { kind: 'render', session, publicPart };
      }
    }

    fastify.decorate('pageGuard', { check });

    fastify.addHook('onResponse', async (request, reply) => {
      if (SAFE_METHODS.has(request.method)) return;
      const path = pathOf(request.url);
      if (path === LOGOUT_PATH) {
        const token = request.sessionToken;
        if (token) permissionCache.delete(cacheKey(token));
      } else if (reply.statusCode === 200 && PERMISSION_WRITES.test(path)) {
        permissionCache.clear();
      }
    });
  },
  { name: 'page-guard', dependencies: ['backend-client', 'token-cookie', 'start-data'] },
);
