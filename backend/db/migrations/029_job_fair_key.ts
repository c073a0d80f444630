import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// `job.fair_key`: whose job it is (a conversion's uploader), so that a claim takes the jobs of
// keys with the fewest jobs running first (platform/jobs/job-queue.ts). Jobs queued before, and
// kinds that set none, have NULL and are claimed oldest first, as before. No index: the claim
// counts the keys of the running jobs (no more than the slots) found by `job_claim`.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [`ALTER TABLE job ADD COLUMN fair_key TEXT`]);
}
