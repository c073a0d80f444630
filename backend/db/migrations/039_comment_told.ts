import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// What a comment's author and the member it answers were told (decision 077), so that each hears of it once:
// `reply_told` 1 once the reply's visibility was told to the member it answers; `review_told` the review status
// (1 approved, 2 rejected) its author last heard of, 0 none. Earlier rows get what can still be told: an approved
// reply told its member on its approval; an approved or rejected comment's author knows its state (they see it
// marked beside their comment), and is not told it now.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE comment ADD COLUMN reply_told INTEGER NOT NULL DEFAULT 0`,
    `ALTER TABLE comment ADD COLUMN review_told INTEGER NOT NULL DEFAULT 0`,
    `UPDATE comment SET reply_told = 1 WHERE parent_id > 0 AND status = 1`,
    `UPDATE comment SET review_told = status WHERE status IN (1, 2)`,
  ]);
}
