import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { BackendContext } from '../context';
import type { Database } from '../db';
import { bearerFromHeader } from '../auth/tokens';
import { deniedMessage, hasPermission, resolveSession, type SessionUser } from '../auth/session';
import { forbidden, unauthenticated } from './errors';
import { grpcPermissionPath } from '../../shared/permissions';
import { Empty, decodeBody, decodeQuery, encode, type Decoded, type Encodable, type MessageType } from './message';

// How a MOREDOC RPC is declared and served. A service module lists its RPCs with `rpc()`;
// app.ts registers every module's routes and seeds the permission rows they declare.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyMessage = MessageType<any>;
type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * - `public`: anybody; `ctx.permitted` tells whether the caller holds `permission` (admin view).
 * - `login`: a valid token (401 otherwise); `ctx.permitted` as above.
 * - `perm`: a valid token (401) and the permission row of this RPC (403).
 */
export type Auth = 'public' | 'login' | 'perm';

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

export interface RpcSpec<Req extends AnyMessage, Res extends AnyMessage> {
  http: `${HttpMethod} /${string}`;
  request?: Req;
  response?: Res;
  auth: Auth;
  /** Chinese title of this RPC's permission row; required for `perm`, optional otherwise. */
  permission?: string;
  /** Where the request comes from; default: query for GET/DELETE, JSON body for POST/PUT. */
  input?: 'query' | 'body' | 'none';
  handler: (req: Decoded<Req>, ctx: RpcContext) => Promise<Encodable<Res>>;
}

export interface RpcDef {
  name: string;
  method: HttpMethod;
  url: string;
  spec: RpcSpec<AnyMessage, AnyMessage>;
}

export interface PermissionSeed {
  method: string;
  path: string;
  title: string;
}

export interface ServiceModule {
  /** MOREDOC service name, e.g. `GroupAPI`. */
  name: string;
  rpcs: RpcDef[];
  /** Permission rows this module declares: its RPCs' rows plus `extraPermissions`. */
  permissions: PermissionSeed[];
  /** Non-RPC routes of the module (uploads, files). */
  routes?: (app: FastifyInstance, ctx: BackendContext) => void | Promise<void>;
}

export function rpc<Req extends AnyMessage = typeof Empty, Res extends AnyMessage = typeof Empty>(
  name: string,
  spec: RpcSpec<Req, Res>,
): RpcDef {
  const [method, url] = spec.http.split(' ') as [HttpMethod, string];
  if (spec.auth === 'perm' && !spec.permission) throw new Error(`${name}: a perm RPC needs a permission title`);
  return { name, method, url, spec: spec as unknown as RpcSpec<AnyMessage, AnyMessage> };
}

export function defineService(
  name: string,
  rpcs: RpcDef[],
  extra: { permissions?: PermissionSeed[]; routes?: ServiceModule['routes'] } = {},
): ServiceModule {
  const permissions = rpcs
    .filter((r) => r.spec.permission)
    .map((r) => ({ method: 'GRPC', path: grpcPermissionPath(name, r.name), title: r.spec.permission! }));
  const module: ServiceModule = { name, rpcs, permissions: [...permissions, ...(extra.permissions ?? [])] };
  if (extra.routes) module.routes = extra.routes;
  return module;
}

/** The client address as MOREDOC sees it: the first X-Forwarded-For entry, else the peer. */
export function clientIp(request: FastifyRequest): string {
  const forwarded = request.headers['x-forwarded-for'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
  return first || request.socket.remoteAddress || '';
}

export function sendJson(reply: FastifyReply, body: unknown) {
  return reply
    .code(200)
    .header('content-type', 'application/json')
    .header('grpc-metadata-content-type', 'application/grpc')
    // A Buffer keeps Fastify from appending `; charset=utf-8` (MOREDOC sends none).
    .send(Buffer.from(JSON.stringify(body)));
}

export function registerRpcs(app: FastifyInstance, ctx: BackendContext, service: ServiceModule): void {
  for (const def of service.rpcs) {
    const { spec } = def;
    const fullMethod = grpcPermissionPath(service.name, def.name);
    const input = spec.input ?? (def.method === 'GET' || def.method === 'DELETE' ? 'query' : 'body');
    const requestType = spec.request ?? Empty;
    const responseType = spec.response ?? Empty;
    app.route({
      method: def.method,
      url: def.url,
      handler: async (request, reply) => {
        const decoded = input === 'query'
          ? decodeQuery(requestType, request.query as Record<string, unknown>)
          : input === 'body'
            ? decodeBody(requestType, typeof request.body === 'string' ? request.body : undefined)
            : decodeQuery(Empty, {});
        const user = await resolveSession(ctx, bearerFromHeader(request.headers.authorization));
        if (!user && spec.auth !== 'public') throw unauthenticated();
        let permitted = false;
        if (user && spec.permission) permitted = await hasPermission(ctx.db, user.id, 'GRPC', fullMethod);
        if (spec.auth === 'perm' && !permitted) throw forbidden(await deniedMessage(ctx.db, 'GRPC', fullMethod));
        const rpcContext: RpcContext = {
          app: ctx,
          db: ctx.db,
          request,
          user,
          permitted,
          ip: clientIp(request),
          requireUser() {
            if (!user) throw unauthenticated();
            return user;
          },
          can: async (path) => (user ? hasPermission(ctx.db, user.id, 'GRPC', path) : false),
        };
        const result = await spec.handler(decoded, rpcContext);
        return sendJson(reply, encode(responseType, result as Record<string, unknown>));
      },
    });
  }
}
