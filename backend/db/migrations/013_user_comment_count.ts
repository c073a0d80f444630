import { sql, type Kysely } from 'kysely';

// A member's `comment_count` (their approved comments) was never kept: count it once; the
// comment module keeps it from now on.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`UPDATE user SET comment_count = (SELECT count(*) FROM comment WHERE comment.user_id = user.id AND comment.status = 1)`).execute(db);
}
