// Errors have one home: every thrown error becomes the JSON error shape; 5xx answers never
// show internals.
import fp from 'fastify-plugin';
import type { FastifyError } from 'fastify';
import { GatewayError, MESSAGES, errorBody } from '../errors';

function messageFor(statusCode: number, error: FastifyError | GatewayError): string {
  if (error instanceof GatewayError) return error.message;
  if (statusCode >= 500) return MESSAGES.internal;
  if (statusCode === 403) return MESSAGES.forbidden;
  if (statusCode === 404) return MESSAGES.notFound;
  if (statusCode === 429) return MESSAGES.tooManyRequests;
  return MESSAGES.badRequest;
}

export default fp(
  async function errorHandler(fastify) {
    fastify.setErrorHandler<FastifyError | GatewayError>((error, request, reply) => {
      const raw = (error as { statusCode?: unknown }).statusCode;
      const statusCode = typeof raw === 'number' && raw >= 400 && raw <= 599 ? raw : 500;
      // A refusal is in the access line already (its status, and the guard's reason).
      if (statusCode >= 500) request.log.error({ err: error }, 'request failed');
      else
        request.log.debug({ err: { message: error.message, code: (error as FastifyError).code } }, 'request refused');
      return reply
        .code(statusCode)
        .header('cache-control', 'no-store')
        .type('application/json; charset=utf-8')
        .send(errorBody(statusCode, messageFor(statusCode, error)));
    });
  },
  { name: 'error-handler' },
);
