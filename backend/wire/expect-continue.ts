import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

// `Expect: 100-continue` (curl sends it for every body over 1 MiB): the client sends its body
// once the server has answered `100 Continue`. Node answers it as soon as the headers are in;
// here it is answered just before the body is read, so that what is decided from the headers
// alone (a 401, an upload over the size limit) comes instead of the 100, and the body is never
// sent. Routes whose handler reads the body itself (the uploads) decide from the headers
// there, and call `continueIfExpected` before they read.

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The handler reads the body itself, as it comes (the uploads): it answers the 100
     * (continueIfExpected) once the headers passed its checks, and a stalled body is timed
     * between two chunks (body-timeout.ts).
     */
    readsBodyItself?: boolean;
  }
}

const continued = new WeakSet<FastifyReply>();

/** Sends the `100 Continue` the client waits for, once; nothing when it asked for none. */
export function continueIfExpected(request: FastifyRequest, reply: FastifyReply): void {
  const expect = request.headers.expect;
  if (
    typeof expect !== 'string' ||
    expect.toLowerCase() !== '100-continue' ||
    continued.has(reply) ||
    reply.raw.headersSent
  )
    return;
  continued.add(reply);
  reply.raw.writeContinue();
}

export function registerExpectContinue(app: FastifyInstance): void {
  // With a listener, Node leaves the 100 to us; the request goes the usual way.
  app.server.on('checkContinue', (req, res) => app.server.emit('request', req, res));
  // preParsing: after the routing and before a body parser reads.
  app.addHook('preParsing', (request, reply, payload, done) => {
    if (!request.routeOptions.config.readsBodyItself) continueIfExpected(request, reply);
    done(null, payload);
  });
}
