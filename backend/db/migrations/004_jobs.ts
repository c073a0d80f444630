import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// The durable job queue of backend/platform/jobs (conversion, clean-up, order expiry): a row
// per job, claimed with a lease so that a crashed process loses nothing.
const statements = [
  `CREATE TABLE job (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL,
    run_after TEXT NOT NULL,
    lease_owner TEXT,
    lease_expires_at TEXT,
    last_error TEXT NOT NULL DEFAULT '',
    progress TEXT,
    dedupe_key TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    finished_at TEXT
  )`,
  // The claim looks for queued jobs that are due, or running jobs whose lease has expired.
  `CREATE INDEX job_claim ON job (kind, state, run_after)`,
  `CREATE INDEX job_lease ON job (kind, lease_expires_at) WHERE state = 'running'`,
  // "Convert document 42" is queued at most once at a time; a finished one may be queued again.
  `CREATE UNIQUE INDEX job_dedupe ON job (dedupe_key) WHERE dedupe_key IS NOT NULL AND state IN ('queued', 'running')`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, statements);
}
