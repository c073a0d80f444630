// Document pages and covers (`/view/page/*`, `/view/cover/*`) when the backend is the
// embedded one, in this process: instead of a request over loopback HTTP, the gateway asks
// the backend's page routes for their answer in process. The backend makes its own rights
// decision (document module, `pageAccess`) and hands back the answer with the file's stream
// from its blob store; the gateway sends it. gateway/embedded-backend.ts hands the function
// over at start, so that nothing else of gateway/ imports backend/ (docs/architecture.md). With
// BACKEND_URL set there is no such function and pages are forwarded as before.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { ViewFiles } from '../shared/view-files';
import { backendAuthorization, bearerFromCookie, forwardablePath } from './forward';

/**
 * Serves a page or cover in process, or calls `forward` (over HTTP) for what it does not
 * take: HEAD, paths the forwarder refuses, URLs the backend leaves to its router, and a
 * backend that failed before answering (it answers the same request over HTTP with its own
 * error, and logs it).
 */
export function serveViewFile(
  request: FastifyRequest,
  reply: FastifyReply,
  viewFiles: ViewFiles<Readable>,
  forward: () => FastifyReply,
): FastifyReply | Promise<FastifyReply> {
  if (request.method !== 'GET' || forwardablePath(request.url) === undefined) return forward();
  const pending = viewFiles(request.url, {
    authorization: backendAuthorization(request),
    acceptEncoding: request.headers['accept-encoding'],
    ifNoneMatch: request.headers['if-none-match'],
    range: request.headers.range,
    ifRange: headerValue(request.headers['if-range']),
  });
  if (pending === null) return forward();
  return pending.then(
    (answer) => {
      reply.code(answer.status).headers(answer.headers);
      if (answer.status === 401 && bearerFromCookie(request)) reply.clearTokenCookie();
      return reply.send(answer.body ?? undefined);
    },
    (error: unknown) => {
      request.log.debug({ err: error }, 'page not answered in process; asking over HTTP');
      return forward();
    },
  );
}

/** A header Node types loosely (`string | string[]`) as the one value it is. */
function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
