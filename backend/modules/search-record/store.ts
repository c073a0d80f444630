import { sql } from 'kysely';
import type { Database } from '../../db';
import { databaseNow, like } from '../../db/dialect';
import { applyPaging, countOf, likePattern, parseOrder } from '../../wire/request';

// The `search_record` table: one row per search (documents type 0, articles type 1), kept
// `security.search_record_retention_days` days.

const ORDER_COLUMNS = [
  'id',
  'user_id',
  'ip',
  'total',
  'page',
  'user_agent',
  'keywords',
  'spend_time',
  'created_at',
  'updated_at',
];

export const SearchTarget = { Document: 0, Article: 1 } as const;
export type SearchTarget = (typeof SearchTarget)[keyof typeof SearchTarget];

export interface NewSearchRecord {
  type: SearchTarget;
  userId: number;
  ip: string;
  userAgent: string;
  keywords: string;
  page: number;
  total: number;
  /** Seconds the search took. */
  spendTime: number;
}

/** Stamped with the database's now, as the purge's cut-off is counted: kept the retention's days exactly. */
export async function insertSearchRecord(db: Database, record: NewSearchRecord): Promise<void> {
  const ts = (await databaseNow(db)).toISOString();
  await db
    .insertInto('search_record')
    .values({
      type: record.type,
      user_id: record.userId,
      ip: record.ip,
      user_agent: record.userAgent,
      keywords: record.keywords,
      page: record.page,
      total: record.total,
      spend_time: record.spendTime,
      created_at: ts,
      updated_at: ts,
    })
    .execute();
}

/** Admin list: `keywords` and `ip` are LIKE filters OR-ed together, `user_id` an IN filter (docs/moredoc.md §6). */
export async function listSearchRecords(
  db: Database,
  filter: { keywords: string; ip: string; userIds: number[]; order: string; page: number; size: number },
) {
  let query = db.selectFrom('search_record');
  if (filter.userIds.length) query = query.where('user_id', 'in', filter.userIds);
  const keywords = filter.keywords.trim();
  const ip = filter.ip.trim();
  if (keywords || ip) {
    query = query.where((eb) =>
      eb.or([
        ...(keywords ? [like(db, 'keywords', likePattern(keywords))] : []),
        ...(ip ? [like(db, 'ip', likePattern(ip))] : []),
      ]),
    );
  }
  let rowsQuery = query.selectAll();
  const order = parseOrder(filter.order, ORDER_COLUMNS);
  for (const o of order.length ? order : [{ column: sql.ref('id'), direction: 'desc' as const }])
    rowsQuery = rowsQuery.orderBy(o.column, o.direction);
  const rows = await applyPaging(rowsQuery, filter.page, filter.size).execute();
  return { rows, total: await countOf(query) };
}

export async function deleteSearchRecords(db: Database, ids: number[]): Promise<void> {
  await db.deleteFrom('search_record').where('id', 'in', ids).execute();
}

/** Removes the records created before `cutoff`; returns how many. */
export async function deleteSearchRecordsBefore(db: Database, cutoff: Date): Promise<number> {
  const result = await db.deleteFrom('search_record').where('created_at', '<', cutoff.toISOString()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
