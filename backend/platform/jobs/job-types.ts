// What modules use of the job queue (job-queue.ts): job kinds, jobs, handlers and their
// context, the options, and the errors a handler throws or sees as its signal's reason.
import type { Kysely } from 'kysely';
import { isDatabaseUnavailable, type Database } from '../../db';
import { BlobStoreUnavailableError } from '../blobs/blob-store';
import type { Notifications } from '../../db/notifications';
import type { DB, JobState } from '../../db/schema';

export type { JobState };

/** A job kind and the type of its payload; declare one per kind next to its handler. */
export interface JobKind<P> {
  readonly name: string;
  /** Type only: never set. */
  readonly payloadType?: P;
}

export function jobKind<P>(name: string): JobKind<P> {
  if (!/^[a-z][a-z0-9_.-]*$/.test(name))
    throw new TypeError(`job kind "${name}": lower-case letters, digits, dots, dashes, underscores`);
  return { name };
}

export interface Job<P = unknown> {
  id: number;
  kind: string;
  payload: P;
  state: JobState;
  /** Attempts started so far (the one running included). */
  attempts: number;
  maxAttempts: number;
  /** Not claimed before this time (ISO 8601). */
  runAfter: string;
  leaseOwner: string | null;
  leaseExpiresAt: string | null;
  /** Message of the last failed attempt ('' when none failed). */
  lastError: string;
  /** The last value the handler passed to reportProgress, or null. */
  progress: unknown;
  dedupeKey: string | null;
  /** Whose job it is (EnqueueOptions.fairKey), or null. */
  fairKey: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

export interface JobContext {
  jobId: number;
  /** 1 for the first attempt. */
  attempt: number;
  /** Aborted on timeout, on shutdown and when the lease was lost; `reason` says which. */
  signal: AbortSignal;
  /** Stores a JSON value the uploader or the admin can watch (`get(id).progress`). */
  reportProgress(progress: unknown): Promise<void>;
}

export type JobHandler<P> = (payload: P, context: JobContext) => Promise<void> | void;

export interface JobKindOptions {
  /** Jobs of this kind running at once in this queue (default 1). */
  concurrency?: number;
  /** Time limit of one attempt (default 10 minutes): the signal is aborted and the attempt fails. */
  timeoutMs?: number;
  /** Default attempts for jobs of this kind enqueued by this queue (default 3). */
  maxAttempts?: number;
  /** Delay before the next attempt after failed attempt `attempt` (1-based); default 1 s, 2 s, 4 s… up to 10 min. */
  backoff?: (attempt: number) => number;
}

export interface EnqueueOptions {
  /** Due at this time (a time of the schedule, such as the next hour); default: now. */
  runAfter?: Date;
  /**
   * Due this many milliseconds after the database's now, not this process's: a wait (a timeout,
   * a retention) holds on a machine whose clock is off. Not with runAfter.
   */
  delayMs?: number;
  /** While a job with this key is queued or running, enqueue returns that job instead. */
  dedupeKey?: string;
  /**
   * With dedupeKey: when the job holding the key is running (it may have read its work
   * already), it runs once more after this attempt ends well, instead of the request being lost.
   */
  again?: boolean;
  maxAttempts?: number;
  /**
   * Whose job it is (a conversion's uploader), so that one owner's many jobs do not hold every
   * slot: a claim takes first the jobs whose key has the fewest jobs of the kind running in any
   * process (oldest first among equals). A job without a key counts as one with none running.
   */
  fairKey?: string;
  /** A transaction of the caller, so that the job exists only if the caller's writes commit. */
  executor?: Kysely<DB>;
}

export interface JobListFilter {
  kind?: string;
  state?: JobState | readonly JobState[];
  dedupeKey?: string;
  /** Newest first; default 50, at most 500. */
  limit?: number;
  /** Paging: jobs with a smaller id than this. */
  beforeId?: number;
}

/** The subset of pino's (and Fastify's) logger the queue writes to. */
export interface JobLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface JobQueueOptions {
  db: Database;
  logger?: JobLogger;
  /**
   * Idle wait between claims (default 1000 ms); enqueue in this process wakes the queue at
   * once, and with `notifications` an enqueue in any process does.
   */
  pollIntervalMs?: number;
  /**
   * PostgreSQL: the process's LISTEN connection. Each enqueue NOTIFYs in its transaction, and
   * a queue that runs the kind claims as soon as it is told (the poll stays as the fallback).
   */
  notifications?: Notifications;
  /** How long a claim holds a job without renewal (default 30 s); renewed every third of it. */
  leaseMs?: number;
  /** How long stop() waits for running handlers before aborting them (default 10 s). */
  stopGraceMs?: number;
  /**
   * The shortest wait before a job whose attempt met an outage (isOutage) runs again (default
   * 30 s: each try is a warn line, for as long as the outage lasts).
   */
  outageRetryMs?: number;
}

/** Thrown by a handler for a failure that retrying cannot fix: the job fails at once. */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

/**
 * A failure that says nothing of the job: a service it needs (the S3 bucket, PostgreSQL) did
 * not answer. Such an attempt is not counted: the job waits and runs again, as often as it
 * takes, so that an outage longer than its backoffs does not fail the job for good (an upload
 * acknowledged before the bucket went away, converted once it is back).
 */
export function isOutage(error: unknown): boolean {
  return error instanceof BlobStoreUnavailableError || isDatabaseUnavailable(error);
}

/** The signal's reason when an attempt ran out of time. */
export class JobTimeoutError extends Error {
  override name = 'JobTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`任务超时（${timeoutMs} 毫秒）`);
  }
}

/** The signal's reason when this process gives up a job it cannot finish (shutdown, lease lost). */
export class JobInterruptedError extends Error {
  override name = 'JobInterruptedError';
  constructor(readonly reason: 'shutdown' | 'lease-lost') {
    super(reason === 'shutdown' ? '进程关闭，任务已中断' : '任务租约已失效，任务已中断');
  }
}
