import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A small round-robin load balancer for the tests of many instances, doing what the nginx of
// deploy/nginx-scale.conf does (open-source nginx, no active health checks):
// - a new connection to the instance for each request (no upstream keepalive), the request's
//   body read whole before it is sent (proxy_request_buffering on);
// - `proxy_next_upstream error timeout http_502`: a request whose connection to an instance
//   could not be made goes to the next one, whatever its method (nothing was sent); one that
//   failed after it was sent, or got a 502, goes on only when it is idempotent (not POST,
//   PATCH or LOCK): the instance may have acted on it;
// - `max_fails=1 fail_timeout`: an instance that failed is skipped for a while, unless all are.
// What it answers itself when every try failed is nginx's 502.

const NON_IDEMPOTENT = new Set(['POST', 'PATCH', 'LOCK']);
const HOP_HEADERS = ['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer'];

export interface LoadBalancer {
  url: string;
  /**
   * Answers the load balancer made itself (every try failed), requests passed on to another
   * instance, and writes cut: sent to an instance whose connection then failed without an
   * answer, not passed on (the instance may have acted on them), answered 502.
   */
  stats: { ownErrors: number; retries: number; cutWrites: number };
  close(): Promise<void>;
}

interface Attempt {
  response?: http.IncomingMessage;
  /** the connection was made (the request may have been acted on) */
  connected: boolean;
  error?: Error;
}

function attempt(upstream: URL, request: http.IncomingMessage, body: Buffer): Promise<Attempt> {
  return new Promise((resolve) => {
    const headers: http.OutgoingHttpHeaders = { ...request.headers };
    for (const name of HOP_HEADERS) delete headers[name];
    headers['content-length'] = String(body.length);
    if (body.length === 0 && !['POST', 'PUT', 'PATCH'].includes(request.method ?? 'GET'))
      delete headers['content-length'];
    headers['x-forwarded-for'] = request.socket.remoteAddress ?? '127.0.0.1';
    headers.connection = 'close';
    let connected = false;
    const outgoing = http.request({
      host: upstream.hostname,
      port: upstream.port,
      method: request.method,
      path: request.url,
      headers,
      agent: false,
    });
    outgoing.on('socket', (socket) => socket.once('connect', () => (connected = true)));
    outgoing.on('response', (response) => resolve({ response, connected: true }));
    outgoing.on('error', (error) => resolve({ connected, error }));
    outgoing.end(body);
  });
}

export async function startLoadBalancer(
  upstreamUrls: readonly string[],
  opts: { failTimeoutMs?: number } = {},
): Promise<LoadBalancer> {
  const upstreams = upstreamUrls.map((url) => ({ url: new URL(url), downUntil: 0 }));
  const failTimeoutMs = opts.failTimeoutMs ?? 2000;
  const stats = { ownErrors: 0, retries: 0, cutWrites: 0 };
  let next = 0;

  /** The instances in the order this request tries them: round robin, those marked down last. */
  const order = () => {
    const start = next++ % upstreams.length;
    const turn = [...upstreams.slice(start), ...upstreams.slice(0, start)];
    const now = Date.now();
    return [...turn.filter((u) => u.downUntil <= now), ...turn.filter((u) => u.downUntil > now)];
  };

  const server = http.createServer(async (request, reply) => {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of request) chunks.push(chunk as Buffer);
    } catch {
      return;
    }
    const body = Buffer.concat(chunks);
    const idempotent = !NON_IDEMPOTENT.has(request.method ?? 'GET');
    const tries = order();
    for (const [i, upstream] of tries.entries()) {
      const result = await attempt(upstream.url, request, body);
      const last = i === tries.length - 1;
      const failed = result.error !== undefined || result.response?.statusCode === 502;
      if (failed) upstream.downUntil = Date.now() + failTimeoutMs;
      const passOn = failed && !last && (!result.connected || idempotent);
      if (passOn) {
        result.response?.resume();
        stats.retries += 1;
        continue;
      }
      if (!result.response) {
        if (result.connected && !idempotent) stats.cutWrites += 1;
        break;
      }
      const { response } = result;
      const headers = { ...response.headers };
      for (const name of HOP_HEADERS) delete headers[name];
      reply.writeHead(response.statusCode ?? 502, headers);
      response.pipe(reply);
      response.on('error', () => reply.destroy());
      return;
    }
    stats.ownErrors += 1;
    reply.writeHead(502, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>');
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    async close() {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await closed;
    },
  };
}
