import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// A mailed register code counts its wrong tries, as an SMS code does (sms_code.attempts): six
// digits and no count let a registration guess its way through within the code's 30 minutes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [`ALTER TABLE email_code ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0`]);
}
