// /healthz: the process answers. /readyz: and the backend answers too, with its database.
import fp from 'fastify-plugin';
import { errorBody, GatewayError, MESSAGES } from '../errors';

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
    // What is wrong goes into the answer after MESSAGES.notReady: the backend's own reason (its
    // database or its bucket away), else why it did not answer (refused, timed out), so that an
    // operator reading the probe of an instance learns which service to look at.
    fastify.get('/readyz', async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const call = { timeoutMs: READY_TIMEOUT_MS, request };
      let reason: string | undefined;
      try {
        const own = await fastify.backend.getJson<{ status?: unknown; message?: unknown; jobs?: unknown }>(
          '/readyz',
          call,
        );
        // Our backend's job queue backlog (backend/wire/readiness.ts) goes along for the operator.
        if (own.status === 200 && own.body?.status === 'ready')
          return own.body.jobs && typeof own.body.jobs === 'object'
            ? { status: 'ready', jobs: own.body.jobs }
            : { status: 'ready' };
        const answer =
          own.status === 200 || own.status === 404
            ? await fastify.backend.getJson<{ message?: unknown }>('/api/v1/settings', call)
            : own;
        if (answer.status === 200) return { status: 'ready' };
        if (typeof answer.body?.message === 'string' && answer.body.message) reason = answer.body.message;
        request.log.warn({ status: answer.status, reason }, 'backend not ready');
      } catch (error) {
        if (error instanceof GatewayError) reason = error.message;
        request.log.warn({ err: error }, 'backend unreachable');
      }
      return reply.code(503).send(errorBody(503, reason ? `${MESSAGES.notReady}：${reason}` : MESSAGES.notReady));
    });
  },
  { name: 'health', dependencies: ['backend-client'] },
);
