import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { openDatabase, openPostgres, type Database } from '../../backend/db';
import { databaseNow } from '../../backend/db/dialect';
import { BlobStoreUnavailableError } from '../../backend/platform/blobs/blob-store';
import { ConfigStore } from '../../backend/platform/config-store';
import { scheduleHotDocuments } from '../../backend/modules/document/hot';
import { purgeExpiredSearchRecords, schedulePurge } from '../../backend/modules/search-record/purge';
import {
  SITEMAP_REFRESH_WINDOW_MS,
  SITEMAP_WATCH_INTERVAL_MS,
  enqueueSitemapWatch,
  scheduleSitemapRefresh,
} from '../../backend/modules/sitemap/refresh';
import {
  JobInterruptedError,
  JobQueue,
  JobTimeoutError,
  PermanentJobError,
  jobBacklog,
  jobKind,
  type Job,
  type JobQueueOptions,
} from '../../backend/platform/jobs/job-queue';
import { LISTENER_APPLICATION_NAME, PostgresNotifications } from '../../backend/db/notifications';
import { threadModule } from '../../backend/platform/thread-modules';
import { bulkKind, crashKind, preciseNow, skewClock, wakeKind } from '../helpers/job-worker';
import { dropDatabase, lockWaiters } from '../helpers/postgres';
import { migratedDatabase, openMigratedSqlite, TEST_ENGINE } from '../helpers/test-database';

// The durable job queue on real SQLite files: in this process, and in child processes that
// are killed mid-job or compete for the same jobs. In the server-postgres project the same
// tests run on a fresh PostgreSQL database each (the child processes too), with the wake-ups
// that LISTEN/NOTIFY carries between processes.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/**
 * The worker processes run an esbuild bundle of job-worker.ts (made once, kept in .tmp/thread-modules/ while its
 * sources stay the same), not the source through tsx: a start 0.3 cpu-s instead of 1.2.
 */
let workerScript: string;
beforeAll(async () => {
  workerScript = fileURLToPath(await threadModule(new URL('../helpers/job-worker.ts', import.meta.url)));
});

let dataDir: string;
let db: Database;
let databaseUrl: string | undefined;
const handles: Database[] = [];
const queues: JobQueue[] = [];
const children: ChildProcess[] = [];
const listeners: PostgresNotifications[] = [];
let loggedErrors: string[];

/** A handle on the test's database: SQLite in dataDir, or its PostgreSQL database with a pool of its own. */
async function openTestDatabase(): Promise<Database> {
  let opened: Database;
  if (TEST_ENGINE === 'sqlite') {
    // the first in dataDir a copy of a migrated file, the others on it
    const first = !fs.existsSync(path.join(dataDir, 'moredoc.db'));
    opened = (await (first ? openMigratedSqlite(dataDir) : openDatabase(dataDir))).db;
  } else {
    databaseUrl ??= await migratedDatabase();
    opened = (await openPostgres({ url: databaseUrl, label: 'test', poolSize: 10 })).db;
  }
  handles.push(opened);
  return opened;
}

beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-jobs-'));
  databaseUrl = undefined;
  db = await openTestDatabase();
  loggedErrors = [];
});

afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const queue of queues.splice(0)) await queue.stop({ graceMs: 0 });
  for (const listener of listeners.splice(0)) await listener.close();
  for (const handle of handles.splice(0)) await handle.destroy();
  if (databaseUrl) await dropDatabase(databaseUrl);
  fs.rmSync(dataDir, { recursive: true, force: true });
  // The queue's own bookkeeping never failed (handler faults are logged as warnings).
  expect(loggedErrors).toEqual([]);
});

function newQueue(opts: Partial<JobQueueOptions> = {}): JobQueue {
  const queue = new JobQueue({
    db,
    pollIntervalMs: 20,
    leaseMs: 400,
    logger: { info: () => undefined, warn: () => undefined, error: (_obj, msg) => loggedErrors.push(msg) },
    ...opts,
  });
  queues.push(queue);
  return queue;
}

async function waitFor<T>(
  probe: () => Promise<T | undefined | null | false>,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

const jobIn = (queue: JobQueue, id: number, state: Job['state']) =>
  waitFor(async () => {
    const job = await queue.get(id);
    return job?.state === state ? job : null;
  }, `job ${id} to be ${state}`);

/**
 * `db` through which, right after the first query of `kind` that answers `rows` rows, `act` runs once
 * on another handle: another process acting between two statements of the queue.
 */
function actingAfter(kind: 'InsertQueryNode' | 'SelectQueryNode', rows: number, act: () => Promise<unknown>) {
  const queries = new WeakSet<object>();
  let acted = false;
  const executor = db.withPlugin({
    transformQuery: ({ node, queryId }) => {
      if (node.kind === kind) queries.add(queryId);
      return node;
    },
    transformResult: async ({ result, queryId }) => {
      if (!acted && queries.has(queryId) && result.rows.length === rows) {
        acted = true;
        await act();
      }
      return result;
    },
  });
  return { executor, acted: () => acted };
}

function spawnWorker(
  mode: 'crash' | 'drain' | 'wake' | 'skewed' | 'delayed',
  effectsFile: string,
  env: Record<string, string> = {},
) {
  const child = spawn(process.execPath, [workerScript, dataDir, mode, effectsFile], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const said = (line: string) =>
    waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`worker exited early: ${err}`);
        return out.split('\n').includes(line);
      },
      `worker to say "${line}"`,
      60_000,
    );
  return { child, said, exited, stderr: () => err, stdout: () => out };
}

const effects = (file: string) =>
  fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : [];

