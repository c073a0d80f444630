import type { DownloadReason } from '../../../shared/messages/download';
import type { Database } from '../../db';
import { flag } from '../../db/schema';
import { applyPaging, countFromClient, countOf } from '../../wire/request';

// The `download` table: one row per granted download link, `is_pay` when credits moved, `reason` why
// (schema.ts DownloadTable).

export async function countUserDownloadsSince(db: Database, userId: number, since: string): Promise<number> {
  return countOf(db.selectFrom('download').where('user_id', '=', userId).where('created_at', '>=', since));
}

export async function countIpDownloadsSince(
  db: Database,
  client: { ip: string; ipv6Prefix: number },
  since: string,
): Promise<number> {
  return countFromClient(db, db.selectFrom('download').where('created_at', '>=', since), client.ip, client.ipv6Prefix);
}

/** Did the user pay for this document (since `since`, or ever when null)? */
export async function hasPaidFor(
  db: Database,
  userId: number,
  documentId: number,
  since: string | null,
): Promise<boolean> {
  let query = db
    .selectFrom('download')
    .select('id')
    .where('document_id', '=', documentId)
    .where('user_id', '=', userId)
    .where('is_pay', '=', 1);
  if (since) query = query.where('created_at', '>=', since);
  return (await query.executeTakeFirst()) !== undefined;
}

/**
 * `price`: the document's price, moved when the `reason` is `paid`. `at`: the database's now,
 * which the daily limits count by (a row stamped by a machine behind would fall on yesterday).
 */
export async function insertDownload(
  db: Database,
  row: { userId: number; documentId: number; ip: string; reason: DownloadReason; price: number },
  at: Date,
): Promise<void> {
  const ts = at.toISOString();
  await db
    .insertInto('download')
    .values({
      user_id: row.userId,
      document_id: row.documentId,
      ip: row.ip,
      is_pay: flag(row.reason === 'paid'),
      price: row.price,
      reason: row.reason,
      created_at: ts,
      updated_at: ts,
    })
    .execute();
}

/** One page of a member's downloads, newest first. */
export async function listUserDownloads(db: Database, userId: number, page: number, size: number) {
  const base = db.selectFrom('download').where('user_id', '=', userId);
  const rows = await applyPaging(base.selectAll().orderBy('id', 'desc'), page, size).execute();
  return { rows, total: await countOf(base) };
}
