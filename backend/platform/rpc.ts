import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db';
import { forbidden, unauthenticated } from '../wire/errors';
import { clientIp, registerRpcs, rpcFor, type RpcDef } from '../wire/rpc';
import { grpcPermissionPath } from '../../shared/permissions';
import { bearerFromHeader } from './auth/tokens';
import { deniedMessage, hasPermission, readSession, type SessionUser } from './auth/session';
import { SESSION_END_HEADER } from '../../shared/session-end';
import type { BackendContext } from './context';

// The backend's services: a service module declares its RPCs with `rpc()` and gets, per
// call, the caller's session and the app-wide helpers. app.ts serves every module of its
// list and seeds the permission rows they declare.

export interface RpcContext {
  app: BackendContext;
  db: Database;
  request: FastifyRequest;
  user: SessionUser | null;
  /** The caller holds this RPC's permission row (user 1 always does). */
  permitted: boolean;
  ip: string;
  /** The logged-in user, or a 401. */
  requireUser(): SessionUser;
  /** Does the caller hold the GRPC permission `/api.v1.<service>/<rpc>`? */
  can(fullMethod: string): Promise<boolean>;
}

export const rpc = rpcFor<RpcContext>();

export interface PermissionSeed {
  method: string;
  path: string;
  title: string;
}

export interface ServiceModule {
  /** MOREDOC service name, e.g. `GroupAPI`. */
  name: string;
  rpcs: RpcDef<RpcContext>[];
  /** Permission rows this module declares: its RPCs' rows plus `extra.permissions`. */
  permissions: PermissionSeed[];
  /** Non-RPC routes of the module (uploads, files). */
  routes?: (app: FastifyInstance, ctx: BackendContext) => void | Promise<void>;
}

export function defineService(
  name: string,
  rpcs: RpcDef<RpcContext>[],
  extra: { permissions?: PermissionSeed[]; routes?: ServiceModule['routes'] } = {},
): ServiceModule {
  const permissions = rpcs
    .filter((r) => r.spec.permission)
    .map((r) => ({ method: 'GRPC', path: grpcPermissionPath(name, r.name), title: r.spec.permission! }));
  const module: ServiceModule = { name, rpcs, permissions: [...permissions, ...(extra.permissions ?? [])] };
  if (extra.routes) module.routes = extra.routes;
  return module;
}

/**
 * Who calls and may they (docs/moredoc.md §4): 401 without a session, 403 without the grant. A
 * token sent in vain has its answer, whatever it is, say why (SESSION_END_HEADER, decision 079).
 */
async function rpcContext(
  app: BackendContext,
  request: FastifyRequest,
  reply: FastifyReply,
  spec: RpcDef<RpcContext>['spec'],
  fullMethod: string,
): Promise<RpcContext> {
  const { user, ended } = await readSession(app, bearerFromHeader(request.headers.authorization));
  if (ended) reply.header(SESSION_END_HEADER, ended);
  if (!user && spec.auth !== 'public') throw unauthenticated();
  let permitted = false;
  if (user && spec.permission) permitted = await hasPermission(app.db, user.id, 'GRPC', fullMethod);
  if (spec.auth === 'perm' && !permitted) throw forbidden(await deniedMessage(app.db, 'GRPC', fullMethod));
  return {
    app,
    db: app.db,
    request,
    user,
    permitted,
    ip: clientIp(request),
    requireUser() {
      if (!user) throw unauthenticated();
      return user;
    },
    can: async (path) => (user ? hasPermission(app.db, user.id, 'GRPC', path) : false),
  };
}

/** Registers the module's RPCs and its other routes. */
export async function serveService(app: FastifyInstance, ctx: BackendContext, service: ServiceModule): Promise<void> {
  registerRpcs(app, service.name, service.rpcs, (request, reply, { spec, fullMethod }) =>
    rpcContext(ctx, request, reply, spec, fullMethod),
  );
  if (service.routes) await service.routes(app, ctx);
}
