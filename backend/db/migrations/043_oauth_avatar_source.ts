import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// The provider's avatar a binding's member was given a copy of (docs/decisions/104-oauth-avatars-copied.md):
// `avatar_source`, the address the copy was made from, and `avatar`, the copy's /uploads/ path. A sign-in whose
// provider names another address copies that one, while the member's avatar is still that copy (not one they set
// since). Bindings made before keep '' in both: which avatar of theirs was copied is not recorded, so theirs is
// left alone, as before.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE oauth_binding ADD COLUMN avatar_source TEXT NOT NULL DEFAULT ''`,
    `ALTER TABLE oauth_binding ADD COLUMN avatar TEXT NOT NULL DEFAULT ''`,
  ]);
}
