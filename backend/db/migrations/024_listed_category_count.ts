import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// A document category's `doc_count` now counts the documents visitors can list (converted,
// outside the recycle bin), as the library under it lists them and `user.doc_count` counts
// (022); the document module keeps it so from now on. Recounted once here, as
// `recountCategories` does.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `WITH RECURSIVE tree(ancestor_id, id) AS (
      SELECT id, id FROM category WHERE type = 0
      UNION ALL SELECT tree.ancestor_id, c.id FROM category c JOIN tree ON c.parent_id = tree.id WHERE c.type = 0)
    UPDATE category SET doc_count = (
      SELECT count(DISTINCT dc.document_id) FROM tree
      JOIN document_category dc ON dc.category_id = tree.id
      JOIN document d ON d.id = dc.document_id AND d.deleted_at IS NULL AND d.status = 2
      WHERE tree.ancestor_id = category.id)
    WHERE type = 0`,
  ]);
}
