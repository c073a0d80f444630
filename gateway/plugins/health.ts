// /healthz: the process answers. /readyz: and the backend answers too, with its database.
import fp from 'fastify-plugin';
import { errorBody, MESSAGES } from '../errors';

const READY_TIMEOUT_MS = 2_000;

export default fp(
  async function health(fastify) {
    fastify.get('/healthz', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'ok' };
    });

    // Our backend (embedded, or `npm run backend`) has a `/readyz` of its own that asks its database
    // (backend/wire/readiness.ts). A MOREDOC server has none: it answers any path outside /api/ with its
    // web client's index.html (200), so only our JSON counts; there, its settings answering is the sign.
    fastify.get('/readyz', async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const call = { timeoutMs: READY_TIMEOUT_MS, request };
      try {
        const own = await fastify.backend.getJson<{ status?: unknown }>('/readyz', call);
        if (own.status === 200 && own.body?.status === 'ready') return { status: 'ready' };
        const answer =
          own.status === 200 || own.status === 404 ? await fastify.backend.getJson('/api/v1/settings', call) : own;
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
