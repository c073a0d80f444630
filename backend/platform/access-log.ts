// One access line per request for the embedded backend run on its own (`npm run backend`):
// Fastify's own pair of request lines is off. The line names the route pattern
// (`/download/:jwt`), never the query, so no token or query secret reaches the log. At info;
// a 5xx at warn, so that LOG_LEVEL=warn keeps the faults.
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The route pattern; for a request no route matched, its path with a download token hidden. */
function routeOf(request: FastifyRequest): string {
  if (request.routeOptions.url) return request.routeOptions.url;
  const path = request.url.split('?', 1)[0] ?? '';
  return path.startsWith('/download/') ? '/download/[redacted]' : path;
}

export function registerAccessLog(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    const line = {
      method: request.method,
      route: routeOf(request),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (reply.statusCode >= 500) request.log.warn(line, 'request failed');
    else request.log.info(line, 'request');
    done();
  });
}
