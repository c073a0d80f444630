import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// A document's text keeps its pages apart (a form feed between them), so that a reader is
// given the text of the pages they may read and no more. `pages` says how many page texts
// `content` holds; 0 for a text that is not split: one converted before this migration, or one
// written through UpdateDocument. Such a text goes only to readers of every page.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [`ALTER TABLE document_content ADD COLUMN pages INTEGER NOT NULL DEFAULT 0`]);
}
