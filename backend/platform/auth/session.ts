import type { BackendContext } from '../context';
import { forbidden, sessionRefused } from '../../wire/errors';
import { tokenFromUploadHeader, type TokenClaims } from './tokens';
import type { Database } from '../../db';
import { now } from '../../db/schema';
import { databaseNow } from '../../db/dialect';
import { SUPER_USER_ID } from '../../../shared/permissions';
import type { SessionEnd } from '../../../shared/session-end';

// Who is calling, and may they? A token that is invalid, expired, logged out, belongs to a
// deleted user or was issued before its user's password changed (but for the session that
// changed it: `passwordChanged`) leaves the request anonymous; each RPC then decides
// (docs/moredoc.md §4); `readSession` also says which of those ended a session (decision 079).
// Reads the user and grant tables; owns `logout`, the list of revoked tokens.

export interface SessionUser {
  id: number;
  uuid: string;
  exp: number;
}

export async function resolveSession(app: BackendContext, token: string | null): Promise<SessionUser | null> {
  return (await readSession(app, token)).user;
}

/**
 * The session a token opens, or, for a token the caller sent in vain, why (docs/decisions/079): a
 * token whose signature is not this site's, or that is malformed, says nothing of a session.
 */
export async function readSession(
  app: BackendContext,
  token: string | null,
): Promise<{ user: SessionUser; ended?: undefined } | { user: null; ended?: SessionEnd }> {
  if (!token) return { user: null };
  const claims = await app.tokens.read(token);
  if (claims === 'expired') return { user: null, ended: 'expired' };
  if (!claims) return { user: null };
  // One query for both (each backend call of a page asks; on PostgreSQL each query is a round trip).
  const user = await app.db
    .selectFrom('user')
    .select((eb) => [
      'id',
      'sessions_from',
      'session_kept',
      eb.exists(eb.selectFrom('logout').select('logout.id').where('logout.uuid', '=', claims.uuid)).as('logged_out'),
    ])
    .where('user.id', '=', claims.userId)
    .executeTakeFirst();
  if (!user) return { user: null, ended: 'account-removed' };
  if (user.logged_out) return { user: null, ended: 'logged-out' };
  if (
    user.sessions_from !== null &&
    claims.issuedAtMs < Number(user.sessions_from) &&
    claims.uuid !== user.session_kept
  )
    return { user: null, ended: 'password-changed' };
  return { user: { id: claims.userId, uuid: claims.uuid, exp: claims.exp } };
}

/**
 * The caller of an upload route, whose token is read the way gin's AuthGin reads it
 * (README §4.2): 401 without a session, 403 without the POST permission row when one is needed.
 */
export async function uploadCaller(
  app: BackendContext,
  authorization: string | undefined,
  permissionPath: string | null,
): Promise<SessionUser> {
  const { user, ended } = await readSession(app, tokenFromUploadHeader(authorization));
  if (!user) throw sessionRefused(ended);
  if (permissionPath && !(await hasPermission(app.db, user.id, 'POST', permissionPath))) {
    throw forbidden(await deniedMessage(app.db, 'POST', permissionPath));
  }
  return user;
}

/** Does one of the user's groups hold the permission row (method, path), or one of `path`'s rows? */
export async function hasPermission(
  db: Database,
  userId: number,
  method: string,
  path: string | readonly string[],
): Promise<boolean> {
  if (userId === SUPER_USER_ID) return true;
  const row = await db
    .selectFrom('permission as p')
    .innerJoin('group_permission as gp', 'gp.permission_id', 'p.id')
    .innerJoin('user_group as ug', 'ug.group_id', 'gp.group_id')
    .select('p.id')
    .where('ug.user_id', '=', userId)
    .where('p.path', 'in', typeof path === 'string' ? [path] : path)
    .where((eb) => (method === 'GRPC' ? eb('p.method', 'in', ['GRPC', '']) : eb('p.method', '=', method)))
    .executeTakeFirst();
  return row !== undefined;
}

/** `您没有权限访问【<title or path>】` */
export async function deniedMessage(db: Database, method: string, path: string): Promise<string> {
  const row = await db
    .selectFrom('permission')
    .select('title')
    .where('method', '=', method)
    .where('path', '=', path)
    .executeTakeFirst();
  return `您没有权限访问【${row?.title || path}】`;
}

