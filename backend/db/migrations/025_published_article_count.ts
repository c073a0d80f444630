import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// An article category's `doc_count` now counts the articles visitors can list (published,
// outside the recycle bin), as the article list under it lists them and as the document
// categories count theirs (024); the article module keeps it so from now on. Recounted once
// here, as `recountCategories` does.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `WITH RECURSIVE tree(ancestor_id, id) AS (
      SELECT id, id FROM category WHERE type = 1
      UNION ALL SELECT tree.ancestor_id, c.id FROM category c JOIN tree ON c.parent_id = tree.id WHERE c.type = 1)
    UPDATE category SET doc_count = (
      SELECT count(DISTINCT ac.article_id) FROM tree
      JOIN article_category ac ON ac.category_id = tree.id
      JOIN article a ON a.id = ac.article_id AND a.deleted_at IS NULL AND a.status = 1
      WHERE tree.ancestor_id = category.id)
    WHERE type = 1`,
  ]);
}
