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

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
/** Files of the built SPA: at info, a terminal shows no line for them (they come by the dozen per page). */
const STATIC_FILE =
  /^\/(assets\/|favicon\.|robots\.txt|manifest\.|[^/?]+\.(?:js|css|png|svg|ico|webp|woff2?|map)(?:\?|$))/;
const OMITTED = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'name']);

/** One pino JSON record as a line for a person: time, level, what happened. */
export function readableLine(record: Record<string, unknown>): string | null {
  const level = typeof record.level === 'number' ? record.level : 30;
  const time = new Date(typeof record.time === 'number' ? record.time : Date.now()).toTimeString().slice(0, 8);
  const tag = (LEVEL_NAMES[level] ?? String(level)).padEnd(5);
  const from = typeof record.name === 'string' ? `[${record.name}] ` : '';
  if (record.msg === 'request' && typeof record.url === 'string') {
    if (level <= 30 && STATIC_FILE.test(record.url) && Number(record.status) < 400) return null;
    const extra = ['refused', 'upstream', 'upstreamReason', 'reason']
      .filter((k) => record[k] !== undefined)
      .map((k) => `${k}=${String(record[k])}`);
    return [
      time,
      tag,
      `${from}${String(record.method)} ${record.url} ${String(record.status)} ${String(record.ms)}ms`,
      ...extra,
    ].join(' ');
  }
  // An Error as pino serialises it (its stack, else its message); any other `err` (a reason
  // given as a string) stays a field like the others.
  const err = typeof record.err === 'object' ? (record.err as { message?: string; stack?: string } | null) : null;
  const fields = Object.entries(record)
    .filter(([k, v]) => !OMITTED.has(k) && !(k === 'err' && err) && v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  const line = [time, tag, `${from}${String(record.msg ?? '')}`, ...fields].join(' ');
  return err?.stack ? `${line}\n${err.stack}` : err?.message ? `${line} error=${err.message}` : line;
}

/** A pino destination writing readable lines (LOG_FORMAT=text) to `out`. */
export function textLogStream(out: NodeJS.WritableStream = process.stdout): DestinationStream {
  return {
    write(chunk: string) {
      for (const json of chunk.split('\n')) {
        if (!json.trim()) continue;
        let record: Record<string, unknown>;
        try {
          record = JSON.parse(json) as Record<string, unknown>;
        } catch {
          out.write(`${json}\n`);
          continue;
        }
        const line = readableLine(record);
        if (line !== null) out.write(`${line}\n`);
      }
    },
  };
}
