import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// `user.doc_count` now counts the documents a visitor can see (converted and not recycled),
// as the author card shows it; the document module keeps it so from now on.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `UPDATE user SET doc_count = (SELECT count(*) FROM document
    WHERE document.user_id = user.id AND document.deleted_at IS NULL AND document.status = 2)`,
  ]);
}
