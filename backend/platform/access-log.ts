// One access line per request for the embedded backend run on its own (`npm run backend`):
// Fastify's own pair of request lines is off. The line names the route pattern
// (`/download/:jwt`), never the query, so no token or query secret reaches the log. At info;
// a 5xx at warn, so that LOG_LEVEL=warn keeps the faults, unless the route said why it
// answered so on purpose (`request.expectedFailure`). That reason is kept on the raw request
// too (EXPECTED_FAILURE), where the gateway running this backend in its process reads it for
// its own access line (gateway/in-process-dispatcher.ts): behind the gateway, the backend
// writes no info line.
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Why a route answered a failure on purpose: a 5xx that is no fault (a payment
     * notification for a provider without keys: 503, the provider retries), or a refusal
     * anyone can provoke as often as they like (a notification whose signature fails). The
     * access line says it and stays at info: the request writes no line of its own.
     */
    expectedFailure?: string;
  }
}

/** The raw request's property holding `request.expectedFailure`. */
export const EXPECTED_FAILURE: unique symbol = Symbol('expectedFailure');

type MarkedRequest = FastifyRequest['raw'] & { [EXPECTED_FAILURE]?: string };

/** The route pattern; for a request no route matched, its path with a download token hidden. */
function routeOf(request: FastifyRequest): string {
  if (request.routeOptions.url) return request.routeOptions.url;
  const path = request.url.split('?', 1)[0] ?? '';
  return path.startsWith('/download/') ? '/download/[redacted]' : path;
}

export function registerAccessLog(app: FastifyInstance): void {
  app.decorateRequest('expectedFailure', {
    getter(this: FastifyRequest) {
      return (this.raw as MarkedRequest)[EXPECTED_FAILURE];
    },
    setter(this: FastifyRequest, reason: string | undefined) {
      (this.raw as MarkedRequest)[EXPECTED_FAILURE] = reason;
    },
  });
  app.addHook('onResponse', (request, reply, done) => {
    const line = {
      method: request.method,
      route: routeOf(request),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ...(request.expectedFailure === undefined ? {} : { reason: request.expectedFailure }),
    };
    if (reply.statusCode >= 500 && request.expectedFailure === undefined) request.log.warn(line, 'request failed');
    else request.log.info(line, 'request');
    done();
  });
}
