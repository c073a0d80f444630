// How many requests a server starts per turn of the event loop (the gateway's and the
// standalone backend's, through `serverByTurns`). Node (libuv 1.45 and later)
// accepts one new connection per turn, and a turn does the work of every socket that was
// readable at its start: with 100 busy keep-alive connections to a member's document page
// (~3.4 ms each) a turn took about 340 ms, so of 100 connections opened at once the last waited
// 7–8 s for its first answer while the others got theirs in 0.3 s. Requests beyond the turn's
// allowance wait in arrival order and are started in later turns: a turn stays near its target
// and a new connection is accepted within a few of them. The allowance follows the work the
// turns really do (the event loop's active time, which counts what a request does after its
// start, its awaits and its callbacks, too): halved after a turn past the target, raised while
// requests wait and turns stay under it. A loop that waits on I/O keeps a large allowance, so
// only a busy process holds requests back.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

/** The work one turn should do at most, in milliseconds. */
export const TURN_TARGET_MS = 5;

const MAX_ALLOWANCE = 1024;

export class RequestTurns {
  private readonly waiting: (() => void)[] = [];
  /** requests a turn may start */
  private allowance = 32;
  /** requests started since the last drain */
  private started = 0;
  private drainScheduled = false;
  private loopUse: EventLoopUtilization | undefined;

  constructor(private readonly targetMs: number = TURN_TARGET_MS) {}

  /** Starts `start` now, or in a later turn after the requests that came before it. */
  admit(start: () => void): void {
    this.scheduleDrain(true);
    if (this.waiting.length === 0 && this.started < this.allowance) {
      this.started += 1;
      return start();
    }
    this.waiting.push(start);
  }

  /** Requests waiting for a turn. */
  get backlog(): number {
    return this.waiting.length;
  }

  /** Requests one turn may start now. */
  get perTurn(): number {
    return this.allowance;
  }

  /** `fresh`: the first request since the loop was idle, where the turn's work is measured from. */
  private scheduleDrain(fresh: boolean): void {
    if (this.drainScheduled) return;
    this.drainScheduled = true;
    if (fresh) this.loopUse = performance.eventLoopUtilization();
    setImmediate(this.drain);
  }

  /** Once per turn with requests, after its I/O: adapts the allowance, then starts waiting requests within it. */
  private readonly drain = (): void => {
    this.drainScheduled = false;
    const use = performance.eventLoopUtilization();
    const activeMs = use.active - (this.loopUse?.active ?? use.active);
    this.loopUse = use;
    if (activeMs > this.targetMs) this.allowance = Math.max(1, Math.floor(this.allowance / 2));
    else if (this.waiting.length > 0)
      this.allowance = Math.min(MAX_ALLOWANCE, activeMs < this.targetMs / 2 ? this.allowance * 2 : this.allowance + 1);
    this.started = 0;
    if (this.waiting.length > 0) this.scheduleDrain(false);
    let next: (() => void) | undefined;
    while (this.started < this.allowance && (next = this.waiting.shift())) {
      this.started += 1;
      next();
    }
  };
}

/** Fastify's server options that a server made by `serverByTurns` takes over. */
export interface ServerTimeouts {
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
}

/**
 * For Fastify's `serverFactory`: the server Fastify would make (with its timeouts), each request
 * started by `turns`.
 */
export function serverByTurns(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
  options: ServerTimeouts,
  turns: RequestTurns = new RequestTurns(),
): Server {
  const server = createServer((request, response) => turns.admit(() => handler(request, response)));
  // As Fastify sets up the server it makes itself (fastify/lib/server.js).
  if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
  if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
  if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
  if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
  return server;
}

/**
 * Waits for the next turn of the event loop. A long job calls it between its batches: on SQLite
 * its queries settle without I/O, so a loop of them alone never lets the loop turn, and the
 * requests (or, at start, the port's opening) waited for the whole job.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
