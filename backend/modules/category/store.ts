import { sql, type Insertable } from 'kysely';
import type { Database } from '../../db';
import { like, lockKeys } from '../../db/dialect';
import { now, type CategoryTable } from '../../db/schema';
import { isInSubtree } from '../../db/tree';
import { LISTED_DOCUMENT_STATUS, PUBLISHED_ARTICLE_STATUS } from '../../../shared/constants';
import { applyPaging, countOf, likePattern, rowOr404 } from '../../wire/request';

// The `category` table: document (type 0) and article (type 1) categories, a tree through
// parent_id; `doc_count` counts what is filed in a category and below it that visitors can
// list (docs/api.md "Counts visitors see"): converted documents, published articles, outside the
// recycle bin.

export const CATEGORY_COLUMNS = [
  'id',
  'parent_id',
  'title',
  'doc_count',
  'sort',
  'enable',
  'cover',
  'created_at',
  'updated_at',
  'icon',
  'description',
  'show_description',
  'type',
];

type CategoryColumns = Omit<Insertable<CategoryTable>, 'id' | 'doc_count' | 'created_at' | 'updated_at'>;

export const categoryOr404 = (db: Database, id: number) => rowOr404(db, 'category', id, '分类不存在');

export async function findParent(db: Database, id: number) {
  return db.selectFrom('category').select(['id', 'type']).where('id', '=', id).executeTakeFirst();
}

/** Would hanging `id` under `parentId` make a cycle? */
export const isBelow = (db: Database, parentId: number, id: number) => isInSubtree(db, 'category', parentId, id);

/**
 * Adds categories. A title that exists under the same parent (of the same type) breaks the
 * unique constraint (type, parent_id, title): the caller maps it to 409 and its transaction
 * keeps none of the rows.
 */
export async function insertCategories(db: Database, rows: CategoryColumns[]): Promise<void> {
  const ts = now();
  for (const row of rows) {
    await db
      .insertInto('category')
      .values({ ...row, created_at: ts, updated_at: ts })
      .execute();
  }
}

export async function titleTaken(
  db: Database,
  category: { id: number; type: number; parent_id: number; title: string },
): Promise<boolean> {
  const clash = await db
    .selectFrom('category')
    .select('id')
    .where('type', '=', category.type)
    .where('parent_id', '=', category.parent_id)
    .where('title', '=', category.title)
    .where('id', '!=', category.id)
    .executeTakeFirst();
  return clash !== undefined;
}

export async function updateCategory(db: Database, id: number, columns: CategoryColumns): Promise<void> {
  await db
    .updateTable('category')
    .set({ ...columns, updated_at: now() })
    .where('id', '=', id)
    .execute();
}

/**
 * Deletes the categories `ids` with everything below them, except the categories under which
 * something is filed (a document or an article outside the recycle bin, in any status, itself
 * or in a category below): those stay, with what is below them. Not `doc_count`, which counts
 * only what visitors can list: a category holding documents in review must not go.
 * `DeleteCategory` refuses such a request first (`heldCategories`); this still keeps them when
 * something was filed meanwhile.
 */
export async function deleteCategories(db: Database, ids: number[]): Promise<void> {
  await sql`WITH RECURSIVE filed(id) AS (
      SELECT dc.category_id FROM document_category dc JOIN document d ON d.id = dc.document_id WHERE d.deleted_at IS NULL
      UNION SELECT ac.category_id FROM article_category ac JOIN article a ON a.id = ac.article_id WHERE a.deleted_at IS NULL
      UNION SELECT c.parent_id FROM category c JOIN filed f ON c.id = f.id WHERE c.parent_id > 0),
    doomed(id) AS (SELECT id FROM category WHERE id IN (${sql.join(ids)}) AND id NOT IN (SELECT id FROM filed)
      UNION SELECT c.id FROM category c JOIN doomed d ON c.parent_id = d.id WHERE c.id NOT IN (SELECT id FROM filed))
    DELETE FROM category WHERE id IN (SELECT id FROM doomed)`.execute(db);
}

