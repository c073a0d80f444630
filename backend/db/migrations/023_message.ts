import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// The members' 消息 centre (ours): what the site tells a member about their documents and
// comments (approved, rejected, failed to convert, answered). A member reads their own,
// newest first, and counts the unread ones.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE message (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      user_id INTEGER NOT NULL REFERENCES user (id) ON DELETE CASCADE,
      type INTEGER NOT NULL,
      title TEXT NOT NULL,
      content TEXT NOT NULL DEFAULT '',
      target_type INTEGER NOT NULL DEFAULT 0,
      target_id INTEGER NOT NULL DEFAULT 0,
      target_key TEXT NOT NULL DEFAULT '',
      read_at TEXT,
      created_at TEXT NOT NULL
    )`,
    `CREATE INDEX message_user ON message (user_id, id)`,
  ]);
}
