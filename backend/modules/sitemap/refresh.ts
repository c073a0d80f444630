import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { BackendContext } from '../../platform/context';
import { jobKind } from '../../platform/jobs/job-queue';
import { sitemapDomain, writeSitemaps } from './files';

// The sitemaps are written again by a job: soon after content is published, changed or
// removed (the modules that publish call `scheduleSitemapRefresh` in their transaction), and
// once a day, as MOREDOC does. Publications within one window share one run at its end, and
// a run always starts after the writes that asked for it committed, so it sees them.

/** `daily`: the run of the day, which queues tomorrow's. */
const refreshSitemaps = jobKind<{ daily?: boolean }>('sitemap.refresh');

/** How long publications are gathered before one run writes the sitemaps. */
export const SITEMAP_REFRESH_WINDOW_MS = 30_000;
const DAY_MS = 24 * 60 * 60 * 1000;

async function refresh(app: BackendContext): Promise<void> {
  // Without the site's domain there are no absolute URLs to write; PUT /api/v1/sitemap says so.
  if (!(await sitemapDomain(app))) return;
  await writeSitemaps(app);
}

/** Queues a run at the end of the current window (`executor`: the caller's transaction). */
export async function scheduleSitemapRefresh(app: BackendContext, options: { executor?: Kysely<DB>; now?: number } = {}): Promise<void> {
  const runAt = new Date((Math.floor((options.now ?? Date.now()) / SITEMAP_REFRESH_WINDOW_MS) + 1) * SITEMAP_REFRESH_WINDOW_MS);
  await app.jobs.enqueue(refreshSitemaps, {}, {
    runAfter: runAt, dedupeKey: `sitemap.refresh:${runAt.toISOString()}`, ...(options.executor ? { executor: options.executor } : {}),
  });
}

async function enqueueDaily(app: BackendContext, runAfter: Date): Promise<void> {
  await app.jobs.enqueue(refreshSitemaps, { daily: true }, { runAfter, dedupeKey: `sitemap.daily:${runAfter.toISOString().slice(0, 10)}` });
}

/** Registers the job and queues today's run; called once per app before the queue starts. */
export async function scheduleDailySitemaps(app: BackendContext): Promise<void> {
  app.jobs.register(refreshSitemaps, async ({ daily }) => {
    await refresh(app);
    if (daily) await enqueueDaily(app, new Date(Date.now() + DAY_MS));
  }, { timeoutMs: 10 * 60_000 });
  await enqueueDaily(app, new Date());
}
