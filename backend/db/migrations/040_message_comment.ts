import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// The comment a message is about (a reply to the member's comment, their comment approved or rejected), so that
// its link opens the page at that very comment; 0 for the other kinds. Messages written before it keep 0 and lead
// to the page's comments, as they did: which comment an older one meant is not recorded anywhere.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [`ALTER TABLE message ADD COLUMN comment_id INTEGER NOT NULL DEFAULT 0`]);
}
