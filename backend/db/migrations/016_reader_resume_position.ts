import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// Where each member last read each document (the reader offers "继续阅读（第 N 页）" on any of
// their devices). One row per member and document, replaced as they read on.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE reading_position (
      user_id INTEGER NOT NULL,
      document_id INTEGER NOT NULL REFERENCES document(id) ON DELETE CASCADE,
      page INTEGER NOT NULL,
      updated_at TEXT NOT NULL,
      CONSTRAINT reading_position_pk PRIMARY KEY (user_id, document_id)
    )`,
    `CREATE INDEX reading_position_document ON reading_position (document_id)`,
  ]);
}
