import type { Kysely } from 'kysely';
import { databaseNow } from '../../db/dialect';
import type { DB } from '../../db/schema';
import type { BackendContext } from '../../platform/context';
import { jobKind } from '../../platform/jobs/job-queue';
import { sitemapDomain, writeSitemaps, writtenFingerprint } from './files';
import { contentFingerprint } from './sources';

// The sitemaps are written again by jobs, so that what is published, changed or removed shows
// there without an admin asking:
// - `sitemap.refresh`, queued on a change told to `contentChanges` (the modules whose content
//   the sitemaps list cannot import this module, which reads them): in the transaction of the
//   change for categories, after the change committed for articles. Changes within one window
//   share one run at its end, which starts after the writes that asked for it committed, so
//   it sees them;
// - `sitemap.watch`, every few minutes: it compares a fingerprint of what the sitemaps list
//   (counts and latest changes of the documents, articles and categories shown) with the one
//   of the files, and writes them again when they differ. It covers every way content is
//   published (uploads, conversions, reviews, the recycle bin) without each of them asking.

const refreshSitemaps = jobKind<Record<string, never>>('sitemap.refresh');
const watchContent = jobKind<Record<string, never>>('sitemap.watch');

/** How long changes are gathered before one run writes the sitemaps. */
export const SITEMAP_REFRESH_WINDOW_MS = 30_000;
/** How often the watch compares the content with the files. */
export const SITEMAP_WATCH_INTERVAL_MS = 5 * 60_000;

async function refresh(app: BackendContext): Promise<void> {
  // Without the site's domain there are no absolute URLs to write; PUT /api/v1/sitemap says so.
  if (!(await sitemapDomain(app))) return;
  await writeSitemaps(app);
}

/** The end of the window `now` falls in. */
const windowEnd = (now: number, window: number) => new Date((Math.floor(now / window) + 1) * window);

/**
 * Queues a run at the end of the current window (`executor`: the caller's transaction). When
 * that window's run is already under way (it started early: brought forward, or the clock of
 * the process that runs it is ahead), it may have read the content before this change, so the
 * change gets the next window's run instead of being merged into it.
 */
export async function scheduleSitemapRefresh(
  app: Pick<BackendContext, 'jobs' | 'db'>,
  options: { executor?: Kysely<DB>; now?: number } = {},
): Promise<void> {
  const enqueue = (runAt: Date) =>
    app.jobs.enqueue(
      refreshSitemaps,
      {},
      {
        runAfter: runAt,
        dedupeKey: `sitemap.refresh:${runAt.toISOString()}`,
        ...(options.executor ? { executor: options.executor } : {}),
      },
    );
  // The window by the database's clock: a process whose clock is off neither hastens nor delays the run.
  const now = options.now ?? (await databaseNow(options.executor ?? app.db)).getTime();
  const runAt = windowEnd(now, SITEMAP_REFRESH_WINDOW_MS);
  const run = await enqueue(runAt);
  if (run.state === 'running') await enqueue(new Date(runAt.getTime() + SITEMAP_REFRESH_WINDOW_MS));
}

/** Queues the watch now, or at the end of the current interval, by the database's clock. */
export async function enqueueSitemapWatch(
  app: Pick<BackendContext, 'db' | 'jobs'>,
  when: 'now' | 'next interval',
): Promise<void> {
  const now = await databaseNow(app.db);
  const runAfter = when === 'now' ? now : windowEnd(now.getTime(), SITEMAP_WATCH_INTERVAL_MS);
  await app.jobs.enqueue(watchContent, {}, { runAfter, dedupeKey: `sitemap.watch:${runAfter.toISOString()}` });
}

/**
 * Registers both jobs, listens to content changes and starts the watch; called once per app before the queue starts.
 */
export async function startSitemapJobs(app: BackendContext): Promise<void> {
  app.jobs.register(refreshSitemaps, () => refresh(app), { timeoutMs: 10 * 60_000 });
  // Categories are followed in their transaction, documents by the watch.
  app.contentChanges.subscribe(async (change) => {
    if (change.content === 'article' && change.ids.length) await scheduleSitemapRefresh(app);
  });
  app.contentChanges.subscribeInTransaction((_change, trx) => scheduleSitemapRefresh(app, { executor: trx }));
  app.jobs.register(
    watchContent,
    async () => {
      try {
        if ((await contentFingerprint(app.db)) !== (await writtenFingerprint(app))) await refresh(app);
      } finally {
        await enqueueSitemapWatch(app, 'next interval');
      }
    },
    { timeoutMs: 10 * 60_000, maxAttempts: 1 },
  );
  await enqueueSitemapWatch(app, 'now');
}
