import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// Articles, comments, reports and feedback (issue 15). The first three tables exist since
// 002_content; this adds what their services look rows up by, reports on articles (`type`,
// ours) with the reporter's words kept apart from the admin's note, at most one open report
// per reporter and target, and the feedback table of FeedbackAPI (ours, docs/api.md).
const statements = [
  `CREATE INDEX article_listing ON article (deleted_at, status, id)`,
  `CREATE INDEX article_user ON article (user_id)`,
  `CREATE INDEX article_category_category ON article_category (category_id)`,
  `CREATE INDEX comment_target ON comment (type, document_id, status)`,
  `CREATE INDEX comment_user ON comment (user_id, id)`,
  `CREATE INDEX comment_parent ON comment (parent_id)`,
  `ALTER TABLE report ADD COLUMN type INTEGER NOT NULL DEFAULT 0`,
  `ALTER TABLE report ADD COLUMN description TEXT NOT NULL DEFAULT ''`,
  `CREATE UNIQUE INDEX report_open ON report (user_id, type, document_id) WHERE status = 0`,
  `CREATE TABLE feedback (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL DEFAULT 0,
    content TEXT NOT NULL,
    contact TEXT NOT NULL DEFAULT '',
    image TEXT NOT NULL DEFAULT '',
    page TEXT NOT NULL DEFAULT '',
    status INTEGER NOT NULL DEFAULT 0,
    reply TEXT NOT NULL DEFAULT '',
    ip TEXT NOT NULL DEFAULT '',
    handled_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE INDEX feedback_status ON feedback (status, id)`,
  `CREATE INDEX feedback_ip ON feedback (ip, created_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, statements);
}