describe('across processes', () => {
  it('finishes a job exactly once after its process is killed mid-run', async () => {
    const effectsFile = path.join(dataDir, 'effects.log');
    const queue = newQueue();
    const job = await queue.enqueue(crashKind, { n: 1 });

    const worker = spawnWorker('crash', effectsFile, { LEASE_MS: '1000' });
    await worker.said(`started ${job.id}`);
    worker.child.kill('SIGKILL');
    await worker.exited;
    expect(await queue.get(job.id)).toMatchObject({
      state: 'running',
      attempts: 1,
      leaseOwner: expect.stringContaining(`:${worker.child.pid}:`),
    });

    queue.register(crashKind, (_payload, { jobId }) => fs.appendFileSync(effectsFile, `${jobId} ${process.pid}\n`));
    queue.start();
    const done = await jobIn(queue, job.id, 'done');
    expect(done).toMatchObject({ attempts: 2, leaseOwner: null, lastError: '' });
    expect(effects(effectsFile)).toEqual([`${job.id} ${process.pid}`]);
  });

  it('shares 500 jobs between three processes without running any twice', async () => {
    const effectsFile = path.join(dataDir, 'effects.log');
    const queue = newQueue();
    // The workers start while the jobs are enqueued: each waits for the go before it claims any.
    const workers = [1, 2, 3].map(() => spawnWorker('drain', effectsFile));
    const ids = new Set<number>();
    for (let n = 0; n < 500; n += 1) ids.add((await queue.enqueue(bulkKind, { n })).id);
    for (const worker of workers) await worker.said('ready');
    fs.writeFileSync(path.join(dataDir, 'go'), '');
    await waitFor(async () => (await queue.counts(bulkKind.name)).done === 500, 'all 500 jobs to be done', 90_000);
    for (const worker of workers) worker.child.kill('SIGTERM');
    await Promise.all(workers.map((worker) => worker.exited));

    const lines = effects(effectsFile).map((line) => line.split(' ').map(Number) as [number, number]);
    expect(lines).toHaveLength(500);
    expect(new Set(lines.map(([id]) => id))).toEqual(ids);
    const byProcess = new Set(lines.map(([, pid]) => pid));
    expect(byProcess).toEqual(new Set(workers.map((worker) => worker.child.pid)));
    expect(await queue.counts(bulkKind.name)).toEqual({ queued: 0, running: 0, done: 500, failed: 0 });
    const jobs = await queue.list({ kind: bulkKind.name, limit: 500 });
    expect(jobs).toHaveLength(500);
    expect(jobs.every((job) => job.attempts === 1)).toBe(true);
  }, 120_000);

  it("leaves a running job to its process when another machine's clock runs ahead by more than the lease", async () => {
    const effectsFile = path.join(dataDir, 'effects.log');
    const queue = newQueue();
    queue.register(crashKind, (_payload, { signal }) => sleep(60_000, undefined, { signal }), { concurrency: 1 });
    const first = await queue.enqueue(crashKind, { n: 1 });
    queue.start();
    await jobIn(queue, first.id, 'running');

    // 10 minutes ahead: by its own clock each 400 ms lease this process writes ran out long ago.
    const worker = spawnWorker('skewed', effectsFile, { CLOCK_SKEW_MS: String(10 * 60_000) });
    const second = Number(
      await waitFor(async () => /^enqueued (\d+)$/m.exec(worker.stdout())?.[1], 'the skewed worker to enqueue'),
    );
    // Its enqueue is due by the database's clock too (not 10 minutes on), and its claims prefer the
    // older job: had they read the lease by the worker's clock, the first job would have run there first.
    await jobIn(queue, second, 'done');
    expect(worker.stdout().split('\n')).not.toContain(`started ${first.id}`);
    expect(effects(effectsFile)).toEqual([`${second} ${worker.child.pid}`]);
    expect(await queue.get(first.id)).toMatchObject({
      state: 'running',
      attempts: 1,
      leaseOwner: expect.stringContaining(`:${process.pid}:`),
    });
  });
});

describe("delayMs (a wait from the database's now)", () => {
  it("makes a job due that long after the database's now, whatever the enqueuing machine's clock says", async () => {
    // 10 minutes ahead: a run time its clock computed would be 11 minutes on, not 1.
    const worker = spawnWorker('delayed', path.join(dataDir, 'effects.log'), {
      CLOCK_SKEW_MS: String(10 * 60_000),
      DELAY_MS: String(60_000),
    });
    const id = Number(await waitFor(async () => /^enqueued (\d+)$/m.exec(worker.stdout())?.[1], 'the enqueue'));
    const job = await newQueue().get(id);
    const due = Date.parse(job!.runAfter) - Date.parse(job!.createdAt);
    expect(due).toBe(60_000);
    // created_at is the database's now at the enqueue, which this process reads too.
    expect(Math.abs(Date.parse(job!.createdAt) - (await databaseNow(db)).getTime())).toBeLessThan(5 * 60_000);
    expect(job!.state).toBe('queued');
  });

  it('is refused with runAfter, or negative', async () => {
    const queue = newQueue();
    const kind = jobKind<{ n: number }>('test.delay');
    await expect(queue.enqueue(kind, { n: 1 }, { delayMs: 1000, runAfter: new Date() })).rejects.toThrow(RangeError);
    await expect(queue.enqueue(kind, { n: 1 }, { delayMs: -1 })).rejects.toThrow(RangeError);
    expect(await queue.counts(kind.name)).toMatchObject({ queued: 0 });
  });
});

