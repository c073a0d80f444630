// /healthz: the process answers. /readyz: and the backend answers too.
import fp from 'fastify-plugin';
import { errorBody, MESSAGES } from '../errors';

const READY_TIMEOUT_MS = 2_000;

export default fp(
  async function health(fastify) {
    fastify.get('/healthz', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'ok' };
    });

    fastify.get('/readyz', async (request, reply) => {
      reply.header('cache-control', 'no-store');
      try {
        const answer = await fastify.backend.getJson('/api/v1/settings', { timeoutMs: READY_TIMEOUT_MS, request });
        if (answer.status === 200) return { status: 'ready' };
        request.log.warn({ status: answer.status }, 'backend not ready');
      } catch (error) {
        request.log.warn({ err: error }, 'backend unreachable');
      }
      return reply.code(503).send(errorBody(503, MESSAGES.notReady));
    });
  },
  { name: 'health', dependencies: ['backend-client'] },
);
