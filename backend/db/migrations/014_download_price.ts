import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// A paid download keeps the credits it cost (`price`; 0 for a free one), for the member's
// download list. Earlier paid rows stay at 0: what they cost was not kept.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [`ALTER TABLE download ADD COLUMN price INTEGER NOT NULL DEFAULT 0`]);
}
