import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// The views counted today (decision 119), one row per UTC day of the database's clock and reader
// key (`document 12 198.51.100.7`: kind, id, addressKey), so that every backend process sharing the
// database counts a reader's view once a day between them. `id` orders the rows as they came: past
// its bound the table forgets the oldest first (backend/platform/views-seen.ts).
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE view_seen (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      day TEXT NOT NULL,
      key TEXT NOT NULL
    )`,
    `CREATE UNIQUE INDEX view_seen_day_key ON view_seen (day, key)`,
  ]);
}
