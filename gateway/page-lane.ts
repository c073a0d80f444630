// Kept visitors' answers, answered before Fastify: visitors' pages (plugins/spa.ts) and their
// public API reads (plugins/public-reads.ts). A visitor's page is made once and kept as bytes;
// answering it again through Fastify's request path (routing, hooks, the page guard, the
// reply) cost twice the page's own write, and a public read's trip through the gateway and the
// backend costs many times its bytes. The lane answers such a request on the node:http server
// itself, with the status and headers Fastify sent the first time, a request id of its own and
// the same access line. It answers only what a keeper kept and still holds current; anything
// else, or anything it is not sure of, is Fastify's (each keeper's key function decides, see
// `install`).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { RequestTurns, serverByTurns, type ServerTimeouts } from '../backend/platform/turns';

/**
 * What the lane does with a kept answer at a moment: `answer` it; `pass` this one request to
 * Fastify, which makes its successor, and keep answering it to the others meanwhile; or `drop`
 * it, once Fastify would answer something else (the page expired, its data changed).
 */
export type KeptState = 'answer' | 'pass' | 'drop';

export interface KeptAnswer {
  status: number;
  /** `[name, value, …]` as Fastify sent them, without the request id */
  headers: readonly string[];
  body: Buffer;
  state(now: number): KeptState;
}

/** Called after each answer of the lane: its access line. */
export type LaneAnswered = (
  request: IncomingMessage,
  answer: { id: string; status: number; ms: number; bytes: number },
) => void;

export class PageLane {
  /** The keepers' key functions, asked in turn; their keys must not overlap. */
  private readonly keyers: ((request: IncomingMessage) => string | undefined)[] = [];
  private readonly answers = new Map<string, KeptAnswer>();
  private readonly listeners: LaneAnswered[] = [];
  private open = true;

  /** The bytes of the bodies kept. */
  private bytes = 0;

  /** When the server starts each request, the lane's and Fastify's alike (backend/platform/turns.ts). */
  private readonly turns = new RequestTurns();

  /** At most `maxAnswers` answers and `maxBytes` bytes of their bodies (the oldest out first). */
  constructor(
    private readonly maxAnswers: number,
    private readonly maxBytes = Number.POSITIVE_INFINITY,
  ) {}

  private drop(key: string): void {
    const kept = this.answers.get(key);
    if (kept === undefined) return;
    this.bytes -= kept.body.byteLength;
    this.answers.delete(key);
  }

  /**
   * A keeper's key for a request: undefined when the request is not one it keeps answers for.
   * Each keeper's keys start with a prefix of its own, so that two keepers never share one.
   */
  install(keyOf: (request: IncomingMessage) => string | undefined): void {
    this.keyers.push(keyOf);
  }

  private keyOf(request: IncomingMessage): string | undefined {
    for (const keyer of this.keyers) {
      const key = keyer(request);
      if (key !== undefined) return key;
    }
    return undefined;
  }

  /** Adds a listener of the lane's answers (the access log, the metrics); undefined adds none. */
  onAnswer(answered: LaneAnswered | undefined): void {
    if (answered) this.listeners.push(answered);
  }

  keep(key: string, answer: KeptAnswer): void {
    if (!this.open) return;
    this.drop(key);
    this.answers.set(key, answer);
    this.bytes += answer.body.byteLength;
    while (this.answers.size > this.maxAnswers || (this.bytes > this.maxBytes && this.answers.size > 1))
      this.drop(this.answers.keys().next().value as string);
  }

  /** From now on every request is Fastify's (closing: it answers 503 and closes connections). */
  close(): void {
    this.open = false;
    this.answers.clear();
    this.bytes = 0;
  }

  /** true when the request was answered here. */
  answer(request: IncomingMessage, response: ServerResponse): boolean {
    if (!this.open || this.answers.size === 0 || request.method !== 'GET') return false;
    // A GET with a body is left to Fastify, which reads (or refuses) it.
    const { headers } = request;
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
    const key = this.keyOf(request);
    if (key === undefined) return false;
    const kept = this.answers.get(key);
    if (kept === undefined) return false;
    const state = kept.state(Date.now());
    if (state !== 'answer') {
      if (state === 'drop') this.drop(key);
      return false;
    }
    const started = this.listeners.length > 0 ? performance.now() : 0;
    const id = randomUUID();
    const socket = request.socket;
    const before = socket.bytesWritten;
    response.writeHead(kept.status, [...kept.headers, 'x-request-id', id]);
    response.end(kept.body);
    if (this.listeners.length > 0) {
      const answer = {
        id,
        status: kept.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        bytes: socket.bytesWritten - before,
      };
      for (const listener of this.listeners) listener(request, answer);
    }
    return true;
  }

  /** Fastify's `serverFactory`: the server Fastify would make, with the lane in front, each request started by `turns`. */
  readonly serverFactory = (
    handler: (request: IncomingMessage, response: ServerResponse) => void,
    options: ServerTimeouts,
  ): Server => {
    const serve = (request: IncomingMessage, response: ServerResponse) => {
      if (!this.answer(request, response)) handler(request, response);
    };
    return serverByTurns(serve, options, this.turns);
  };
}
