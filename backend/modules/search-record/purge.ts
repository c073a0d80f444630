import { databaseNow } from '../../db/dialect';
import type { BackendContext } from '../../platform/context';
import { jobKind } from '../../platform/jobs/job-queue';
import { deleteSearchRecordsBefore } from './store';

// The daily clean-up of the search log: records older than
// `security.search_record_retention_days` days are deleted (0 = nothing is recorded, and
// nothing is deleted either). The job runs at every start and then once a day: each run
// enqueues the next one, and the dedupe key (one per day) keeps a restart from doubling it.

const purgeSearchRecords = jobKind<Record<string, never>>('search-record.purge');
const DAY_MS = 24 * 60 * 60 * 1000;

const dedupeKeyFor = (day: Date) => `search-record.purge:${day.toISOString().slice(0, 10)}`;

/** Queues a run `delayMs` after the database's now (the day of that time names it). */
async function enqueuePurge(app: Pick<BackendContext, 'db' | 'jobs'>, delayMs: number): Promise<void> {
  const runAfter = new Date((await databaseNow(app.db)).getTime() + delayMs);
  await app.jobs.enqueue(purgeSearchRecords, {}, { runAfter, dedupeKey: dedupeKeyFor(runAfter) });
}

/** Removes what is past the retention, counted back from the database's now; returns how many records went. */
export async function purgeExpiredSearchRecords(app: Pick<BackendContext, 'db' | 'settings'>): Promise<number> {
  const retentionDays = (await app.settings.snapshot()).int('security', 'search_record_retention_days');
  if (retentionDays <= 0) return 0;
  const at = await databaseNow(app.db);
  return deleteSearchRecordsBefore(app.db, new Date(at.getTime() - retentionDays * DAY_MS));
}

/** Registers the job and queues a run now; called once per app before the queue starts. */
export async function schedulePurge(app: Pick<BackendContext, 'db' | 'jobs' | 'settings'>): Promise<void> {
  app.jobs.register(
    purgeSearchRecords,
    async () => {
      await purgeExpiredSearchRecords(app);
      await enqueuePurge(app, DAY_MS);
    },
    { timeoutMs: 5 * 60_000 },
  );
  await enqueuePurge(app, 0);
}
