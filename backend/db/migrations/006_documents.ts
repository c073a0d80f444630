import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// The document module's tables beyond migration 002: the file a document was made from (its
// MD5, which names its pages folder), the extracted text, ratings, and the cached list of
// related documents.
const statements = [
  // `hash` is the attachment's MD5: pages, covers and the conversion of every document with
  // the same content live under documents/<h0>/…/<h4>/<hash>/.
  `ALTER TABLE document ADD COLUMN hash TEXT NOT NULL DEFAULT ''`,
  `ALTER TABLE document ADD COLUMN attachment_id INTEGER NOT NULL DEFAULT 0`,
  `UPDATE document SET hash = coalesce((SELECT a.hash FROM attachment a WHERE a.type = 2 AND a.type_id = document.id ORDER BY a.id DESC LIMIT 1), ''),
    attachment_id = coalesce((SELECT a.id FROM attachment a WHERE a.type = 2 AND a.type_id = document.id ORDER BY a.id DESC LIMIT 1), 0)`,
  `CREATE INDEX document_hash ON document (hash)`,
  `CREATE INDEX document_listing ON document (deleted_at, status, id)`,
  `CREATE INDEX document_category_document ON document_category (document_id)`,
  // The extracted text (NFKC), one row per document: UpdateDocument may replace one
  // document's text without touching its same-content twins.
  `CREATE TABLE document_content (
    document_id INTEGER PRIMARY KEY REFERENCES document (id) ON DELETE CASCADE,
    content TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE TABLE document_score (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    document_id INTEGER NOT NULL REFERENCES document (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    score INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (document_id, user_id)
  )`,
  `CREATE INDEX document_score_user ON document_score (user_id)`,
  // GetRelatedDocuments' answer, kept security.document_related_duration days.
  `CREATE TABLE document_related (
    document_id INTEGER PRIMARY KEY REFERENCES document (id) ON DELETE CASCADE,
    related_ids TEXT NOT NULL DEFAULT '[]',
    expires_at TEXT NOT NULL
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, statements);
}
