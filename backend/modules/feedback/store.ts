import type { Insertable } from 'kysely';
import type { Database } from '../../db';
import { databaseNowText, like } from '../../db/dialect';
import { now, type FeedbackTable } from '../../db/schema';
import { applyPaging, countFromClient, countOf, likePattern, rowOr404 } from '../../wire/request';

// The `feedback` table (ours): what visitors and members tell the site, and the admin's reply.

type NewFeedback = Pick<Insertable<FeedbackTable>, 'user_id' | 'content' | 'contact' | 'image' | 'page' | 'ip'>;

export const feedbackOr404 = (db: Database, id: number) => rowOr404(db, 'feedback', id, '反馈不存在');

/** Stamped by the database's clock, which the hourly limit counts by (countRecentFeedback). */
export async function insertFeedback(db: Database, feedback: NewFeedback): Promise<void> {
  const ts = databaseNowText(db);
  await db
    .insertInto('feedback')
    .values({ ...feedback, created_at: ts, updated_at: ts })
    .execute();
}

/**
 * Feedback sent within the last `withinMs` by the database's clock (the same for every machine)
 * from this address, or by this user when one is logged in.
 */
export async function countRecentFeedback(
  db: Database,
  withinMs: number,
  client: { ip: string; ipv6Prefix: number },
  userId: number,
): Promise<number> {
  const recent = db.selectFrom('feedback').where('created_at', '>=', databaseNowText(db, -withinMs));
  if (userId <= 0) return countFromClient(db, recent, client.ip, client.ipv6Prefix);
  return (
    (await countOf(recent.where('user_id', '=', userId))) +
    (await countFromClient(db, recent.where('user_id', '<>', userId), client.ip, client.ipv6Prefix))
  );
}

export async function handleFeedback(
  db: Database,
  id: number,
  columns: { status: number; reply: string; handled_at: string | null },
): Promise<void> {
  await db
    .updateTable('feedback')
    .set({ ...columns, updated_at: now() })
    .where('id', '=', id)
    .execute();
}

export async function deleteFeedback(db: Database, ids: readonly number[]): Promise<void> {
  await db
    .deleteFrom('feedback')
    .where('id', 'in', [...ids])
    .execute();
}

export async function listFeedback(
  db: Database,
  filter: { statuses: number[]; wd: string; page: number; size: number },
) {
  let query = db.selectFrom('feedback');
  if (filter.statuses.length) query = query.where('status', 'in', filter.statuses);
  if (filter.wd.trim()) {
    const p = likePattern(filter.wd);
    query = query.where((eb) => eb.or([like(db, 'content', p), like(db, 'contact', p), like(db, 'reply', p)]));
  }
  const rows = await applyPaging(query.selectAll().orderBy('id', 'desc'), filter.page, filter.size).execute();
  return { rows, total: await countOf(query) };
}
