// `Expect: 100-continue` (curl and libcurl send it for every body over 1 MiB): the client
// sends its body only once the server has answered `100 Continue`. Node answers it as soon as
// the headers are in; the gateway answers it only when the request has passed its checks and
// is about to be forwarded, so that a refusal (CSRF, rate limit, 404) comes instead of the
// 100 and the body is never sent. An upload whose Content-Length is over the limit of the
// settings (`security.max_document_size`, plus the multipart envelope) is refused from its
// headers alone: 413, `Connection: close`.
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { UPLOAD_ENVELOPE_BYTES, uploadLimitBytes, uploadTooLargeMessage } from '../../shared/constants';
import { GatewayError } from '../errors';
import { isUnder, pathOf } from '../http';
import { UPLOAD_PREFIX } from './upstream';

function expectsContinue(request: FastifyRequest): boolean {
  const expect = request.headers.expect;
  return typeof expect === 'string' && expect.toLowerCase() === '100-continue';
}

/** The upload limit the settings state, or undefined when they cannot say (backend down, no such setting). */
async function uploadLimit(request: FastifyRequest): Promise<number | undefined> {
  const maxMb = (await request.server.startData.publicPart(request))?.settings.security?.max_document_size;
  return typeof maxMb === 'number' && maxMb > 0 ? uploadLimitBytes(maxMb) : undefined;
}

export default fp(
  async function expectContinue(fastify) {
    // With a listener, Node leaves the 100 to us; the request goes the usual way.
    fastify.server.on('checkContinue', (req, res) => fastify.server.emit('request', req, res));

    // preParsing: after every check (onRequest hooks), before anything reads the body (a
    // parser, or the proxy's preHandler that starts it on its way, plugins/upstream.ts).
    fastify.addHook('preParsing', async (request, reply) => {
      if (!expectsContinue(request) || reply.raw.headersSent) return;
      const declared = Number(request.headers['content-length']);
      if (Number.isFinite(declared) && isUnder(pathOf(request.url), UPLOAD_PREFIX)) {
        const limit = await uploadLimit(request);
        if (limit !== undefined && declared > limit + UPLOAD_ENVELOPE_BYTES) {
          // No 100 was sent: the client sends no body, and the connection closes after the answer.
          reply.header('connection', 'close');
          throw new GatewayError(413, uploadTooLargeMessage(limit));
        }
      }
      reply.raw.writeContinue();
    });
  },
  { name: 'expect-continue', dependencies: ['start-data'] },
);
