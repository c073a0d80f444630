import type { Database } from '../../db';
import { now } from '../../db/schema';
import { applyPaging, countFromClient, countOf } from '../../wire/request';
import { SmsStatus } from '../../../shared/constants';

// The tables of the sms module: `sms_code` (codes sent, hashed) and `sms_log` (every message
// sent or tried, which the sending limits count).

export async function insertCode(
  db: Database,
  code: { mobile: string; purpose: string; code_hash: string; expires_at: string; created_at: string },
): Promise<number> {
  const row = await db.insertInto('sms_code').values(code).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** The newest code sent to this number for this purpose: only it counts, older ones are replaced. */
export async function latestCode(db: Database, mobile: string, purpose: string) {
  return db
    .selectFrom('sms_code')
    .selectAll()
    .where('mobile', '=', mobile)
    .where('purpose', '=', purpose)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** Counts a wrong try unless the code has had `maxAttempts` already; false when it had. */
export async function countWrongAttempt(db: Database, id: number, maxAttempts: number): Promise<boolean> {
  const result = await db
    .updateTable('sms_code')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('attempts', '<', maxAttempts)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Spends an unused code with fewer than `maxAttempts` wrong tries; false when another request was first. */
export async function markCodeUsed(db: Database, id: number, maxAttempts: number): Promise<boolean> {
  const result = await db
    .updateTable('sms_code')
    .set({ used_at: now() })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('attempts', '<', maxAttempts)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Drops codes that expired long ago; the log keeps the history. */
export async function pruneCodes(db: Database, before: string): Promise<void> {
  await db.deleteFrom('sms_code').where('expires_at', '<', before).execute();
}

/** `at`: the database's now, which the sending limits count back from. */
export async function insertLog(
  db: Database,
  log: { mobile: string; purpose: string; provider: string; ip: string },
  at: Date,
): Promise<number> {
  const ts = at.toISOString();
  const row = await db
    .insertInto('sms_log')
    .values({ ...log, status: SmsStatus.Sending, created_at: ts, updated_at: ts })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function finishLog(
  db: Database,
  id: number,
  outcome: { status: number; error?: string; biz_id?: string; content?: string },
): Promise<void> {
  await db
    .updateTable('sms_log')
    .set({ ...outcome, updated_at: now() })
    .where('id', '=', id)
    .execute();
}

/** Messages since `since` (ISO time), to one number, from one client (countFromClient), or all of them. */
export async function countSent(
  db: Database,
  filter: { since: string; mobile?: string; client?: { ip: string; ipv6Prefix: number }; status?: number },
): Promise<number> {
  let query = db.selectFrom('sms_log').where('created_at', '>', filter.since);
  if (filter.mobile !== undefined) query = query.where('mobile', '=', filter.mobile);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  const client = filter.client;
  return client === undefined ? countOf(query) : countFromClient(db, query, client.ip, client.ipv6Prefix);
}

/** When the last message to this number was tried, or undefined. */
export async function lastSentAt(db: Database, mobile: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('sms_log')
    .select('created_at')
    .where('mobile', '=', mobile)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row?.created_at;
}

export interface LogFilter {
  mobile: string;
  ip: string;
  purposes: string[];
  providers: string[];
  statuses: number[];
  page: number;
  size: number;
}

/** One page of the log, newest first. */
export async function listLogs(db: Database, filter: LogFilter) {
  let query = db.selectFrom('sms_log');
  if (filter.mobile) query = query.where('mobile', '=', filter.mobile);
  if (filter.ip) query = query.where('ip', '=', filter.ip);
  if (filter.purposes.length) query = query.where('purpose', 'in', filter.purposes);
  if (filter.providers.length) query = query.where('provider', 'in', filter.providers);
  if (filter.statuses.length) query = query.where('status', 'in', filter.statuses);
  const rows = await applyPaging(
    query
      .select(['id', 'mobile', 'purpose', 'provider', 'status', 'error', 'biz_id', 'ip', 'created_at', 'updated_at'])
      .orderBy('id', 'desc'),
    filter.page,
    filter.size,
  ).execute();
  return { rows, total: await countOf(query) };
}
