import type { BackendContext } from '../../platform/context';
import { jobKind } from '../../platform/jobs/job-queue';
import type { Database } from '../../db';
import { chunks, databaseNow, databaseServerDay } from '../../db/dialect';
import { serverDayOf } from '../../db/schema';
import { DocumentStatus } from '../../../shared/constants';
import { applyPaging, countOf } from '../../wire/request';
import type { DocumentRow } from './store';

// 热门文档: public, converted documents ranked by what readers did with them over the last
// HOT_WINDOW_DAYS days, recomputed by the `document.hot` job (at start, then every hour) into
// `document_hot` (migration 020), never per request. Views are counted per day in
// `document_view_day` (GetDocument with `with_author`, as `view_count`: once a day per address,
// decision 119); downloads and favourites are the dated rows of `download` and `favorite`
// (documents only).

export const HOT_WINDOW_DAYS = 30;
/** score = views × 1 + downloads × 5 + favourites × 10: a download or a favourite means more than a look. */
export const HOT_WEIGHTS = { view: 1, download: 5, favorite: 10 } as const;
/** The ranking keeps this many documents. */
const HOT_LIMIT = 500;
const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

export const hotDocumentsKind = jobKind<Record<string, never>>('document.hot');

/**
 * Counts one view of the document today (the server's day of the database's now, whatever this
 * machine's clock says: the day its reader's view is remembered on), read in the statement itself:
 * a view costs no query more.
 */
export async function countViewToday(db: Database, documentId: number): Promise<void> {
  await db
    .insertInto('document_view_day')
    .values({ document_id: documentId, day: databaseServerDay(db), views: 1 })
    .onConflict((oc) =>
      oc.columns(['document_id', 'day']).doUpdateSet((eb) => ({ views: eb('document_view_day.views', '+', 1) })),
    )
    .execute();
}

/** Recomputes the ranking from the window ending at the database's now; returns how many documents it holds. */
export async function recomputeHotDocuments(db: Database): Promise<number> {
  const at = await databaseNow(db);
  const since = new Date(at.getTime() - HOT_WINDOW_DAYS * DAY_MS);
  const scores = new Map<number, number>();
  const add = (rows: { document_id: number; n: number | string | bigint | null }[], weight: number) => {
    for (const row of rows)
      scores.set(row.document_id, (scores.get(row.document_id) ?? 0) + Number(row.n ?? 0) * weight);
  };
  add(
    await db
      .selectFrom('document_view_day')
      .select((eb) => ['document_id', eb.fn.sum<number>('views').as('n')])
      .where('day', '>=', serverDayOf(since))
      .groupBy('document_id')
      .execute(),
    HOT_WEIGHTS.view,
  );
  add(
    await db
      .selectFrom('download')
      .select((eb) => ['document_id', eb.fn.countAll<number>().as('n')])
      .where('created_at', '>=', since.toISOString())
      .groupBy('document_id')
      .execute(),
    HOT_WEIGHTS.download,
  );
  add(
    await db
      .selectFrom('favorite')
      .select((eb) => ['document_id', eb.fn.countAll<number>().as('n')])
      .where('type', '=', 0)
      .where('created_at', '>=', since.toISOString())
      .groupBy('document_id')
      .execute(),
    HOT_WEIGHTS.favorite,
  );

  // Only what strangers may read: live, converted (hidden, pending and failed ones never rank).
  const listed = new Set<number>();
  for (const ids of chunks([...scores.keys()])) {
    const rows = await db
      .selectFrom('document')
      .select('id')
      .where('id', 'in', ids)
      .where('deleted_at', 'is', null)
      .where('status', '=', DocumentStatus.Converted)
      .execute();
    for (const row of rows) listed.add(row.id);
  }
  const ranked = [...scores]
    .filter(([id, score]) => listed.has(id) && score > 0)
    .sort(([a, x], [b, y]) => y - x || b - a)
    .slice(0, HOT_LIMIT);
  const computedAt = at.toISOString();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('document_hot').execute();
    const rows = ranked.map(([documentId, score], i) => ({
      document_id: documentId,
      place: i + 1,
      score,
      computed_at: computedAt,
    }));
    for (const part of chunks(rows)) await trx.insertInto('document_hot').values(part).execute();
  });
  // Days past the window count no more.
  await db.deleteFrom('document_view_day').where('day', '<', serverDayOf(since)).execute();
  return ranked.length;
}

/** The ranking's documents still public and converted (the job's view may be an hour old), best first. */
export async function hotDocuments(
  db: Database,
  page: number,
  size: number,
  excludeIds: readonly number[] = [],
): Promise<{ rows: DocumentRow[]; total: number }> {
  let query = db
    .selectFrom('document_hot')
    .innerJoin('document', 'document.id', 'document_hot.document_id')
    .where('document.deleted_at', 'is', null)
    .where('document.status', '=', DocumentStatus.Converted);
  if (excludeIds.length) query = query.where('document.id', 'not in', [...excludeIds]);
  const rows = await applyPaging(query.selectAll('document').orderBy('document_hot.place'), page, size).execute();
  return { rows, total: await countOf(query) };
}

const dedupeKeyFor = (at: Date) => `document.hot:${at.toISOString().slice(0, 13)}`;

/** Queues a run `delayMs` after the database's now (the hour of that time names it). */
async function enqueueRecompute(app: Pick<BackendContext, 'db' | 'jobs'>, delayMs: number): Promise<void> {
  const runAfter = new Date((await databaseNow(app.db)).getTime() + delayMs);
  await app.jobs.enqueue(hotDocumentsKind, {}, { runAfter, dedupeKey: dedupeKeyFor(runAfter) });
}

/**
 * Registers the job and queues a run now; each run queues the next an hour later (one per
 * hour: the dedupe key keeps a restart from starting a second chain).
 */
export async function scheduleHotDocuments(app: Pick<BackendContext, 'db' | 'jobs'>): Promise<void> {
  app.jobs.register(
    hotDocumentsKind,
    async () => {
      await recomputeHotDocuments(app.db);
      await enqueueRecompute(app, HOUR_MS);
    },
    { timeoutMs: 10 * 60_000 },
  );
  await enqueueRecompute(app, 0);
}
