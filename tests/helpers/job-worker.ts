import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { openDatabase, openPostgres, type Database } from '../../backend/db';
import { PostgresNotifications } from '../../backend/db/notifications';
import { JobQueue, jobKind } from '../../backend/platform/jobs/job-queue';

// A job queue in a process of its own, for tests/backend/job-queue.test.ts:
//   job-worker.ts <dataDir> crash <effectsFile>  runs `test.crash` jobs whose handler never
//                                                 finishes (the test kills the process)
//   job-worker.ts <dataDir> drain <effectsFile>  waits for <dataDir>/go, then runs `test.bulk`
//                                                 jobs; SIGTERM stops it gracefully
//   job-worker.ts <dataDir> wake <effectsFile>   runs `test.wake` jobs, printing "started <job
//                                                 id> <epoch ms>" as each handler begins
//   job-worker.ts <dataDir> skewed <effectsFile> enqueues one `test.crash` job (printing "enqueued
//                                                 <id>"), then runs `test.crash` jobs at once,
//                                                 printing "started <id>" as each begins
//   job-worker.ts <dataDir> delayed <effectsFile> enqueues one `test.crash` job DELAY_MS after
//                                                 now (printing "enqueued <id>") and runs nothing
// Every handler that completes appends "<job id> <pid>" to the effects file. The database is
// SQLite in <dataDir>, or PostgreSQL when DATABASE_URL is set (with its LISTEN connection);
// POLL_MS sets the queue's poll interval (default 20 ms), LEASE_MS its lease; CLOCK_SKEW_MS
// moves the process's clock (Date) that far ahead: a machine whose clock drifted.

export const crashKind = jobKind<{ n: number }>('test.crash');
export const bulkKind = jobKind<{ n: number }>('test.bulk');
export const wakeKind = jobKind<{ n: number }>('test.wake');

/** Wall-clock time in milliseconds with a fraction, comparable between processes of one machine. */
export const preciseNow = (): number => performance.timeOrigin + performance.now();

const silent = {
  info: () => undefined,
  warn: () => undefined,
  error: (obj: object, msg: string) => console.error(msg, obj),
};

/** Makes `Date` (now, and `new Date()`) read `skewMs` ahead of the machine's clock; returns the undoing. */
export function skewClock(skewMs: number): () => void {
  const RealDate = Date;
  class SkewedDate extends RealDate {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Date's own overloads
    constructor(...args: any[]) {
      if (args.length === 0) super(RealDate.now() + skewMs);
      else super(...(args as [string]));
    }
    static override now(): number {
      return RealDate.now() + skewMs;
    }
  }
  globalThis.Date = SkewedDate as DateConstructor;
  return () => {
    globalThis.Date = RealDate;
  };
}

async function main(dataDir: string, mode: string, effectsFile: string): Promise<void> {
  if (process.env.CLOCK_SKEW_MS) skewClock(Number(process.env.CLOCK_SKEW_MS));
  const url = process.env.DATABASE_URL;
  let db: Database;
  let notifications: PostgresNotifications | undefined;
  if (url) {
    db = (await openPostgres({ url, label: 'test', poolSize: 4 })).db;
    notifications = new PostgresNotifications({ url });
  } else {
    db = (await openDatabase(dataDir)).db;
  }
  const queue = new JobQueue({
    db,
    logger: silent,
    pollIntervalMs: Number(process.env.POLL_MS ?? 20),
    leaseMs: Number(process.env.LEASE_MS ?? 1000),
    ...(notifications ? { notifications } : {}),
  });
  const recordEffect = (jobId: number) => fs.appendFileSync(effectsFile, `${jobId} ${process.pid}\n`);
  process.on('SIGTERM', () => {
    void queue
      .stop()
      .then(() => notifications?.close())
      .then(() => db.destroy())
      .then(() => process.exit(0));
  });

  if (mode === 'crash') {
    queue.register(crashKind, async (_payload, { jobId, signal }) => {
      process.stdout.write(`started ${jobId}\n`);
      await sleep(60_000, undefined, { signal });
      recordEffect(jobId);
    });
  } else if (mode === 'drain') {
    queue.register(
      bulkKind,
      async (_payload, { jobId }) => {
        await sleep(5);
        recordEffect(jobId);
      },
      { concurrency: 2 },
    );
    process.stdout.write('ready\n');
    while (!fs.existsSync(path.join(dataDir, 'go'))) await sleep(10);
  } else if (mode === 'wake') {
    queue.register(wakeKind, (_payload, { jobId }) => {
      process.stdout.write(`started ${jobId} ${preciseNow()}\n`);
      recordEffect(jobId);
    });
    queue.start();
    await queue.listening();
    process.stdout.write('ready\n');
    return;
  } else if (mode === 'skewed') {
    const job = await queue.enqueue(crashKind, { n: 2 });
    process.stdout.write(`enqueued ${job.id}\n`);
    queue.register(crashKind, (_payload, { jobId }) => {
      process.stdout.write(`started ${jobId}\n`);
      recordEffect(jobId);
    });
  } else if (mode === 'delayed') {
    const job = await queue.enqueue(crashKind, { n: 3 }, { delayMs: Number(process.env.DELAY_MS) });
    process.stdout.write(`enqueued ${job.id}\n`);
    return;
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
  queue.start();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dataDir, mode, effectsFile] = process.argv.slice(2);
  main(dataDir!, mode!, effectsFile!).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
