import type { Insertable } from 'kysely';
import type { Database } from '../../db';
import { now, type MessageTable } from '../../db/schema';
import { applyPaging, countOf } from '../../wire/request';

// The `message` table: what the site told each member, newest first; `read_at` once read.

export type NewMessage = Omit<Insertable<MessageTable>, 'id' | 'created_at' | 'read_at'>;

const COLUMNS = [
  'id',
  'type',
  'title',
  'content',
  'target_type',
  'target_id',
  'target_key',
  'comment_id',
  'read_at',
  'created_at',
] as const;

export async function insertMessages(db: Database, rows: readonly NewMessage[]): Promise<void> {
  if (!rows.length) return;
  const ts = now();
  await db
    .insertInto('message')
    .values(rows.map((row) => ({ ...row, created_at: ts })))
    .execute();
}

/** One page of the member's messages (only the unread ones when `unread`), newest first. */
export async function listMessages(
  db: Database,
  userId: number,
  opts: { unread: boolean; page: number; size: number },
) {
  let base = db.selectFrom('message').where('user_id', '=', userId);
  if (opts.unread) base = base.where('read_at', 'is', null);
  const rows = await applyPaging(base.select(COLUMNS).orderBy('id', 'desc'), opts.page, opts.size).execute();
  return { rows, total: await countOf(base) };
}

export const countUnread = (db: Database, userId: number) =>
  countOf(db.selectFrom('message').where('user_id', '=', userId).where('read_at', 'is', null));

/** Marks the member's own messages among `ids` read, or all of them when `ids` is empty. */
export async function markRead(db: Database, userId: number, ids: readonly number[]): Promise<void> {
  let query = db
    .updateTable('message')
    .set({ read_at: now() })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null);
  if (ids.length) query = query.where('id', 'in', [...ids]);
  await query.execute();
}

/** Deletes the member's own messages among `ids`. */
export async function deleteMessages(db: Database, userId: number, ids: readonly number[]): Promise<void> {
  if (!ids.length) return;
  await db
    .deleteFrom('message')
    .where('user_id', '=', userId)
    .where('id', 'in', [...ids])
    .execute();
}
