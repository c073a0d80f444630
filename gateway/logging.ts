// pino options for the gateway (and the embedded backend it starts): request ids, and the
// credentials a proxy sees all day (Authorization, Cookie, Set-Cookie) never reach the log.
import type { FastifyServerOptions, FastifyRequest } from 'fastify';
import type { DestinationStream } from 'pino';
import type { LogLevel } from './config';

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
];

// Enough to follow a request; the credentials are listed so that their presence shows up
// (redacted), never their value.
const LOGGED_HEADERS = ['user-agent', 'referer', 'x-forwarded-for', 'authorization', 'cookie'];

function pick(headers: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (headers[key] !== undefined) out[key] = headers[key];
  return out;
}

export type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined> & {
  stream?: DestinationStream;
};

export function loggerOptions(level: LogLevel, stream?: DestinationStream): LoggerOptions {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      req(request: FastifyRequest) {
        return {
          method: request.method,
          url: request.url,
          remoteAddress: request.ip,
          headers: pick(request.headers, LOGGED_HEADERS),
        };
      },
    },
    ...(stream ? { stream } : {}),
  };
}
