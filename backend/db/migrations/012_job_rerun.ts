import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// A job asked for again while it runs (`enqueue(…, { again: true })` meeting its dedupe key)
// runs once more after the attempt under way, instead of the request being lost.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [`ALTER TABLE job ADD COLUMN rerun INTEGER NOT NULL DEFAULT 0`]);
}
