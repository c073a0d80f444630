import { sql, type Kysely } from 'kysely';

// A member's avatar was the OAuth provider's address (WeChat's or QQ's image host) until their
// avatars were copied to our storage at sign-in (docs/decisions/104-oauth-avatars-copied.md), or
// any http(s) address a profile named before only uploaded ones were taken: whoever served it
// learnt the address of every viewer. Such avatars go back to the default one; an OAuth member
// gets their provider's avatar again, copied, at their next sign-in.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE "user" SET avatar = '' WHERE avatar LIKE '%://%' OR avatar LIKE '//%'`.execute(db);
}