/** A category asked to be deleted that still holds something (see `deleteCategories`). */
export interface HeldCategory {
  id: number;
  title: string;
  type: number;
  /** Documents or articles outside the recycle bin filed in it or below, in any status. */
  items: number;
  /** Of those, the ones visitors cannot list, which `doc_count` leaves out. */
  unlisted: number;
}

/**
 * The categories among `ids` under which something is filed (itself or in a category below), in
 * the order of `ids`, with what they hold: what `deleteCategories` would keep. A category below
 * another of `ids` is left out (its parent already names what it holds).
 */
export async function heldCategories(db: Database, ids: readonly number[]): Promise<HeldCategory[]> {
  const unique = [...new Set(ids.filter((id) => id > 0))];
  if (!unique.length) return [];
  const { rows } = await sql<{
    id: number;
    title: string;
    type: number;
    items: number | string;
    unlisted: number | string;
  }>`
    WITH RECURSIVE tree(root_id, id) AS (
      SELECT id, id FROM category WHERE id IN (${sql.join(unique)})
      UNION SELECT tree.root_id, c.id FROM category c JOIN tree ON c.parent_id = tree.id),
    filed(category_id, document_id, article_id, listed) AS (
      SELECT dc.category_id, dc.document_id, CAST(NULL AS BIGINT), CASE WHEN d.status = ${LISTED_DOCUMENT_STATUS} THEN 1 ELSE 0 END
        FROM document_category dc JOIN document d ON d.id = dc.document_id WHERE d.deleted_at IS NULL
      UNION ALL SELECT ac.category_id, CAST(NULL AS BIGINT), ac.article_id, CASE WHEN a.status = ${PUBLISHED_ARTICLE_STATUS} THEN 1 ELSE 0 END
        FROM article_category ac JOIN article a ON a.id = ac.article_id WHERE a.deleted_at IS NULL)
    SELECT c.id, c.title, c.type,
      count(DISTINCT filed.document_id) + count(DISTINCT filed.article_id) AS items,
      count(DISTINCT CASE WHEN filed.listed = 0 THEN filed.document_id END)
        + count(DISTINCT CASE WHEN filed.listed = 0 THEN filed.article_id END) AS unlisted
    FROM tree JOIN filed ON filed.category_id = tree.id JOIN category c ON c.id = tree.root_id
    WHERE tree.root_id NOT IN (SELECT id FROM tree WHERE id <> root_id)
    GROUP BY c.id, c.title, c.type`.execute(db);
  const byId = new Map(
    rows.map((r) => [Number(r.id), { ...r, id: Number(r.id), items: Number(r.items), unlisted: Number(r.unlisted) }]),
  );
  return unique.flatMap((id) => byId.get(id) ?? []);
}

export async function listCategories(
  db: Database,
  filter: { types: number[]; parents: number[]; enable: number[]; wd: string; page: number; size: number },
) {
  let query = db.selectFrom('category').selectAll().where('type', 'in', filter.types);
  if (filter.parents.length) query = query.where('parent_id', 'in', filter.parents);
  if (filter.enable.length) query = query.where('enable', 'in', filter.enable);
  if (filter.wd.trim()) query = query.where(like(db, 'title', likePattern(filter.wd)));
  return applyPaging(
    query.orderBy('parent_id', 'asc').orderBy('sort', 'desc').orderBy('id', 'asc'),
    filter.page,
    filter.size,
  ).execute();
}

/** The categories with these ids (those that exist): what a document or an article is filed under. */
export async function categoriesByIds(db: Database, ids: readonly number[]) {
  const unique = [...new Set(ids.filter((id) => id > 0))];
  if (!unique.length) return [];
  return db
    .selectFrom('category')
    .select(['id', 'title', 'parent_id', 'type', 'enable'])
    .where('id', 'in', unique)
    .execute();
}

/** All categories, or those of one type (0 documents, 1 articles). */
export const countCategories = (db: Database, type?: 0 | 1) =>
  countOf(type === undefined ? db.selectFrom('category') : db.selectFrom('category').where('type', '=', type));

