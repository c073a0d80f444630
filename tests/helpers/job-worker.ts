import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../backend/db';
import { JobQueue, jobKind } from '../../backend/platform/jobs/job-queue';

// A job queue in a process of its own, for tests/backend/job-queue.test.ts:
//   job-worker.ts <dataDir> crash <effectsFile>  runs `test.crash` jobs whose handler never
//                                                 finishes (the test kills the process)
//   job-worker.ts <dataDir> drain <effectsFile>  waits for <dataDir>/go, then runs `test.bulk`
//                                                 jobs; SIGTERM stops it gracefully
// Every handler that completes appends "<job id> <pid>" to the effects file.

export const crashKind = jobKind<{ n: number }>('test.crash');
export const bulkKind = jobKind<{ n: number }>('test.bulk');

const silent = { info: () => undefined, warn: () => undefined, error: (obj: object, msg: string) => console.error(msg, obj) };

async function main(dataDir: string, mode: string, effectsFile: string): Promise<void> {
  const { db } = await openDatabase(dataDir);
  const queue = new JobQueue({ db, logger: silent, pollIntervalMs: 20, leaseMs: Number(process.env.LEASE_MS ?? 1000) });
  const recordEffect = (jobId: number) => fs.appendFileSync(effectsFile, `${jobId} ${process.pid}\n`);
  process.on('SIGTERM', () => {
    void queue.stop().then(() => db.destroy()).then(() => process.exit(0));
  });

  if (mode === 'crash') {
    queue.register(crashKind, async (_payload, { jobId, signal }) => {
      process.stdout.write(`started ${jobId}\n`);
      await sleep(60_000, undefined, { signal });
      recordEffect(jobId);
    });
  } else if (mode === 'drain') {
    queue.register(bulkKind, async (_payload, { jobId }) => {
      await sleep(5);
      recordEffect(jobId);
    }, { concurrency: 2 });
    process.stdout.write('ready\n');
    while (!fs.existsSync(path.join(dataDir, 'go'))) await sleep(10);
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
