import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// What members do with documents besides reading them (issue 13, part 2): favourites, the
// search log, and the indexes the download rules count with (downloads per user and per IP
// today, "bought before" per document and user).
const statements = [
  // `document_id` holds an article id when `type` = 1 (docs/moredoc.md §12).
  // `owner_id` and `award`: whose document it was and the credits it earned them
  // (score.document_collected, at most score.document_collected_limit times a day).
  `CREATE TABLE favorite (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL,
    document_id INTEGER NOT NULL,
    type INTEGER NOT NULL DEFAULT 0,
    owner_id INTEGER NOT NULL DEFAULT 0,
    award INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (user_id, type, document_id)
  )`,
  `CREATE INDEX favorite_target ON favorite (type, document_id)`,
  `CREATE INDEX favorite_owner_award ON favorite (owner_id, created_at) WHERE award > 0`,
  // `type` 0 document search, 1 article search; `spend_time` in seconds.
  `CREATE TABLE search_record (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL DEFAULT 0,
    ip TEXT NOT NULL DEFAULT '',
    total INTEGER NOT NULL DEFAULT 0,
    page INTEGER NOT NULL DEFAULT 0,
    user_agent TEXT NOT NULL DEFAULT '',
    keywords TEXT NOT NULL DEFAULT '',
    type INTEGER NOT NULL DEFAULT 0,
    spend_time REAL NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE INDEX search_record_created ON search_record (created_at)`,
  `DROP INDEX download_user`,
  `CREATE INDEX download_user_day ON download (user_id, created_at)`,
  `CREATE INDEX download_ip_day ON download (ip, created_at)`,
  `CREATE INDEX download_document_user ON download (document_id, user_id, is_pay)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, statements);
}
