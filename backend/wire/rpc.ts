import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { grpcPermissionPath } from '../../shared/permissions';
import {
  Empty,
  decodeBody,
  decodeQuery,
  encode,
  type Decoded,
  type Encodable,
  type EmptyMessage,
  type MessageType,
} from './message';

// How a MOREDOC RPC is declared and served on the wire: its HTTP route, the message it
// decodes and the one it encodes. Who may call it is not decided here: the caller of
// registerRpcs() builds each handler's context (platform/rpc.ts checks the session there).

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyMessage = MessageType<any>;
type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * - `public`: anybody; the context tells whether the caller holds `permission` (admin view).
 * - `login`: a valid token (401 otherwise); the permission as for `public`.
 * - `perm`: a valid token (401) and the permission row of this RPC (403).
 */
export type Auth = 'public' | 'login' | 'perm';

export interface RpcSpec<Req extends AnyMessage, Res extends AnyMessage, Ctx> {
  http: `${HttpMethod} /${string}`;
  request?: Req;
  response?: Res;
  auth: Auth;
  /** Chinese title of this RPC's permission row; required for `perm`, optional otherwise. */
  permission?: string;
  /** Where the request comes from; default: query for GET/DELETE, JSON body for POST/PUT. */
  input?: 'query' | 'body' | 'none';
  handler: (req: Decoded<Req>, ctx: Ctx) => Promise<Encodable<Res>>;
}

export interface RpcDef<Ctx> {
  name: string;
  method: HttpMethod;
  url: string;
  spec: RpcSpec<AnyMessage, AnyMessage, Ctx>;
}

/** Builds a handler's context once the request is decoded, or throws (401, 403); may set headers of the answer. */
type ContextFor<Ctx> = (
  request: FastifyRequest,
  reply: FastifyReply,
  rpc: { spec: RpcDef<Ctx>['spec']; fullMethod: string },
) => Promise<Ctx>;

/** The `rpc()` of handlers that get a `Ctx`; platform/rpc.ts binds it to the backend's context. */
export function rpcFor<Ctx>() {
  return function rpc<Req extends AnyMessage = EmptyMessage, Res extends AnyMessage = EmptyMessage>(
    name: string,
    spec: RpcSpec<Req, Res, Ctx>,
  ): RpcDef<Ctx> {
    const [method, url] = spec.http.split(' ') as [HttpMethod, string];
    if (spec.auth === 'perm' && !spec.permission) throw new Error(`${name}: a perm RPC needs a permission title`);
    return { name, method, url, spec: spec as unknown as RpcSpec<AnyMessage, AnyMessage, Ctx> };
  };
}

/**
 * The client address: the peer's, or the one X-Forwarded-For names when the peer is a proxy
 * the backend believes (Fastify's trustProxy: BACKEND_TRUST_PROXY, or the embedded backend's
 * own gateway, app.ts). MOREDOC took the first entry from anyone, so that any caller could
 * pick the address the per-address limits count. The full address, as stored and shown; the
 * limits count it by its key (addressKey: an IPv6 client by its /64, or CLIENT_IPV6_PREFIX).
 */
export function clientIp(request: FastifyRequest): string {
  return request.ip || '';
}

function sendJson(reply: FastifyReply, body: unknown) {
  return (
    reply
      .code(200)
      .header('content-type', 'application/json')
      .header('grpc-metadata-content-type', 'application/grpc')
      // A Buffer keeps Fastify from appending `; charset=utf-8` (MOREDOC sends none).
      .send(Buffer.from(JSON.stringify(body)))
  );
}

/** Routes every RPC of the service `serviceName`: decode, build the context, handle, encode. */
export function registerRpcs<Ctx>(
  app: FastifyInstance,
  serviceName: string,
  rpcs: readonly RpcDef<Ctx>[],
  contextFor: ContextFor<Ctx>,
): void {
  for (const def of rpcs) {
    const { spec } = def;
    const fullMethod = grpcPermissionPath(serviceName, def.name);
    const input = spec.input ?? (def.method === 'GET' || def.method === 'DELETE' ? 'query' : 'body');
    const requestType = spec.request ?? Empty;
    const responseType = spec.response ?? Empty;
    app.route({
      method: def.method,
      url: def.url,
      handler: async (request, reply) => {
        const decoded =
          input === 'query'
            ? decodeQuery(requestType, request.query as Record<string, unknown>)
            : input === 'body'
              ? decodeBody(requestType, typeof request.body === 'string' ? request.body : undefined)
              : decodeQuery(Empty, {});
        const context = await contextFor(request, reply, { spec, fullMethod });
        const result = await spec.handler(decoded, context);
        return sendJson(reply, encode(responseType, result as Record<string, unknown>));
      },
    });
  }
}
