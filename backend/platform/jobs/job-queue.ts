import crypto from 'node:crypto';
import os from 'node:os';
import { sql, type Expression, type ExpressionBuilder, type Kysely, type Selectable, type SqlBool } from 'kysely';
import { isDatabaseUnavailable, type Database } from '../../db';
import { databaseNow, engineOf, lockKeys } from '../../db/dialect';
import { CHANNELS, notify, type Notifications } from '../../db/notifications';
import type { DB, JobState, JobTable } from '../../db/schema';
import {
  isOutage,
  JobInterruptedError,
  JobTimeoutError,
  PermanentJobError,
  type EnqueueOptions,
  type Job,
  type JobContext,
  type JobHandler,
  type JobKind,
  type JobKindOptions,
  type JobListFilter,
  type JobLogger,
  type JobQueueOptions,
} from './job-types';

// A durable job queue in the `job` table (migration 004). Work that outlives a request
// (conversion, clean-up, order expiry) is enqueued here and run by whichever process claims
// it: a claim is one atomic UPDATE that takes a lease, a running job renews its lease, and a
// job whose lease expired (its process died) is claimed again. Handlers therefore run at
// least once, and a job's state changes only under the lease that ran it. On PostgreSQL an
// enqueue NOTIFYs at its commit, and the queues of every process that run its kind claim at
// once instead of at their next poll. Jobs carry an optional fair key (whose they are: a
// conversion's uploader); a claim takes first the due jobs whose key has the fewest jobs of the
// kind running, counted in the table and so across processes, then the oldest.

export * from './job-types';

type JobRow = Selectable<JobTable>;

interface Worker {
  kind: string;
  handler: JobHandler<unknown>;
  concurrency: number;
  timeoutMs: number;
  maxAttempts: number;
  backoff: (attempt: number) => number;
  active: Set<ActiveJob>;
}

interface ActiveJob {
  row: JobRow;
  /** The lease token of this claim: every write about the job is guarded by it. */
  owner: string;
  controller: AbortController;
  /** running → recorded (its outcome is written) or abandoned (the lease is left to expire). */
  phase: 'running' | 'recorded' | 'abandoned';
  renewTimer?: NodeJS.Timeout;
  timeoutTimer?: NodeJS.Timeout;
  settled?: Promise<void>;
  /** A write about it (its lease, its progress) met the database away, and none succeeded since. */
  databaseAway?: boolean;
}

type Outcome = { ok: true } | { ok: false; error: unknown };

const DEFAULTS = {
  concurrency: 1,
  timeoutMs: 10 * 60_000,
  maxAttempts: 3,
  pollIntervalMs: 1000,
  leaseMs: 30_000,
  stopGraceMs: 10_000,
  outageRetryMs: 30_000,
};
const MAX_TIMER_MS = 2 ** 31 - 1;
/** After the grace period, how long stop() gives aborted handlers to return. */
const ABORT_WAIT_MS = 1000;
const MAX_ERROR_LENGTH = 2000;
/** Inserts tried when each conflict's holder is gone by the time it is looked for. */
const ENQUEUE_TRIES = 3;
const ALL_STATES: readonly JobState[] = ['queued', 'running', 'done', 'failed'];

export const defaultBackoff = (attempt: number): number => Math.min(1000 * 2 ** (attempt - 1), 10 * 60_000);

const silentInfo = () => undefined;
const consoleLogger: JobLogger = {
  info: silentInfo,
  warn: (obj, msg) => console.warn(msg, obj),
  error: (obj, msg) => console.error(msg, obj),
};