/**
 * Recomputes `doc_count` of every category of a type: the distinct documents (type 0:
 * converted, as the document module's `listedDocuments`) or articles (type 1: published, as the
 * article module's `publishedArticlesOf`) outside the recycle bin, that is those visitors can
 * list, linked to the category or to any of its descendants. The document and article services
 * call this after changing links or what visitors can list.
 */
export async function recountCategories(db: Database, type: 0 | 1): Promise<void> {
  // Counted, then written: recounts of a type take turns, each counting the links the one before it committed.
  await lockKeys(db, [`category.recount:${type}`]);
  const links =
    type === 0
      ? sql`SELECT dc.category_id AS category_id, dc.document_id AS item_id FROM document_category dc
        JOIN document d ON d.id = dc.document_id
        WHERE d.deleted_at IS NULL AND d.status = ${LISTED_DOCUMENT_STATUS}`
      : sql`SELECT ac.category_id AS category_id, ac.article_id AS item_id FROM article_category ac
        JOIN article a ON a.id = ac.article_id
        WHERE a.deleted_at IS NULL AND a.status = ${PUBLISHED_ARTICLE_STATUS}`;
  await sql`WITH RECURSIVE tree(ancestor_id, id) AS (
      SELECT id, id FROM category WHERE type = ${type}
      UNION ALL SELECT tree.ancestor_id, c.id FROM category c JOIN tree ON c.parent_id = tree.id WHERE c.type = ${type})
    UPDATE category SET doc_count = (
      SELECT count(DISTINCT links.item_id) FROM tree JOIN (${links}) links ON links.category_id = tree.id
      WHERE tree.ancestor_id = category.id)
    WHERE type = ${type}`.execute(db);
}

/**
 * Categories by id with how deep each sits (0 = top level), so that a document's
 * categories can be shown root → leaf.
 */
export async function categoriesWithDepth(
  db: Database,
  ids: readonly number[],
): Promise<{ id: number; title: string; parent_id: number; depth: number }[]> {
  if (!ids.length) return [];
  const { rows } = await sql<{ id: number; title: string; parent_id: number; depth: number }>`
    WITH RECURSIVE chain(start_id, ancestor_id, depth) AS (
      SELECT id, parent_id, 0 FROM category WHERE id IN (${sql.join([...new Set(ids)])})
      UNION ALL SELECT chain.start_id, c.parent_id, chain.depth + 1 FROM category c JOIN chain ON c.id = chain.ancestor_id
        WHERE chain.ancestor_id > 0 AND chain.depth < 64)
    SELECT c.id, c.title, c.parent_id, max(chain.depth) AS depth FROM category c JOIN chain ON chain.start_id = c.id GROUP BY c.id`.execute(
    db,
  );
  return rows.map((r) => ({ ...r, depth: Number(r.depth) }));
}

/** Every enabled category of a type, as the tree rules of shared/page-data.ts read them. */
export async function enabledCategories(db: Database, type: 0 | 1) {
  const rows = await db
    .selectFrom('category')
    .select(['id', 'parent_id', 'type'])
    .where('type', '=', type)
    .where('enable', '=', 1)
    .orderBy('parent_id', 'asc')
    .orderBy('sort', 'desc')
    .orderBy('id', 'asc')
    .execute();
  return rows.map((row) => ({ ...row, enable: true }));
}

/** Enabled top-level categories of a type, in the order of the category lists. */
export async function enabledTopCategories(db: Database, type: 0 | 1) {
  return db
    .selectFrom('category')
    .selectAll()
    .where('type', '=', type)
    .where('parent_id', '=', 0)
    .where('enable', '=', 1)
    .orderBy('sort', 'desc')
    .orderBy('title', 'asc')
    .execute();
}

/** The ids among `ids` that are categories of this type. */
export async function existingCategoryIds(db: Database, ids: readonly number[], type: 0 | 1): Promise<number[]> {
  if (!ids.length) return [];
  return (
    await db
      .selectFrom('category')
      .select('id')
      .where('id', 'in', [...new Set(ids)])
      .where('type', '=', type)
      .execute()
  ).map((r) => r.id);
}
