import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// A member's documents (我的文档, a member's page, the admin's list filtered by uploader) are asked
// for newest first. On PostgreSQL, document_user (user_id) gave them in no order: the planner
// walked the whole table backwards by id until it met enough of theirs (a member whose 500
// documents are the oldest of 20,000: 0.07–0.13 s a page; with this index 0.2 ms). On SQLite an
// index carries the rowid (the id) after its columns: document_user served already, and this one
// serves the same. It takes document_user's place.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [`CREATE INDEX document_user_id ON document (user_id, id)`, `DROP INDEX document_user`]);
}