export class JobQueue {
  private readonly db: Database;
  private readonly log: JobLogger;
  private readonly pollIntervalMs: number;
  private readonly leaseMs: number;
  private readonly stopGraceMs: number;
  private readonly outageRetryMs: number;
  /** Identifies this queue in lease_owner: host, pid and a random part. */
  readonly id = `${os.hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
  private readonly workers = new Map<string, Worker>();
  private readonly active = new Set<ActiveJob>();
  private state: 'idle' | 'started' | 'stopping' = 'idle';
  private stopping: Promise<void> | null = null;
  private claimCount = 0;
  private ticking: Promise<void> | null = null;
  private wakeAgain = false;
  private pollTimer: NodeJS.Timeout | undefined;
  /** Since when claims fail because the database is away (said once, not once per kind and poll), or undefined. */
  private databaseAwaySince: number | undefined;
  private readonly notifications: Notifications | undefined;
  /** Resolves to the unsubscription once this queue hears enqueues of other processes. */
  private subscription: Promise<() => void> | null = null;

  constructor(opts: JobQueueOptions) {
    this.db = opts.db;
    this.notifications = opts.notifications;
    this.log = opts.logger ?? consoleLogger;
    this.pollIntervalMs = positiveMs(opts.pollIntervalMs ?? DEFAULTS.pollIntervalMs, 'pollIntervalMs');
    this.leaseMs = positiveMs(opts.leaseMs ?? DEFAULTS.leaseMs, 'leaseMs');
    this.stopGraceMs = positiveMs(opts.stopGraceMs ?? DEFAULTS.stopGraceMs, 'stopGraceMs', true);
    this.outageRetryMs = positiveMs(opts.outageRetryMs ?? DEFAULTS.outageRetryMs, 'outageRetryMs', true);
  }

  /** Runs jobs of `kind` in this process; may be called before or after start(). */
  register<P>(kind: JobKind<P>, handler: JobHandler<P>, opts: JobKindOptions = {}): void {
    if (this.workers.has(kind.name)) throw new Error(`job kind "${kind.name}" is already registered`);
    const concurrency = opts.concurrency ?? DEFAULTS.concurrency;
    const maxAttempts = opts.maxAttempts ?? DEFAULTS.maxAttempts;
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new RangeError(`concurrency of "${kind.name}" must be a positive integer`);
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1)
      throw new RangeError(`maxAttempts of "${kind.name}" must be a positive integer`);
    this.workers.set(kind.name, {
      kind: kind.name,
      handler: handler as JobHandler<unknown>,
      concurrency,
      timeoutMs: positiveMs(opts.timeoutMs ?? DEFAULTS.timeoutMs, 'timeoutMs'),
      maxAttempts,
      backoff: opts.backoff ?? defaultBackoff,
      active: new Set(),
    });
    this.wake();
  }

  /**
   * Adds a job (any kind: the process that runs it may be another one). With a dedupeKey
   * that a queued or running job holds, returns that job and adds nothing.
   */
  async enqueue<P>(kind: JobKind<P>, payload: NoInfer<P>, opts: EnqueueOptions = {}): Promise<Job<P>> {
    const maxAttempts = opts.maxAttempts ?? this.workers.get(kind.name)?.maxAttempts ?? DEFAULTS.maxAttempts;
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1)
      throw new RangeError('maxAttempts must be a positive integer');
    const { delayMs } = opts;
    if (delayMs !== undefined && (opts.runAfter !== undefined || !Number.isFinite(delayMs) || delayMs < 0))
      throw new RangeError('delayMs must be a non-negative number of milliseconds, and not given with runAfter');
    const insert = async (executor: Kysely<DB>): Promise<{ row: JobRow; inserted: boolean } | undefined> => {
      const now = await databaseNow(executor);
      const ts = now.toISOString();
      const inserted = await executor
        .insertInto('job')
        .values({
          kind: kind.name,
          payload: JSON.stringify(payload ?? null),
          max_attempts: maxAttempts,
          run_after: (opts.runAfter ?? new Date(now.getTime() + (delayMs ?? 0))).toISOString(),
          lease_owner: null,
          lease_expires_at: null,
          progress: null,
          dedupe_key: opts.dedupeKey ?? null,
          fair_key: opts.fairKey ?? null,
          created_at: ts,
          updated_at: ts,
          finished_at: null,
        })
        .onConflict((oc) => oc.doNothing())
        .returningAll()
        .executeTakeFirst();
      if (inserted) return { row: inserted, inserted: true };
      // The only unique constraint an insert can hit is job_dedupe: answer with its holder.
      const holder =
        opts.dedupeKey === undefined
          ? undefined
          : await executor
              .selectFrom('job')
              .selectAll()
              .where('dedupe_key', '=', opts.dedupeKey)
              .where('state', 'in', ['queued', 'running'])
              .executeTakeFirst();
      return holder && { row: holder, inserted: false };
    };
    const enqueueIn = async (executor: Kysely<DB>): Promise<JobRow> => {
      // Another process may finish the holder between the conflict and the look for it, or
      // between the look and the mark below: then the key is free again, and a new insert takes it.
      for (let tries = 0; tries < ENQUEUE_TRIES; tries++) {
        const outcome = await insert(executor);
        if (!outcome) continue;
        const { row, inserted } = outcome;
        // Delivered when the transaction commits: before that no claimer could see the row.
        if (inserted) await notify(executor, CHANNELS.jobs, kind.name);
        if (inserted || !opts.again) return row;
        // Asked for again: a running holder may have read what the caller changes, so it runs
        // once more after this attempt. A queued one is only locked: claimers skip it until the
        // caller's transaction ends, so that its run reads what the caller wrote.
        const marked = await executor
          .updateTable('job')
          .set({ rerun: sql<number>`CASE WHEN state = 'running' THEN 1 ELSE rerun END` })
          .where('id', '=', row.id)
          .where('state', 'in', ['queued', 'running'])
          .executeTakeFirst();
        if (marked.numUpdatedRows > 0n) return row;
      }
      throw new Error(`enqueue of "${kind.name}" found its dedupe key held by no job ${ENQUEUE_TRIES} times`);
    };
    const row = opts.executor ? await enqueueIn(opts.executor) : await this.db.transaction().execute(enqueueIn);
    if (this.workers.has(kind.name)) this.wake();
    return toJob(row) as Job<P>;
  }

  /** Starts claiming jobs of the registered kinds. */
  start(): void {
    if (this.state !== 'idle') return;
    this.state = 'started';
    if (this.notifications) {
      this.subscription = this.notifications
        .subscribe(CHANNELS.jobs, {
          onNotify: (kind) => {
            if (this.workers.has(kind)) this.wake();
          },
          // Enqueues made while the connection was down were not heard: look now.
          onReconnect: () => this.wake(),
        })
        .catch((error: unknown) => {
          this.log.error({ err: error }, 'listening for enqueued jobs failed; polling only');
          return () => undefined;
        });
    }
    this.wake();
  }

  /** Resolves once an enqueue in another process wakes this started queue (at once without notifications). */
  async listening(): Promise<void> {
    await this.subscription;
  }

  /**
   * Stops claiming, waits up to `graceMs` for running handlers, then aborts the rest. Those
   * whose handler returned on the abort are given back at once, the attempt not counted; the
   * leases of the others expire and another start takes them up again. Safe to call twice.
   */
  async stop(opts: { graceMs?: number } = {}): Promise<void> {
    if (this.state === 'stopping') return this.stopping!;
    if (this.state !== 'started') return;
    this.state = 'stopping';
    this.stopping = this.drain(opts.graceMs ?? this.stopGraceMs).finally(() => {
      this.state = 'idle';
      this.stopping = null;
    });
    return this.stopping;
  }

  private async drain(graceMs: number): Promise<void> {
    clearTimeout(this.pollTimer);
    this.pollTimer = undefined;
    const unsubscribe = await this.subscription;
    this.subscription = null;
    unsubscribe?.();
    await this.ticking;
    const running = () => [...this.active].map((job) => job.settled);
    if (!(await settledWithin(running(), graceMs))) {
      const interrupted = [...this.active];
      for (const job of interrupted) this.abandon(job, new JobInterruptedError('shutdown'));
      if (!(await settledWithin(running(), ABORT_WAIT_MS))) {
        this.log.warn(
          { jobs: [...this.active].map((job) => job.row.id) },
          'job handlers did not return after abort; their leases will expire',
        );
      }
      await Promise.all(interrupted.filter((job) => !this.active.has(job)).map((job) => this.giveBack(job)));
    }
  }

  /**
   * A job stopped by this process's shutdown, its handler returned: queued again now rather than
   * when its lease expires, and the attempt it was in not counted. Without it each restart of a
   * worker (a deployment) kept a long conversion waiting JOB_LEASE_MS and used up one of its
   * attempts: after three, the document failed for good.
   */
  private async giveBack(job: ActiveJob): Promise<void> {
    try {
      const ts = (await databaseNow(this.db)).toISOString();
      await this.db
        .updateTable('job')
        .set((eb) => ({
          state: 'queued',
          attempts: eb('attempts', '-', 1),
          lease_owner: null,
          lease_expires_at: null,
          run_after: ts,
          updated_at: ts,
        }))
        .where('id', '=', job.row.id)
        .where('lease_owner', '=', job.owner)
        .where('state', '=', 'running')
        .execute();
    } catch (error) {
      this.log.warn(
        { job: job.row.id, reason: (error as Error).message },
        'giving back an interrupted job failed; it runs again when its lease expires',
      );
    }
  }

  async get(id: number): Promise<Job | null> {
    const row = await this.db.selectFrom('job').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toJob(row) : null;
  }

  async list(filter: JobListFilter = {}): Promise<Job[]> {
    let query = this.db
      .selectFrom('job')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(Math.min(Math.max(filter.limit ?? 50, 1), 500));
    if (filter.kind !== undefined) query = query.where('kind', '=', filter.kind);
    if (filter.state !== undefined)
      query = query.where('state', 'in', typeof filter.state === 'string' ? [filter.state] : [...filter.state]);
    if (filter.dedupeKey !== undefined) query = query.where('dedupe_key', '=', filter.dedupeKey);
    if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
    return (await query.execute()).map(toJob);
  }

  /** Jobs per state, of one kind or of all. */
  async counts(kind?: string): Promise<Record<JobState, number>> {
    let query = this.db
      .selectFrom('job')
      .select((eb) => ['state', eb.fn.countAll<number>().as('n')])
      .groupBy('state');
    if (kind !== undefined) query = query.where('kind', '=', kind);
    const counts = Object.fromEntries(ALL_STATES.map((state) => [state, 0])) as Record<JobState, number>;
    for (const row of await query.execute()) counts[row.state] = Number(row.n);
    return counts;
  }

  /** Deletes done and failed jobs that finished before `finishedBefore`; returns how many. */
  async prune(finishedBefore: Date, kind?: string): Promise<number> {
    let query = this.db
      .deleteFrom('job')
      .where('state', 'in', ['done', 'failed'])
      .where('finished_at', '<', finishedBefore.toISOString());
    if (kind !== undefined) query = query.where('kind', '=', kind);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Claims what the free slots allow now; runs again after the poll interval or a wake-up. */
  private wake(): void {
    if (this.state !== 'started') return;
    if (this.ticking) {
      this.wakeAgain = true;
      return;
    }
    clearTimeout(this.pollTimer);
    this.pollTimer = undefined;
    this.ticking = this.claimForFreeSlots().finally(() => {
      this.ticking = null;
      if (this.state !== 'started') return;
      if (this.wakeAgain) {
        this.wakeAgain = false;
        this.wake();
      } else {
        this.pollTimer = setTimeout(() => this.wake(), this.pollIntervalMs);
      }
    });
  }

  /**
   * While the database is away every claim fails alike: the round stops at the first such failure and
   * it is said once, at warn, until a claim gets an answer again (the queue keeps trying each poll
   * interval, so it claims again within one of the database's return). Other failures are each an error.
   */
  private async claimForFreeSlots(): Promise<void> {
    for (const worker of this.workers.values()) {
      while (this.state === 'started' && worker.active.size < worker.concurrency) {
        let row: JobRow | undefined;
        try {
          row = await this.claim(worker.kind);
        } catch (error) {
          if (!isDatabaseUnavailable(error)) {
            this.log.error({ err: error, kind: worker.kind }, 'claiming a job failed');
            break;
          }
          if (this.databaseAwaySince === undefined) {
            this.databaseAwaySince = Date.now();
            this.log.warn(
              { reason: (error as Error).message || (error as { code?: string }).code },
              'database unavailable: claiming jobs paused until it answers',
            );
          }
          return;
        }
        if (this.databaseAwaySince !== undefined) {
          this.log.info({ awayMs: Date.now() - this.databaseAwaySince }, 'database back: claiming jobs again');
          this.databaseAwaySince = undefined;
        }
        if (!row) break;
        this.launch(worker, row);
      }
    }
  }

  /**
   * One statement picks a due job of `kind` (queued, or running with an expired lease) and
   * leases it: of those whose fair key has the fewest jobs of the kind under a live lease (a
   * job without a key counts none), the oldest. Concurrent claimers (other processes on the
   * same file) are serialised by SQLite's write lock, and the outer WHERE re-checks the row.
   * On PostgreSQL the claims of a kind take turns on an advisory lock held until their
   * transaction commits (other connections of the pool, other processes): under READ COMMITTED
   * the next claim's statement then sees the lease the last one wrote, so two claims at the same
   * instant never start two jobs of one key while another key waits. The subquery also takes
   * the row with `FOR UPDATE SKIP LOCKED`, passing over a row another statement holds.
   */
  private async claim(kind: string): Promise<JobRow | undefined> {
    if (engineOf(this.db) === 'sqlite') return this.claimIn(this.db, kind);
    return this.db.transaction().execute(async (trx) => {
      await lockKeys(trx, [`job-claim:${kind}`]);
      return this.claimIn(trx, kind);
    });
  }

  private async claimIn(db: Kysely<DB>, kind: string): Promise<JobRow | undefined> {
    // The database's clock, not this machine's: another machine's lease is live until its
    // lease_expires_at by the clock that wrote it, however far apart the machines' clocks drift.
    const now = await databaseNow(db);
    const ts = now.toISOString();
    this.claimCount += 1;
    const owner = `${this.id}#${this.claimCount}`;
    const claimable = (eb: ExpressionBuilder<DB, 'job'>): Expression<SqlBool> =>
      eb.and([
        eb('kind', '=', kind),
        eb.or([
          eb.and([eb('state', '=', 'queued'), eb('run_after', '<=', ts)]),
          eb.and([eb('state', '=', 'running'), eb('lease_expires_at', '<=', ts)]),
        ]),
      ]);
    // The keys with jobs under a live lease, counted once (as many rows as running jobs at most).
    const leased = db
      .selectFrom('job')
      .select((eb) => ['fair_key', eb.fn.countAll<number>().as('running')])
      .where('kind', '=', kind)
      .where('state', '=', 'running')
      .where('lease_expires_at', '>', ts)
      .where('fair_key', 'is not', null)
      .groupBy('fair_key')
      .as('leased');
    const fairest = db
      .selectFrom('job')
      .leftJoin(leased, 'leased.fair_key', 'job.fair_key')
      .select('job.id')
      .where(claimable)
      // A job without a key, or whose key runs nothing, counts 0.
      .orderBy((eb) => eb.fn.coalesce('leased.running', sql.lit(0)))
      .orderBy('job.run_after')
      .orderBy('job.id')
      .limit(1);
    // Only the job rows are locked: the counts are not rows to lock.
    const next = engineOf(db) === 'postgres' ? fairest.forUpdate('job').skipLocked() : fairest;
    return db
      .updateTable('job')
      .set((eb) => ({
        state: 'running',
        attempts: eb('attempts', '+', 1),
        lease_owner: owner,
        lease_expires_at: new Date(now.getTime() + this.leaseMs).toISOString(),
        updated_at: ts,
      }))
      .where('id', '=', next)
      .where(claimable)
      .returningAll()
      .executeTakeFirst();
  }

  private launch(worker: Worker, row: JobRow): void {
    const job: ActiveJob = { row, owner: row.lease_owner!, controller: new AbortController(), phase: 'running' };
    worker.active.add(job);
    this.active.add(job);
    job.settled = this.execute(worker, job)
      .catch((error: unknown) => this.log.error({ err: error, job: row.id }, 'job bookkeeping failed'))
      .finally(() => {
        clearTimers(job);
        worker.active.delete(job);
        this.active.delete(job);
        this.wake();
      });
  }

  private async execute(worker: Worker, job: ActiveJob): Promise<void> {
    const { row } = job;
    if (row.attempts > row.max_attempts) {
      // Only a job whose lease expired gets here: its last attempt died with its process.
      await this.record(
        job,
        {
          ok: false,
          error: new PermanentJobError(`任务执行中断（处理进程停止或失联），已尝试 ${row.max_attempts} 次`),
        },
        worker,
      );
      return;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(row.payload);
    } catch {
      await this.record(job, { ok: false, error: new PermanentJobError('任务参数不是有效的 JSON') }, worker);
      return;
    }
    job.renewTimer = setInterval(() => void this.renew(job), Math.max(Math.floor(this.leaseMs / 3), 1));
    job.timeoutTimer = setTimeout(() => {
      const timeout = new JobTimeoutError(worker.timeoutMs);
      job.controller.abort(timeout);
      void this.record(job, { ok: false, error: timeout }, worker);
    }, worker.timeoutMs);
    const context: JobContext = {
      jobId: row.id,
      attempt: row.attempts,
      signal: job.controller.signal,
      reportProgress: (progress) => this.reportProgress(job, progress),
    };
    let outcome: Outcome;
    try {
      // Inside the try: a handler that throws synchronously is a failed attempt like any other.
      await worker.handler(payload, context);
      outcome = { ok: true };
    } catch (error) {
      outcome = { ok: false, error };
    }
    await this.record(job, outcome, worker);
  }

  /**
   * Writes the outcome of the attempt once, under its lease; later calls do nothing. Never
   * rejects: if the write fails, the lease expires and the job runs again.
   */
  private async record(job: ActiveJob, outcome: Outcome, worker: Worker): Promise<void> {
    if (job.phase !== 'running') return;
    job.phase = 'recorded';
    clearTimers(job);
    try {
      await this.writeOutcome(job, outcome, worker);
    } catch (error) {
      // The database away (restarted, the connection ended under the job) is no fault of the job's.
      if (isDatabaseUnavailable(error)) {
        this.log.warn(
          { reason: (error as Error).message || (error as { code?: string }).code, job: job.row.id },
          'recording a job outcome failed, the database is unavailable; the job will run again when its lease expires',
        );
      } else {
        this.log.error(
          { err: error, job: job.row.id },
          'recording a job outcome failed; the job will run again when its lease expires',
        );
      }
    }
  }

  private async writeOutcome(job: ActiveJob, outcome: Outcome, worker: Worker): Promise<void> {
    const { row } = job;
    const now = await databaseNow(this.db);
    const ts = now.toISOString();
    const base = this.db
      .updateTable('job')
      .where('id', '=', row.id)
      .where('lease_owner', '=', job.owner)
      .where('state', '=', 'running');
    const released = { lease_owner: null, lease_expires_at: null, updated_at: ts };
    let result;
    if (outcome.ok) {
      // Asked for again while it ran (EnqueueOptions.again): queued at once for a fresh run.
      const again = sql<number>`rerun = 1`;
      result = await base
        .set({
          ...released,
          state: sql<JobState>`CASE WHEN ${again} THEN 'queued' ELSE 'done' END`,
          finished_at: sql<string | null>`CASE WHEN ${again} THEN NULL ELSE ${ts} END`,
          attempts: sql<number>`CASE WHEN ${again} THEN 0 ELSE attempts END`,
          run_after: sql<string>`CASE WHEN ${again} THEN ${ts} ELSE run_after END`,
          progress: sql<string | null>`CASE WHEN ${again} THEN NULL ELSE progress END`,
          rerun: 0,
        })
        .executeTakeFirst();
    } else if (isOutage(outcome.error)) {
      // Not the job's fault: queued again, the attempt not counted (giveBack), after a wait.
      const delay = Math.max(backoffDelay(worker, row.attempts, this.log), this.outageRetryMs);
      this.log.warn(
        { job: row.id, kind: row.kind, retryInMs: delay, reason: errorMessage(outcome.error) },
        'job attempt met an outage; it runs again, the attempt not counted',
      );
      result = await base
        .set((eb) => ({
          ...released,
          state: 'queued',
          attempts: eb('attempts', '-', 1),
          last_error: errorMessage(outcome.error),
          run_after: new Date(now.getTime() + delay).toISOString(),
        }))
        .executeTakeFirst();
    } else {
      const message = errorMessage(outcome.error);
      const final = outcome.error instanceof PermanentJobError || row.attempts >= row.max_attempts;
      if (final) {
        this.log.warn({ job: row.id, kind: row.kind, attempt: row.attempts, err: outcome.error }, 'job failed');
        result = await base
          .set({ ...released, state: 'failed', last_error: message, finished_at: ts })
          .executeTakeFirst();
      } else {
        const delay = backoffDelay(worker, row.attempts, this.log);
        this.log.info(
          { job: row.id, kind: row.kind, attempt: row.attempts, retryInMs: delay, err: outcome.error },
          'job attempt failed',
        );
        result = await base
          .set({
            ...released,
            state: 'queued',
            last_error: message,
            run_after: new Date(now.getTime() + delay).toISOString(),
          })
          .executeTakeFirst();
      }
    }
    if (Number(result.numUpdatedRows) === 0) {
      this.log.warn({ job: row.id, kind: row.kind }, 'job outcome not recorded: its lease had passed to another claim');
    }
  }

  private async renew(job: ActiveJob): Promise<void> {
    if (job.phase !== 'running') return;
    try {
      const now = await databaseNow(this.db);
      const result = await this.db
        .updateTable('job')
        .set({ lease_expires_at: new Date(now.getTime() + this.leaseMs).toISOString(), updated_at: now.toISOString() })
        .where('id', '=', job.row.id)
        .where('lease_owner', '=', job.owner)
        .where('state', '=', 'running')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0 && job.phase === 'running') {
        this.log.warn({ job: job.row.id, kind: job.row.kind }, 'job lease lost; aborting the handler');
        this.abandon(job, new JobInterruptedError('lease-lost'));
      }
      job.databaseAway = false;
    } catch (error) {
      // The job ended while this renewal was on its way: its outcome is written, and the handle may be closed since
      // (a stop at shutdown). Nothing was lost.
      if (job.phase !== 'running') return;
      this.writeAboutJobFailed(job, 'renewing a job lease failed', error);
    }
  }

  /**
   * A write about a running job (its lease renewed, its progress) failed. The database away (a
   * restart, an outage) is one warn line per job until a renewal gets through again, not an error
   * with its stack at every renewal and every progress report; any other failure is an error.
   */
  private writeAboutJobFailed(job: ActiveJob, what: string, error: unknown): void {
    if (!isDatabaseUnavailable(error)) {
      this.log.error({ err: error, job: job.row.id }, what);
      return;
    }
    if (job.databaseAway) return;
    job.databaseAway = true;
    this.log.warn(
      { reason: (error as Error).message || (error as { code?: string }).code, job: job.row.id, kind: job.row.kind },
      'writing about a running job failed, the database is unavailable; the job goes on (it runs again if its lease expires meanwhile)',
    );
  }

  private async reportProgress(job: ActiveJob, progress: unknown): Promise<void> {
    if (job.phase !== 'running') return;
    try {
      const now = await databaseNow(this.db);
      await this.db
        .updateTable('job')
        .set({ progress: JSON.stringify(progress ?? null), updated_at: now.toISOString() })
        .where('id', '=', job.row.id)
        .where('lease_owner', '=', job.owner)
        .where('state', '=', 'running')
        .execute();
    } catch (error) {
      this.writeAboutJobFailed(job, 'storing job progress failed', error);
    }
  }

  /** Gives the job up without recording anything: its lease expires and it is claimed again. */
  private abandon(job: ActiveJob, reason: JobInterruptedError): void {
    if (job.phase !== 'running') return;
    job.phase = 'abandoned';
    clearTimers(job);
    job.controller.abort(reason);
  }
}

