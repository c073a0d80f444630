import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// Advertisements (AdvertisementAPI): admin-written HTML shown in the slots of docs/product.md §9 between
// a start and an end time. Public pages ask for the live ads of their slots, hence the index.
const statements = [
  `CREATE TABLE advertisement (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL DEFAULT 0,
    position TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    content TEXT NOT NULL DEFAULT '',
    remark TEXT NOT NULL DEFAULT '',
    enable INTEGER NOT NULL DEFAULT 1,
    start_time TEXT,
    end_time TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE INDEX advertisement_live ON advertisement (enable, position, start_time, end_time)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, statements);
}
