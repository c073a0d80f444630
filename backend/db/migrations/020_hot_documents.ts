import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// 热门文档: views per document and day (downloads and favourites have dated rows of their own),
// and the ranking the `document.hot` job computes from the last 30 days of them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE document_view_day (
      document_id INTEGER NOT NULL REFERENCES document(id) ON DELETE CASCADE,
      day TEXT NOT NULL,
      views INTEGER NOT NULL DEFAULT 0,
      CONSTRAINT document_view_day_pk PRIMARY KEY (document_id, day)
    )`,
    `CREATE INDEX document_view_day_day ON document_view_day (day)`,
    `CREATE TABLE document_hot (
      document_id INTEGER PRIMARY KEY REFERENCES document(id) ON DELETE CASCADE,
      place INTEGER NOT NULL,
      score REAL NOT NULL,
      computed_at TEXT NOT NULL
    )`,
    `CREATE INDEX document_hot_place ON document_hot (place)`,
  ]);
}
