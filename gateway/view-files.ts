// Document pages and covers (`/view/page/*`, `/view/cover/*`) when the backend is the
// embedded one, in this process: instead of a request over loopback HTTP, the gateway asks
// the backend's page routes for their answer in process. The backend makes its own rights
// decision (document module, `pageAccess`) and hands back the answer with the file's stream
// from its blob store; the gateway sends it. gateway/embedded-backend.ts hands the function
// over at start, so that nothing else of gateway/ imports backend/ (docs/architecture.md). With
// BACKEND_URL set there is no such function and pages are forwarded as before.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { ViewFileAnswer, ViewFiles } from '../shared/view-files';
import { backendAuthorization, bearerFromCookie, forwardablePath } from './forward';

/**
 * A visitor's page or cover up to this size is read whole and sent as bytes, which the lane
 * may then keep (plugins/public-reads.ts); a larger one, and every other reader's, streams.
 */
const KEPT_FILE_BYTES = 256 * 1024;

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
  return pending.then(request.publicRead === undefined ? undefined : whole).then(
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

/** The answer with its stored file as bytes, if it is a 200 of a known, small length. */
async function whole(answer: ViewFileAnswer<Readable>): Promise<ViewFileAnswer<Readable | Buffer>> {
  const { status, headers, body } = answer;
  const length = Number(headers['content-length']);
  if (status !== 200 || !(body instanceof Readable) || !(length <= KEPT_FILE_BYTES)) return answer;
  return { status, headers, body: await buffer(body) };
}

/** A header Node types loosely (`string | string[]`) as the one value it is. */
function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
