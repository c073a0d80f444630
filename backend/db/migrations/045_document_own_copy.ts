import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// `own_copy` 1: a document CreateDocument made of a file its uploader had a document of already, or
// of the second of two uploads of one file in one request (decision 109). Such a document earns no
// upload reward and takes none of the day's rewards (decision 115). Documents made before keep 0:
// counted, as they were, among the days they were made on.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [`ALTER TABLE document ADD COLUMN own_copy INTEGER NOT NULL DEFAULT 0`]);
}
