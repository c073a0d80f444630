import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, Code } from './errors';

// A request body that stops arriving gets a 408 after BODY_TIMEOUT_MS instead of holding its
// connection for ever: all of a body must come within it, an upload's (routes that read the
// body themselves, `readsBodyItself`) must not pause longer between two chunks. The watch
// only listens: the request stays paused until its reader (Fastify's body parser, or the
// multipart reader of an upload) resumes it, and a stall reaches that reader as an error of
// the request, which it answers (the parser with `Connection: close`, the upload with its
// lingering close).

export const BODY_TIMEOUT_MESSAGE = '请求内容接收超时，请检查网络后重试';

const hasBody = (request: FastifyRequest) => {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
};

function watchBody(request: FastifyRequest, reply: FastifyReply, timeoutMs: number, idle: boolean): void {
  const raw = request.raw;
  let timer: NodeJS.Timeout | undefined;
  const stop = () => clearTimeout(timer);
  const stalled = () => {
    if (raw.complete || raw.destroyed) return;
    if (reply.raw.writableFinished) {
      // Answered without reading it (a refusal): nothing waits for the rest but the connection.
      // Destroying the unfinished request destroys its socket (and works on Fastify's inject,
      // whose stand-in socket has no destroy).
      raw.destroy();
    } else if (raw.listenerCount('error') > 0) {
      raw.emit('error', Object.assign(new ApiError(Code.Canceled, BODY_TIMEOUT_MESSAGE), { statusCode: 408 }));
    } else {
      // Nobody reads yet (the handler is still deciding): the watch goes on.
      arm();
    }
  };
  const arm = () => {
    stop();
    timer = setTimeout(stalled, timeoutMs);
    timer.unref();
  };
  // Paused first, so that listening to the chunks does not start the flow before the reader is there.
  raw.pause();
  if (idle) raw.on('data', arm);
  raw.once('end', stop);
  raw.once('close', stop);
  arm();
}

export function registerBodyTimeout(app: FastifyInstance, timeoutMs: number): void {
  app.addHook('preParsing', (request, reply, payload, done) => {
    if (hasBody(request) && !request.raw.complete)
      watchBody(request, reply, timeoutMs, request.routeOptions.config.readsBodyItself === true);
    done(null, payload);
  });
}
