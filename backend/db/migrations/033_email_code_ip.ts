import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// The register codes one client address had mailed in the last hour are counted at every send
// (SendEmailCode's hourly limit per address, as an SMS code's sms_log_ip).
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [`CREATE INDEX email_code_ip ON email_code (ip, created_at)`]);
}