describe("the modules' job times, by the database's clock whatever this process's says", () => {
  // This process's Date 10 minutes ahead: a time computed from it would move every run that far.
  const SKEW_MS = 10 * 60_000;
  /** Far below the skew: the statements between two readings of the database's clock. */
  const SLACK_MS = 60_000;
  let restoreClock: (() => void) | undefined;
  afterEach(() => {
    restoreClock?.();
    restoreClock = undefined;
  });

  const jobsOf = (kind: string) => db.selectFrom('job').selectAll().where('kind', '=', kind).orderBy('id').execute();
  /** How long after it was created (the database's now) the job is due. */
  const waitOf = (job: { run_after: string; created_at: string }) =>
    Date.parse(job.run_after) - Date.parse(job.created_at);

  it('queues the hot ranking at once at start, and its next run an hour after the last one finished', async () => {
    const queue = newQueue();
    restoreClock = skewClock(SKEW_MS);
    await scheduleHotDocuments({ db, jobs: queue });
    const [first] = await jobsOf('document.hot');
    expect(Math.abs(waitOf(first!))).toBeLessThan(SLACK_MS);
    queue.start();
    const done = await jobIn(queue, first!.id, 'done');
    const next = await waitFor(async () => (await jobsOf('document.hot'))[1], 'the next hot run');
    const afterDone = Date.parse(next.run_after) - Date.parse(done.finishedAt!);
    expect(Math.abs(afterDone - 60 * 60_000)).toBeLessThan(SLACK_MS);
  });

  it('queues the search log purge at once at start, and its next run a day after the last one finished', async () => {
    const queue = newQueue();
    restoreClock = skewClock(SKEW_MS);
    await schedulePurge({ db, jobs: queue, settings: new ConfigStore(db) });
    const [first] = await jobsOf('search-record.purge');
    expect(Math.abs(waitOf(first!))).toBeLessThan(SLACK_MS);
    queue.start();
    const done = await jobIn(queue, first!.id, 'done');
    const next = await waitFor(async () => (await jobsOf('search-record.purge'))[1], 'the next purge');
    const afterDone = Date.parse(next.run_after) - Date.parse(done.finishedAt!);
    expect(Math.abs(afterDone - 24 * 60 * 60_000)).toBeLessThan(SLACK_MS);
  });

  it("queues a sitemap refresh at the end of the database's current window", async () => {
    const queue = newQueue();
    restoreClock = skewClock(SKEW_MS);
    await scheduleSitemapRefresh({ db, jobs: queue });
    const [run] = await jobsOf('sitemap.refresh');
    expect(waitOf(run!)).toBeGreaterThan(0);
    expect(waitOf(run!)).toBeLessThanOrEqual(SITEMAP_REFRESH_WINDOW_MS);
    expect(run!.dedupe_key).toBe(`sitemap.refresh:${run!.run_after}`);
  });

  it("queues the sitemap watch at once, and its next run at the end of the database's current interval", async () => {
    const queue = newQueue();
    restoreClock = skewClock(SKEW_MS);
    await enqueueSitemapWatch({ db, jobs: queue }, 'now');
    await enqueueSitemapWatch({ db, jobs: queue }, 'next interval');
    const [now, next] = await jobsOf('sitemap.watch');
    expect(Math.abs(waitOf(now!))).toBeLessThan(SLACK_MS);
    expect(waitOf(next!)).toBeGreaterThan(0);
    expect(waitOf(next!)).toBeLessThanOrEqual(SITEMAP_WATCH_INTERVAL_MS);
  });

  it("purges the search log from a cut-off the retention counts back from the database's now", async () => {
    await db
      .insertInto('config')
      .values({
        category: 'security',
        name: 'search_record_retention_days',
        label: '',
        value: '1',
        placeholder: '',
        input_type: 'number',
        sort: 0,
        options: '',
        col_num: 0,
        is_secret: 0,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();
    const dbNow = (await databaseNow(db)).getTime();
    /** A record `ms` old by the database's clock. */
    const record = (keywords: string, ms: number) => {
      const at = new Date(dbNow - ms).toISOString();
      return {
        user_id: 0,
        ip: '10.0.0.1',
        total: 1,
        page: 1,
        user_agent: 'vitest',
        keywords,
        type: 0,
        spend_time: 0,
        created_at: at,
        updated_at: at,
      };
    };
    // A day less 5 minutes old is kept; by a clock 10 minutes ahead it would be past the day.
    await db
      .insertInto('search_record')
      .values([record('kept', 24 * 60 * 60_000 - 5 * 60_000), record('gone', 24 * 60 * 60_000 + 5 * 60_000)])
      .execute();
    restoreClock = skewClock(SKEW_MS);
    expect(await purgeExpiredSearchRecords({ db, settings: new ConfigStore(db) })).toBe(1);
    expect((await db.selectFrom('search_record').select('keywords').execute()).map((r) => r.keywords)).toEqual([
      'kept',
    ]);
  });

  it("stamps a job's progress report with the database's now", async () => {
    // A lease far longer than the test: no renewal rewrites updated_at meanwhile.
    const queue = newQueue({ leaseMs: 10 * 60_000 });
    const kind = jobKind<null>('test.progress-time');
    let release!: () => void;
    const reported = new Promise<void>((resolve) => {
      queue.register(kind, async (_payload, { reportProgress }) => {
        await reportProgress({ page: 1 });
        resolve();
        await new Promise<void>((r) => (release = r));
      });
    });
    const job = await queue.enqueue(kind, null);
    restoreClock = skewClock(SKEW_MS);
    queue.start();
    await reported;
    const row = await queue.get(job.id);
    expect(row!.progress).toEqual({ page: 1 });
    expect(Math.abs(Date.parse(row!.updatedAt) - (await databaseNow(db)).getTime())).toBeLessThan(SLACK_MS);
    release();
    await jobIn(queue, job.id, 'done');
  });
});

/** The job's start as the worker printed it ("started <id> <epoch ms>"), once it did. */
function startedAt(output: () => string, jobId: number): number | undefined {
  const line = output()
    .split('\n')
    .find((l) => l.startsWith(`started ${jobId} `));
  return line === undefined ? undefined : Number(line.split(' ')[2]);
}

// The poll interval is made long here: a job that starts before it was woken by its NOTIFY.
describe.skipIf(TEST_ENGINE !== 'postgres')('wake-ups across processes (PostgreSQL LISTEN/NOTIFY)', () => {
  const LONG_POLL_MS = 60_000;
  /** Far below the poll; the latencies measured are printed, and are milliseconds. */
  const BOUND_MS = 5000;

  it('starts a job enqueued in another process at its commit, not at the next poll', async () => {
    const queue = newQueue();
    const worker = spawnWorker('wake', path.join(dataDir, 'effects.log'), { POLL_MS: String(LONG_POLL_MS) });
    await worker.said('ready');
    const latencies: number[] = [];
    for (let n = 0; n < 40; n += 1) {
      // From before the INSERT to the handler's start: the commit's latency and a little more.
      const before = preciseNow();
      const job = await queue.enqueue(wakeKind, { n });
      const started = await waitFor(async () => startedAt(worker.stdout, job.id), `job ${job.id} to start`, BOUND_MS);
      latencies.push(started - before);
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
    console.log(`wake-up latency over ${sorted.length} jobs (ms): p50 ${at(0.5)}, p90 ${at(0.9)}, max ${at(1)}`);
    expect(Math.max(...latencies)).toBeLessThan(BOUND_MS);
  }, 60_000);

  it('hears enqueues again after its listening connection is cut, and catches up on those it missed', async () => {
    const url = databaseUrl!;
    const notifications = new PostgresNotifications({ url, retryMs: 20 });
    listeners.push(notifications);
    const other = newQueue({ db: await openTestDatabase() });
    const queue = newQueue({ pollIntervalMs: LONG_POLL_MS, notifications });
    const ran: number[] = [];
    queue.register(wakeKind, (_payload, { jobId }) => {
      ran.push(jobId);
    });
    queue.start();
    await queue.listening();
    const listenerPids = async () =>
      (
        await sql<{ pid: number }>`SELECT pid FROM pg_stat_activity
      WHERE application_name = ${LISTENER_APPLICATION_NAME} AND datname = current_database()`.execute(db)
      ).rows.map((r) => r.pid);
    const [cut] = await listenerPids();
    expect(cut).toBeDefined();
    await sql`SELECT pg_terminate_backend(${cut})`.execute(db);
    // Sent while the listener is gone (or just going): heard, or caught up on reconnecting.
    const missed = await other.enqueue(wakeKind, { n: 1 });
    await waitFor(async () => ran.includes(missed.id), 'the job enqueued during the cut to run', BOUND_MS);
    const [fresh] = await waitFor(
      async () => {
        const pids = await listenerPids();
        return pids.length === 1 && pids[0] !== cut ? pids : null;
      },
      'a new listening connection',
      BOUND_MS,
    );
    expect(fresh).not.toBe(cut);
    const after = await other.enqueue(wakeKind, { n: 2 });
    await waitFor(async () => ran.includes(after.id), 'the job enqueued after the reconnection to run', BOUND_MS);
  });
});

describe('concurrent claims', () => {
  it('shares 200 jobs between two queues with their own connections without running any twice', async () => {
    // On PostgreSQL the second queue has a pool of its own, as a second process would.
    const other = TEST_ENGINE === 'postgres' ? await openTestDatabase() : db;
    const kind = jobKind<{ n: number }>('test.shared');
    const runs: [number, string][] = [];
    // Leases long enough never to expire here: a job run twice would be a claim taken twice.
    const pair = [
      ['first', newQueue({ leaseMs: 60_000 })],
      ['second', newQueue({ db: other, leaseMs: 60_000 })],
    ] as const;
    for (const [name, queue] of pair) {
      queue.register(
        kind,
        async (_payload, { jobId }) => {
          runs.push([jobId, name]);
          await sleep(2);
        },
        { concurrency: 4 },
      );
    }
    const ids = new Set<number>();
    for (let n = 0; n < 200; n += 1) ids.add((await pair[0][1].enqueue(kind, { n })).id);
    for (const [, queue] of pair) queue.start();
    await waitFor(async () => (await pair[0][1].counts(kind.name)).done === 200, 'all 200 jobs to be done', 60_000);
    expect(runs).toHaveLength(200);
    expect(new Set(runs.map(([id]) => id))).toEqual(ids);
    expect(new Set(runs.map(([, name]) => name))).toEqual(new Set(['first', 'second']));
    expect((await pair[0][1].list({ kind: kind.name, limit: 500 })).every((job) => job.attempts === 1)).toBe(true);
  });
});

describe('fair shares (fairKey)', () => {
  const kind = jobKind<{ name: string }>('test.fair');

  /**
   * A queue whose leases never expire here. These tests hold jobs for as long as they need, and a
   * loaded machine may delay a renewal past a short lease (400 ms): the held job would then count
   * no more for its owner and be claimed again, a second start that no step waits for (a 600 ms
   * stall of the event loop made "concurrency 4" time out so, 20 s on `job 5 to start`).
   */
  const fairQueue = (opts: Partial<JobQueueOptions> = {}) => newQueue({ leaseMs: 60_000, ...opts });

  /** Runs `kind` in `queue`: a job notes its name in `started`, then holds its slot until `release(name)`. */
  function holding(queue: JobQueue, concurrency: number, started: string[], gates: Map<string, () => void>) {
    queue.register(
      kind,
      async ({ name }, { signal }) => {
        started.push(name);
        await new Promise<void>((resolve) => {
          gates.set(name, resolve);
          signal.addEventListener('abort', () => resolve());
        });
      },
      { concurrency },
    );
  }

  it.each([
    ['concurrency 2, A1…A5 then B1: B1 takes the first slot that frees', 2, 1, true, 'A1 A2 B1 A3 A4 A5'],
    ['the same without keys: oldest first, as before', 2, 1, false, 'A1 A2 A3 A4 A5 B1'],
    ['concurrency 4, A1…A5 then B1, B2: the owner with fewer running goes first', 4, 2, true, 'A1 A2 A3 A4 B1 B2 A5'],
  ])('%s', async (_title, concurrency, jobsOfB, keyed, order) => {
    const queue = fairQueue();
    const started: string[] = [];
    const gates = new Map<string, () => void>();
    holding(queue, concurrency, started, gates);
    const enqueue = (owner: string, n: number) =>
      queue.enqueue(kind, { name: `${owner}${n}` }, keyed ? { fairKey: owner } : {});
    for (let n = 1; n <= 5; n += 1) await enqueue('A', n);
    queue.start();
    await waitFor(async () => started.length === concurrency, `A's jobs to fill the ${concurrency} slots`);
    for (let n = 1; n <= jobsOfB; n += 1) await enqueue('B', n);
    const total = 5 + jobsOfB;
    // One slot freed at a time, in the order the jobs started: each time one job starts in it.
    for (let freed = 0; started.length < total; freed += 1) {
      gates.get(started[freed]!)!();
      await waitFor(async () => started.length === concurrency + freed + 1, `job ${concurrency + freed + 1} to start`);
    }
    for (const name of started) gates.get(name)!();
    await waitFor(async () => (await queue.counts(kind.name)).done === total, 'every job to be done');
    expect(started.join(' ')).toBe(order);
    expect((await queue.list({ kind: kind.name })).map((job) => job.fairKey)).toEqual(
      keyed ? [...Array<string>(jobsOfB).fill('B'), ...Array<string>(5).fill('A')] : Array<null>(total).fill(null),
    );
  });

  it("counts the jobs running in every process: another queue takes the other owner's job first", async () => {
    // Another handle (its own pool on PostgreSQL), as another process would have: it knows A1 runs only from the table.
    const other = await openTestDatabase();
    const started: string[] = [];
    const gates = new Map<string, () => void>();
    const first = fairQueue();
    const second = fairQueue({ db: other });
    for (const [name, owner] of [
      ['A1', 'A'],
      ['A2', 'A'],
      ['A3', 'A'],
      ['B1', 'B'],
    ])
      await first.enqueue(kind, { name: name! }, { fairKey: owner! });
    holding(first, 1, started, gates);
    first.start();
    await waitFor(async () => started.length === 1, 'A1 to start');
    holding(second, 1, started, gates);
    second.start();
    await waitFor(async () => started.length === 2, 'the second queue to start a job');
    expect(started).toEqual(['A1', 'B1']);
  });

  it('gives two queues claiming at the same instant one job of each owner, not two of the older one', async () => {
    // A1, A2 and B1 queued, then two queues (their own pools on PostgreSQL, as two processes) start
    // together, one slot each. On PostgreSQL a transaction holding the job table keeps both claims
    // waiting, then lets them go at once, with 20,000 more of A's jobs to sort so that they overlap: a
    // claim that cannot see the other's lease takes A2 (seen in 4 runs of 4 without the claims' turns).
    const other = await openTestDatabase();
    const started: string[] = [];
    const pair = [fairQueue(), fairQueue({ db: other })];
    for (const [name, owner] of [
      ['A1', 'A'],
      ['A2', 'A'],
      ['B1', 'B'],
    ])
      await pair[0]!.enqueue(kind, { name: name! }, { fairKey: owner! });
    for (const queue of pair)
      queue.register(
        kind,
        async ({ name }, { signal }) => {
          started.push(name);
          await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
        },
        { concurrency: 1 },
      );
    const holder = TEST_ENGINE === 'postgres' ? new pg.Client({ connectionString: databaseUrl }) : undefined;
    try {
      if (holder) {
        await holder.connect();
        const later = new Date().toISOString();
        await holder.query(
          `INSERT INTO job (kind, payload, max_attempts, run_after, fair_key, created_at, updated_at)
           SELECT $1, '{"name":"A' || n || '"}', 3, $2, 'A', $2, $2 FROM generate_series(3, 20002) AS n`,
          [kind.name, later],
        );
        await holder.query('BEGIN');
        await holder.query('LOCK TABLE job IN SHARE ROW EXCLUSIVE MODE');
      }
      for (const queue of pair) queue.start();
      if (holder) {
        // Both claims wait: on the table, or one of them on the other's turn.
        await waitFor(async () => (await lockWaiters(holder)) === 2, 'both claims to wait');
        await holder.query('COMMIT');
      }
      await waitFor(async () => started.length === 2, 'both queues to start a job');
      expect(started.sort()).toEqual(['A1', 'B1']);
    } finally {
      await holder?.end();
    }
    // Stopping aborts the two held jobs (a freed slot would claim A2).
    await Promise.all(pair.map((queue) => queue.stop({ graceMs: 0 })));
  });
});

describe('backlog (jobBacklog, told by /readyz)', () => {
  it("counts the jobs due and not running, the oldest one's wait by the database's clock, the processes running jobs", async () => {
    const queue = newQueue();
    const kind = jobKind<{ n: number }>('test.backlog');
    expect(await jobBacklog(db)).toEqual({ waiting: 0, oldestWaitingSeconds: 0, running: 0, workers: 0 });
    const now = (await databaseNow(db)).getTime();
    const at = (ms: number) => new Date(now + ms);
    await queue.enqueue(kind, { n: 1 }, { runAfter: at(-2 * 3600_000) });
    await queue.enqueue(kind, { n: 2 }, { runAfter: at(-60_000) });
    await queue.enqueue(kind, { n: 3 }, { runAfter: at(3600_000) });
    // Running: three jobs under the live leases of two processes, one whose lease ran out 3 hours ago.
    for (const [owner, leaseMs] of [
      ['a:1:x#1', 3600_000],
      ['a:1:x#2', 3600_000],
      ['b:2:y#1', 3600_000],
      ['c:3:z#1', -3 * 3600_000],
    ] as const) {
      const job = await queue.enqueue(kind, { n: 4 }, { runAfter: at(-4 * 3600_000) });
      await db
        .updateTable('job')
        .set({ state: 'running', attempts: 1, lease_owner: owner, lease_expires_at: at(leaseMs).toISOString() })
        .where('id', '=', job.id)
        .execute();
    }
    const backlog = await jobBacklog(db);
    expect(backlog).toMatchObject({ waiting: 3, running: 3, workers: 2 });
    expect(backlog.oldestWaitingSeconds).toBeGreaterThanOrEqual(3 * 3600);
    expect(backlog.oldestWaitingSeconds).toBeLessThan(4 * 3600);
  });
});

describe('failures', () => {
  const flaky = jobKind<{ label: string }>('test.flaky');

  it('retries until max_attempts, then fails with the last error kept', async () => {
    const queue = newQueue();
    const attempts: number[] = [];
    queue.register(
      flaky,
      async (_payload, { attempt }) => {
        attempts.push(attempt);
        throw new Error(`boom ${attempt}`);
      },
      { maxAttempts: 3, backoff: () => 0 },
    );
    const job = await queue.enqueue(flaky, { label: 'x' });
    queue.start();
    const failed = await jobIn(queue, job.id, 'failed');
    expect(attempts).toEqual([1, 2, 3]);
    expect(failed).toMatchObject({
      attempts: 3,
      maxAttempts: 3,
      lastError: 'boom 3',
      leaseOwner: null,
      finishedAt: expect.any(String),
    });
    expect(await queue.list({ kind: flaky.name, state: 'failed' })).toHaveLength(1);
  });

  it('moves run_after by the backoff after a failed attempt', async () => {
    const queue = newQueue();
    let calls = 0;
    queue.register(
      flaky,
      () => {
        calls += 1;
        throw new Error('not yet');
      },
      { maxAttempts: 5, backoff: (attempt) => attempt * 60_000 },
    );
    const job = await queue.enqueue(flaky, { label: 'later' });
    queue.start();
    const waiting = await waitFor(async () => {
      const current = await queue.get(job.id);
      return current?.state === 'queued' && current.attempts === 1 ? current : null;
    }, 'the first attempt to fail');
    expect(Date.parse(waiting.runAfter) - Date.parse(waiting.updatedAt)).toBe(60_000);
    expect(waiting.lastError).toBe('not yet');
    await sleep(100);
    expect(calls).toBe(1);
  });

  it('records synchronous throws and non-Error values without retrying a PermanentJobError', async () => {
    const queue = newQueue();
    const sync = jobKind<null>('test.sync');
    const permanent = jobKind<null>('test.permanent');
    queue.register(
      sync,
      () => {
        throw 'plain string';
      },
      { maxAttempts: 1 },
    );
    queue.register(
      permanent,
      () => {
        throw new PermanentJobError('file is not a PDF');
      },
      { maxAttempts: 5 },
    );
    const a = await queue.enqueue(sync, null);
    const b = await queue.enqueue(permanent, null);
    queue.start();
    expect(await jobIn(queue, a.id, 'failed')).toMatchObject({ lastError: 'plain string', attempts: 1 });
    expect(await jobIn(queue, b.id, 'failed')).toMatchObject({ lastError: 'file is not a PDF', attempts: 1 });
  });

  it('does not count an attempt that met an outage (the bucket or the database away): the job waits and runs again', async () => {
    const queue = newQueue({ outageRetryMs: 0 });
    const outages = [
      new BlobStoreUnavailableError({ cause: new Error('connect ECONNREFUSED 127.0.0.1:9000') }),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    ];
    const attempts: number[] = [];
    queue.register(
      flaky,
      (_payload, { attempt }) => {
        attempts.push(attempt);
        const outage = outages.shift();
        if (outage) throw outage;
      },
      // One attempt only: an outage counted as one would fail the job for good.
      { maxAttempts: 1, backoff: () => 0 },
    );
    const job = await queue.enqueue(flaky, { label: 'through an outage' });
    queue.start();
    expect(await jobIn(queue, job.id, 'done')).toMatchObject({
      attempts: 1,
      lastError: 'terminating connection due to administrator command',
    });
    expect(attempts).toEqual([1, 1, 1]);
  });

  it('waits at least outageRetryMs (30 s by default) before running again a job whose attempt met an outage', async () => {
    const queue = newQueue();
    queue.register(
      flaky,
      () => {
        throw new BlobStoreUnavailableError({ cause: new Error('connect ECONNREFUSED 127.0.0.1:9000') });
      },
      { maxAttempts: 3, backoff: () => 0 },
    );
    const job = await queue.enqueue(flaky, { label: 'bucket away' });
    queue.start();
    const waiting = await waitFor(async () => {
      const current = await queue.get(job.id);
      return current?.state === 'queued' && current.lastError ? current : null;
    }, 'the attempt to meet the outage');
    expect(waiting.attempts).toBe(0);
    expect(waiting.lastError).toBe('文件存储暂时不可用，请稍后再试');
    expect(Date.parse(waiting.runAfter) - Date.parse(waiting.updatedAt)).toBe(30_000);
  });

  it('aborts the signal at the time limit and counts it as a failed attempt', async () => {
    const queue = newQueue();
    const slow = jobKind<null>('test.slow');
    const reasons: unknown[] = [];
    queue.register(
      slow,
      async (_payload, { signal }) => {
        await new Promise((resolve) => signal.addEventListener('abort', resolve));
        reasons.push(signal.reason);
      },
      { timeoutMs: 100, maxAttempts: 1 },
    );
    const job = await queue.enqueue(slow, null);
    queue.start();
    const failed = await jobIn(queue, job.id, 'failed');
    expect(failed.lastError).toBe('任务超时（100 毫秒）');
    await waitFor(async () => reasons.length === 1, 'the handler to return');
    expect(reasons[0]).toBeInstanceOf(JobTimeoutError);
  });

  it('fails a job whose last attempt died with its process', async () => {
    const queue = newQueue();
    const kind = jobKind<null>('test.orphan');
    let calls = 0;
    queue.register(kind, () => {
      calls += 1;
    });
    const job = await queue.enqueue(kind, null, { maxAttempts: 1 });
    await db
      .updateTable('job')
      .set({
        state: 'running',
        attempts: 1,
        lease_owner: 'gone:1:x#1',
        lease_expires_at: new Date(Date.now() - 1000).toISOString(),
      })
      .where('id', '=', job.id)
      .execute();
    queue.start();
    const failed = await jobIn(queue, job.id, 'failed');
    expect(failed.lastError).toContain('任务执行中断');
    expect(failed.attempts).toBe(2);
    expect(calls).toBe(0);
  });
});

describe('scheduling', () => {
  it('never runs more jobs of a kind at once than its concurrency', async () => {
    const queue = newQueue();
    const kind = jobKind<{ n: number }>('test.parallel');
    let started = 0;
    let running = 0;
    let mostAtOnce = 0;
    queue.register(
      kind,
      async () => {
        started += 1;
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        // The first job waits for the second, so that both slots are seen in use.
        await waitFor(async () => started >= 2, 'a second job to start', 5000);
        await sleep(10);
        running -= 1;
      },
      { concurrency: 2 },
    );
    for (let n = 0; n < 8; n += 1) await queue.enqueue(kind, { n });
    queue.start();
    await waitFor(async () => (await queue.counts(kind.name)).done === 8, 'all jobs to be done');
    expect(started).toBe(8);
    expect(mostAtOnce).toBe(2);
  });

  it('returns the queued job for a dedupe key, and queues a new one once it is done', async () => {
    const queue = newQueue();
    const convert = jobKind<{ documentId: number }>('test.convert');
    const first = await queue.enqueue(convert, { documentId: 42 }, { dedupeKey: 'convert:42' });
    const again = await queue.enqueue(convert, { documentId: 42 }, { dedupeKey: 'convert:42' });
    const other = await queue.enqueue(convert, { documentId: 43 }, { dedupeKey: 'convert:43' });
    expect(again.id).toBe(first.id);
    expect(other.id).not.toBe(first.id);
    expect(await queue.counts(convert.name)).toMatchObject({ queued: 2 });

    const seen: number[] = [];
    queue.register(convert, ({ documentId }) => {
      seen.push(documentId);
    });
    queue.start();
    await jobIn(queue, first.id, 'done');
    const later = await queue.enqueue(convert, { documentId: 42 }, { dedupeKey: 'convert:42' });
    expect(later.id).toBeGreaterThan(other.id);
    await jobIn(queue, later.id, 'done');
    expect(seen.sort()).toEqual([42, 42, 43]);
    expect((await queue.list({ dedupeKey: 'convert:42' })).map((job) => job.id)).toEqual([later.id, first.id]);
  });

  it('takes a dedupe key whose holder another process finishes between the conflict and the look for it', async () => {
    const queue = newQueue();
    const kind = jobKind<null>('test.dedupe-race');
    const holder = await queue.enqueue(kind, null, { dedupeKey: 'race' });
    // Right after the insert that conflicts with the holder, another handle finishes it.
    const other = await openTestDatabase();
    const racing = actingAfter('InsertQueryNode', 0, () =>
      other.updateTable('job').set({ state: 'done' }).where('id', '=', holder.id).execute(),
    );
    const taken = await queue.enqueue(kind, null, { dedupeKey: 'race', executor: racing.executor });
    expect(racing.acted()).toBe(true);
    expect(taken.id).not.toBe(holder.id);
    expect(taken.state).toBe('queued');
    expect(await queue.counts(kind.name)).toMatchObject({ queued: 1, done: 1 });
  });

  it('runs a job once more when asked for again while it runs (again), and not without it', async () => {
    const queue = newQueue();
    const convert = jobKind<{ documentId: number }>('test.rerun');
    const runs: number[] = [];
    let release!: () => void;
    queue.register(convert, async (_payload, { attempt }) => {
      runs.push(attempt);
      if (runs.length === 1) await new Promise<void>((resolve) => (release = resolve));
    });
    queue.start();
    const first = await queue.enqueue(convert, { documentId: 7 }, { dedupeKey: 'rerun:7' });
    await jobIn(queue, first.id, 'running');
    // while it runs: without `again` the request is the running job, and that is all
    expect((await queue.enqueue(convert, { documentId: 7 }, { dedupeKey: 'rerun:7' })).id).toBe(first.id);
    // with `again` it is the same job, which runs once more after this attempt
    const again = await queue.enqueue(convert, { documentId: 7 }, { dedupeKey: 'rerun:7', again: true });
    expect(again.id).toBe(first.id);
    expect((await queue.enqueue(convert, { documentId: 7 }, { dedupeKey: 'rerun:7', again: true })).id).toBe(first.id);
    release();
    await waitFor(async () => runs.length === 2 && (await queue.get(first.id))?.state === 'done', 'the second run');
    await sleep(100);
    // once more only (asked twice during the same run), as a first attempt; one row
    expect(runs).toEqual([1, 1]);
    expect(await queue.list({ dedupeKey: 'rerun:7' })).toHaveLength(1);

    // a queued job asked for again is not run twice
    const queued = newQueue();
    const idle = jobKind<null>('test.rerun-queued');
    const second = await queued.enqueue(idle, null, { dedupeKey: 'rerun:q' });
    expect((await queued.enqueue(idle, null, { dedupeKey: 'rerun:q', again: true })).id).toBe(second.id);
    let ran = 0;
    queued.register(idle, () => {
      ran++;
    });
    queued.start();
    await jobIn(queued, second.id, 'done');
    await sleep(100);
    expect(ran).toBe(1);
  });

  it('takes the key again when the holder asked for again finishes between the look for it and its mark', async () => {
    const queue = newQueue();
    const kind = jobKind<null>('test.rerun-race');
    const holder = await queue.enqueue(kind, null, { dedupeKey: 'rerun-race' });
    // The holder runs in another process.
    await db
      .updateTable('job')
      .set({
        state: 'running',
        lease_owner: 'elsewhere',
        lease_expires_at: new Date(Date.now() + 60_000).toISOString(),
      })
      .where('id', '=', holder.id)
      .execute();
    // Right after the enqueue finds the running holder, that process finishes it: a mark for one more run
    // would find it done.
    const other = await openTestDatabase();
    const racing = actingAfter('SelectQueryNode', 1, () =>
      other
        .updateTable('job')
        .set({ state: 'done', lease_owner: null, lease_expires_at: null })
        .where('id', '=', holder.id)
        .execute(),
    );
    const taken = await queue.enqueue(kind, null, { dedupeKey: 'rerun-race', again: true, executor: racing.executor });
    expect(racing.acted()).toBe(true);
    expect(taken.id).not.toBe(holder.id);
    expect(taken.state).toBe('queued');
    expect(await queue.counts(kind.name)).toMatchObject({ queued: 1, done: 1 });
  });

  // SQLite has one writer: another connection's claim waits for the caller's transaction anyway.
  it.skipIf(TEST_ENGINE === 'sqlite')(
    'runs a queued job asked for again inside a transaction after that transaction, seeing what it wrote',
    async () => {
      const kind = jobKind<null>('test.rerun-queued-tx');
      const holder = await newQueue().enqueue(kind, null, { dedupeKey: 'rerun-tx' });
      // Another queue on connections of its own runs the kind; its handler reads what the caller wrote.
      const worker = newQueue({ db: await openTestDatabase() });
      const seen: number[] = [];
      worker.register(kind, async () => {
        const row = await db
          .selectFrom('job')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('kind', '=', 'test.written-by-the-caller')
          .executeTakeFirstOrThrow();
        seen.push(Number(row.n));
      });
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('job')
          .values({
            kind: 'test.written-by-the-caller',
            payload: 'null',
            max_attempts: 1,
            run_after: new Date(Date.now() + 3_600_000).toISOString(),
            created_at: new Date().toISOString(),
            updated_at: new Date().toISOString(),
          })
          .execute();
        expect((await newQueue().enqueue(kind, null, { dedupeKey: 'rerun-tx', again: true, executor: trx })).id).toBe(
          holder.id,
        );
        worker.start();
        // Polls every 20 ms: long enough for a claim, had the holder been free to take.
        await sleep(300);
      });
      await jobIn(worker, holder.id, 'done');
      expect(seen).toEqual([1]);
    },
  );

  it("enqueues inside the caller's transaction, so a rollback leaves no job", async () => {
    const queue = newQueue();
    const kind = jobKind<null>('test.tx');
    await expect(
      db.transaction().execute(async (trx) => {
        await queue.enqueue(kind, null, { executor: trx });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await queue.counts(kind.name)).toEqual({ queued: 0, running: 0, done: 0, failed: 0 });
  });

  it('keeps the progress a handler reports', async () => {
    const queue = newQueue();
    const kind = jobKind<{ pages: number }>('test.progress');
    queue.register(kind, async ({ pages }, { reportProgress }) => {
      for (let page = 1; page <= pages; page += 1) await reportProgress({ page, pages });
    });
    const job = await queue.enqueue(kind, { pages: 3 });
    queue.start();
    expect((await jobIn(queue, job.id, 'done')).progress).toEqual({ page: 3, pages: 3 });
  });

  // SQLite has one connection: a renewal held on it would hold the job's outcome too.
  it.skipIf(TEST_ENGINE === 'sqlite')(
    'says nothing of a lease renewal on its way as its job ended, which then meets the closed handle',
    async () => {
      // The renewal's read of the database's clock is held (its result kept back, its connection with it) until the
      // job is done, the queue stopped and the handle closing, as in a process's shutdown; then it goes on, to a
      // closed handle.
      let armed = false;
      let release: (() => void) | undefined;
      let held!: () => void;
      const renewalHeld = new Promise<void>((resolve) => (held = resolve));
      const renewals = new WeakSet<object>();
      const executor = db.withPlugin({
        transformQuery: ({ node, queryId }) => {
          if (armed && node.kind === 'RawNode') renewals.add(queryId);
          return node;
        },
        transformResult: async ({ result, queryId }) => {
          if (release === undefined && renewals.has(queryId)) {
            await new Promise<void>((resolve) => {
              release = resolve;
              held();
            });
          }
          return result;
        },
      });
      const queue = newQueue({ db: executor });
      const kind = jobKind<null>('test.renewal-at-the-end');
      // Its one slot taken, the queue reads nothing else while the handler waits: the clock read held is a renewal's.
      queue.register(kind, async () => {
        armed = true;
        await renewalHeld;
        armed = false;
      });
      const job = await queue.enqueue(kind, null);
      queue.start();
      await jobIn(queue, job.id, 'done');
      await queue.stop();
      // The handle's close waits for the connection the renewal holds.
      const closing = db.destroy();
      release!();
      await closing;
      // The renewal's next statement fails on the closed handle within this turn's microtasks.
      await new Promise((resolve) => setImmediate(resolve));
      expect(loggedErrors).toEqual([]);
    },
  );

  it('waits for running handlers on stop, and deletes old finished jobs on prune', async () => {
    const queue = newQueue();
    const kind = jobKind<null>('test.graceful');
    let started = false;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let finished = false;
    queue.register(kind, async () => {
      started = true;
      await released;
      await sleep(100);
      finished = true;
    });
    const job = await queue.enqueue(kind, null);
    queue.start();
    // The handler's own word and a gate it waits at, not the row's state: a look at the row every 20 ms
    // missed its 100 ms in the running state at load 10 (then done, never running again: 20 s to the timeout).
    await waitFor(async () => started, 'the handler to start');
    const stopped = queue.stop();
    release();
    await stopped;
    expect(finished).toBe(true);
    expect((await queue.get(job.id))?.state).toBe('done');
    expect(await queue.prune(new Date(Date.now() - 60_000))).toBe(0);
    expect(await queue.prune(new Date(Date.now() + 1000))).toBe(1);
    expect(await queue.get(job.id)).toBeNull();
  });

  it('aborts handlers that outlast the stop grace and gives their jobs back at once, the attempt not counted', async () => {
    const first = newQueue();
    const kind = jobKind<null>('test.interrupted');
    const reasons: unknown[] = [];
    first.register(kind, async (_payload, { signal }) => {
      await new Promise((resolve) => signal.addEventListener('abort', resolve));
      reasons.push(signal.reason);
      throw signal.reason;
    });
    const job = await first.enqueue(kind, null);
    first.start();
    await jobIn(first, job.id, 'running');
    await first.stop({ graceMs: 50 });
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toBeInstanceOf(JobInterruptedError);
    // Claimable now by the next start, with as many attempts left as before this one.
    expect(await first.get(job.id)).toMatchObject({ state: 'queued', attempts: 0, leaseOwner: null });

    const second = newQueue();
    let ranAgain = false;
    second.register(kind, () => {
      ranAgain = true;
    });
    second.start();
    expect(await jobIn(second, job.id, 'done')).toMatchObject({ attempts: 1 });
    expect(ranAgain).toBe(true);
  });

  it('leaves the job of a handler that does not return on the abort to its lease; another queue takes it up then', async () => {
    const first = newQueue();
    const kind = jobKind<null>('test.deaf');
    let release: () => void = () => undefined;
    first.register(kind, () => new Promise<void>((resolve) => (release = resolve)));
    const job = await first.enqueue(kind, null);
    first.start();
    await jobIn(first, job.id, 'running');
    await first.stop({ graceMs: 50 });
    // It may still be writing: nobody else runs the job before its lease has expired.
    expect((await first.get(job.id))?.state).toBe('running');
    release();

    const second = newQueue();
    second.register(kind, () => undefined);
    second.start();
    expect(await jobIn(second, job.id, 'done')).toMatchObject({ attempts: 2 });
  });
});

describe.runIf(TEST_ENGINE === 'postgres')('while the database is away', () => {
  it('says so once, not once per kind, poll and reconnection, and claims again as soon as it is back', async () => {
    const said: string[] = [];
    const logger = {
      info: (_obj: object, msg: string) => said.push(`info ${msg}`),
      warn: (_obj: object, msg: string) => said.push(`warn ${msg}`),
      error: (_obj: object, msg: string) => loggedErrors.push(msg),
    };
    // Its listening connection tries again every 20 ms at most, about 15 times while the database is away.
    const notifications = new PostgresNotifications({ url: databaseUrl!, retryMs: 20, maxRetryMs: 20, log: logger });
    listeners.push(notifications);
    const queue = newQueue({ logger, notifications });
    const kinds = ['a', 'b', 'c', 'd'].map((name) => jobKind<{ n: number }>(`test.away-${name}`));
    const ran: string[] = [];
    for (const kind of kinds) queue.register(kind, ({ n }) => void ran.push(`${kind.name} ${n}`));
    queue.start();
    await queue.listening();
    const name = new URL(databaseUrl!).pathname.slice(1);
    const admin = new pg.Client({ connectionString: inject('postgresUrl') });
    await admin.connect();
    try {
      // New connections refused, the open ones ended: the database taken away from under the queue.
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
      // 20 polls of 20 ms, 4 kinds: without the rule, about 80 error lines.
      await sleep(400);
      expect(said.sort()).toEqual([
        'warn database unavailable: claiming jobs paused until it answers',
        'warn the PostgreSQL notification connection failed; reconnecting',
      ]);
      expect(loggedErrors).toEqual([]);
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
    } finally {
      await admin.end();
    }
    const job = await queue.enqueue(kinds[2]!, { n: 1 });
    await jobIn(queue, job.id, 'done');
    expect(ran).toEqual(['test.away-c 1']);
    await waitFor(async () => said.length === 4, 'the listener to be back');
    expect(said.sort()).toEqual([
      'info database back: claiming jobs again',
      'info the PostgreSQL notification connection is back',
      'warn database unavailable: claiming jobs paused until it answers',
      'warn the PostgreSQL notification connection failed; reconnecting',
    ]);
  });

  it('says once at warn, not at each renewal and progress report, that a running job could not be written about while it is away', async () => {
    const said: string[] = [];
    const logger = {
      info: () => undefined,
      warn: (_obj: object, msg: string) => said.push(msg),
      error: (_obj: object, msg: string) => loggedErrors.push(msg),
    };
    // leaseMs 400: a renewal every 133 ms.
    const queue = newQueue({ logger });
    const name = new URL(databaseUrl!).pathname.slice(1);
    const admin = new pg.Client({ connectionString: inject('postgresUrl') });
    await admin.connect();
    const kind = jobKind<null>('test.away-renewing');
    let back!: () => void;
    const isBack = new Promise<void>((resolve) => (back = resolve));
    // The run takes the database away from under the queue, and goes on for about 5 renewals,
    // reporting its progress 10 times, before the database is back.
    queue.register(kind, async (_payload, { reportProgress }) => {
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
      for (let done = 1; done <= 10; done++) {
        await reportProgress({ done, total: 10 });
        await sleep(70);
      }
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
      back();
    });
    try {
      const job = await queue.enqueue(kind, null);
      queue.start();
      await isBack;
      expect(await jobIn(queue, job.id, 'done')).toMatchObject({ attempts: 1 });
      expect(loggedErrors).toEqual([]);
      expect(said.filter((msg) => msg.startsWith('writing about a running job failed'))).toEqual([
        'writing about a running job failed, the database is unavailable; the job goes on (it runs again if its lease expires meanwhile)',
      ]);
    } finally {
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
      await admin.end();
    }
  });

  it('says at warn that an outcome could not be recorded while it is away, and runs the job again once back', async () => {
    const said: string[] = [];
    const logger = {
      info: () => undefined,
      warn: (_obj: object, msg: string) => said.push(msg),
      error: (_obj: object, msg: string) => loggedErrors.push(msg),
    };
    const queue = newQueue({ logger });
    const name = new URL(databaseUrl!).pathname.slice(1);
    const admin = new pg.Client({ connectionString: inject('postgresUrl') });
    await admin.connect();
    const kind = jobKind<null>('test.away-while-running');
    let runs = 0;
    // The first run takes the database away from under the queue just before its outcome is written.
    queue.register(kind, async () => {
      runs += 1;
      if (runs > 1) return;
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
    });
    try {
      const job = await queue.enqueue(kind, null);
      queue.start();
      const unrecorded =
        'recording a job outcome failed, the database is unavailable; the job will run again when its lease expires';
      await waitFor(async () => said.includes(unrecorded) || loggedErrors.length > 0, 'the failed write to be told');
      expect(loggedErrors).toEqual([]);
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
      expect(await jobIn(queue, job.id, 'done')).toMatchObject({ attempts: 2 });
      expect(runs).toBe(2);
      expect(said.filter((msg) => msg === unrecorded)).toHaveLength(1);
    } finally {
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
      await admin.end();
    }
  });
});
