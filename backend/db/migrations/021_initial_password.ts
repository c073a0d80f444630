import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// The admin password the first start generated and printed, kept as its hash: while the
// account still has that hash, the dashboard's checklist asks the admin to change it (the
// password sits in the start's output and logs). Goes with the account.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE initial_password (
    user_id INTEGER PRIMARY KEY REFERENCES user (id) ON DELETE CASCADE,
    password TEXT NOT NULL,
    created_at TEXT NOT NULL
  )`,
  ]);
}
