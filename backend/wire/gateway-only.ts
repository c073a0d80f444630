import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { GATEWAY_SECRET_HEADER } from '../../shared/constants';
import { forbidden } from './errors';

// The embedded backend listens on a loopback port, which every local process can reach: it
// takes requests from the gateway that started it only. The gateway makes a secret at each
// start and sends it in every request (GATEWAY_SECRET_HEADER); anything else is refused
// with 403 before any route runs, so that nobody goes around the gateway's rate limits, CSRF
// checks and client address (the gateway's X-Forwarded-For is believed, app.ts).

const digest = (value: string) => crypto.createHash('sha256').update(value).digest();

export function acceptGatewayOnly(app: FastifyInstance, secret: string): void {
  const expected = digest(secret);
  app.addHook('onRequest', (request, _reply, done) => {
    const given = request.headers[GATEWAY_SECRET_HEADER];
    // Digests of equal length, compared in constant time: the secret's bytes leak through no timing.
    if (typeof given === 'string' && crypto.timingSafeEqual(digest(given), expected)) return done();
    done(forbidden('后端只接受本站网关的请求'));
  });
}
