import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// A password change ends the sessions opened before it (platform/auth/session.ts):
// `sessions_from` is when (ms since the epoch; a login token issued earlier is refused), `session_kept`
// the one session that stays, the one that changed its own password. Both NULL until a change.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE user ADD COLUMN sessions_from INTEGER`,
    `ALTER TABLE user ADD COLUMN session_kept TEXT`,
  ]);
}
