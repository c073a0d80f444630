import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// A member's `comment_count` (their approved comments) was never kept: count it once; the
// comment module keeps it from now on.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `UPDATE user SET comment_count = (SELECT count(*) FROM comment WHERE comment.user_id = user.id AND comment.status = 1)`,
  ]);
}