function toJob(row: JobRow): Job {
  return {
    id: row.id,
    kind: row.kind,
    payload: parseJson(row.payload),
    state: row.state,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    runAfter: row.run_after,
    leaseOwner: row.lease_owner,
    leaseExpiresAt: row.lease_expires_at,
    lastError: row.last_error,
    progress: row.progress === null ? null : parseJson(row.progress),
    dedupeKey: row.dedupe_key,
    fairKey: row.fair_key,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
  };
}

/** A row written by hand may hold anything: show it as text rather than failing the listing. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function errorMessage(error: unknown): string {
  const message =
    error instanceof Error
      ? error.message || error.name
      : typeof error === 'string'
        ? error
        : (JSON.stringify(error) ?? String(error));
  return message.slice(0, MAX_ERROR_LENGTH);
}

function backoffDelay(worker: Worker, attempt: number, log: JobLogger): number {
  try {
    const delay = worker.backoff(attempt);
    return Number.isFinite(delay) && delay > 0 ? delay : 0;
  } catch (error) {
    log.error({ err: error, kind: worker.kind }, 'job backoff function failed; retrying with the default delay');
    return defaultBackoff(attempt);
  }
}

function clearTimers(job: ActiveJob): void {
  clearInterval(job.renewTimer);
  clearTimeout(job.timeoutTimer);
}

function positiveMs(value: number, name: string, zeroAllowed = false): number {
  if (!Number.isFinite(value) || value < (zeroAllowed ? 0 : 1) || value > MAX_TIMER_MS)
    throw new RangeError(`${name} must be between ${zeroAllowed ? 0 : 1} and ${MAX_TIMER_MS} ms`);
  return value;
}

/** True when every promise settled within `ms`. */
async function settledWithin(promises: readonly (Promise<void> | undefined)[], ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([Promise.allSettled(promises).then(() => true as const), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** What the queue holds now, for an operator (the backend's `/readyz`, docs/operations.md "Health checks"). */
export interface JobBacklog {
  /** Jobs due and not under a live lease: queued past their run_after, or running with a lease run out. */
  waiting: number;
  /** Whole seconds since the oldest of them fell due, by the database's clock; 0 when none waits. */
  oldestWaitingSeconds: number;
  /** Jobs under a live lease. */
  running: number;
  /** Processes holding a live lease: 0 while jobs wait means no worker is taking them. */
  workers: number;
}

/**
 * The backlog of every kind, or of `kind` only (the dashboard's conversions), by the database's
 * clock: two statements over the rows that are queued or running (the job_claim and job_lease
 * indexes), whatever the process runs itself.
 */
export async function jobBacklog(db: Kysely<DB>, kind?: string): Promise<JobBacklog> {
  const now = await databaseNow(db);
  const ts = now.toISOString();
  const dueSince = sql<string | null>`CASE
    WHEN state = 'queued' AND run_after <= ${ts} THEN run_after
    WHEN state = 'running' AND lease_expires_at <= ${ts} THEN lease_expires_at END`;
  const counts = await db
    .selectFrom('job')
    .select([
      sql<number | string | null>`SUM(CASE WHEN ${dueSince} IS NULL THEN 0 ELSE 1 END)`.as('waiting'),
      sql<number | string | null>`SUM(CASE WHEN state = 'running' AND lease_expires_at > ${ts} THEN 1 ELSE 0 END)`.as(
        'running',
      ),
      sql<string | null>`MIN(${dueSince})`.as('oldest'),
    ])
    .where('state', 'in', ['queued', 'running'])
    .$if(kind !== undefined, (query) => query.where('kind', '=', kind!))
    .executeTakeFirstOrThrow();
  const owners = await db
    .selectFrom('job')
    .select('lease_owner')
    .distinct()
    .where('state', '=', 'running')
    .where('lease_expires_at', '>', ts)
    .$if(kind !== undefined, (query) => query.where('kind', '=', kind!))
    .execute();
  // A lease's owner is `<process id>#<claim>`.
  const processes = new Set(owners.map(({ lease_owner }) => (lease_owner ?? '').replace(/#\d+$/, '')));
  return {
    waiting: Number(counts.waiting ?? 0),
    oldestWaitingSeconds: counts.oldest
      ? Math.max(0, Math.floor((now.getTime() - Date.parse(counts.oldest)) / 1000))
      : 0,
    running: Number(counts.running ?? 0),
    workers: processes.size,
  };
}