/** IsAdmin: user 1, or a member of any group that holds at least one grant. */
export async function isAdmin(db: Database, userId: number): Promise<boolean> {
  if (userId === SUPER_USER_ID) return true;
  const row = await db
    .selectFrom('user_group as ug')
    .innerJoin('group_permission as gp', 'gp.group_id', 'ug.group_id')
    .select('gp.id')
    .where('ug.user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The permission rows the user holds through their groups (all of them for user 1). */
export async function permissionsOf(db: Database, userId: number) {
  if (userId === SUPER_USER_ID) return db.selectFrom('permission').selectAll().orderBy('id').execute();
  return db
    .selectFrom('permission as p')
    .innerJoin('group_permission as gp', 'gp.permission_id', 'p.id')
    .innerJoin('user_group as ug', 'ug.group_id', 'gp.group_id')
    .selectAll('p')
    .distinct()
    .where('ug.user_id', '=', userId)
    .orderBy('p.id')
    .execute();
}

/**
 * Of the permission rows `ids`, the first `callerId` does not hold (user 1 holds them all), or
 * undefined: a limited admin grants, hands out through groups and takes over no more than they
 * hold themselves (decision 089).
 */
export async function firstPermissionNotHeld(
  db: Database,
  callerId: number,
  ids: readonly number[],
): Promise<{ id: number; title: string } | undefined> {
  if (callerId === SUPER_USER_ID || !ids.length) return undefined;
  const held = new Set((await permissionsOf(db, callerId)).map((p) => p.id));
  const missing = [...new Set(ids)].filter((id) => !held.has(id)).sort((a, b) => a - b);
  if (!missing.length) return undefined;
  const row = await db
    .selectFrom('permission')
    .select(['id', 'title', 'path'])
    .where('id', '=', missing[0]!)
    .executeTakeFirst();
  return { id: missing[0]!, title: row?.title || row?.path || String(missing[0]) };
}

/**
 * A limited admin changes, punishes, takes credits from or changes the VIP of no account that
 * can do more than they can (decision 089): its password, e-mail address or mobile number would let them sign in as
 * it, its groups would take its grants away, a delete or a ban would shut it out. 403 naming a
 * permission the target holds and the caller does not, then `您不能<doing>`.
 */
export async function assertHoldsNoMore(
  db: Database,
  callerId: number,
  targetId: number,
  doing: string,
): Promise<void> {
  if (callerId === targetId) return;
  const targetHolds = (await permissionsOf(db, targetId)).map((p) => p.id);
  const notHeld = await firstPermissionNotHeld(db, callerId, targetHolds);
  if (notHeld) throw forbidden(`该用户拥有您没有的权限【${notHeld.title}】，您不能${doing}`);
}

/** Logout: the token's UUID stays refused until the token would have expired anyway. */
export async function revokeToken(db: Database, claims: TokenClaims): Promise<void> {
  await db
    .insertInto('logout')
    .values({
      user_id: claims.userId,
      uuid: claims.uuid,
      expired_at: new Date(claims.exp * 1000).toISOString(),
      created_at: now(),
    })
    .onConflict((oc) => oc.column('uuid').doNothing())
    .execute();
}

/** Revoked tokens that have expired anyway need no row any more. */
export async function pruneRevokedTokens(db: Database): Promise<void> {
  await db.deleteFrom('logout').where('expired_at', '<', now()).execute();
}

/**
 * What a password change writes beside the new hash: the sessions opened before it end, but for
 * `kept`, the session that changed its own password (a reset by mail or SMS, or an admin's
 * change of someone else's, keeps none). By the database's clock, as tokens are issued
 * (tokens.ts): a sign-in just after the change, through a machine whose clock is behind the
 * one that took the change, is not ended by it.
 */
export async function passwordChanged(
  db: Database,
  kept: string | null,
): Promise<{ sessions_from: number; session_kept: string | null }> {
  return { sessions_from: (await databaseNow(db)).getTime(), session_kept: kept };
}
