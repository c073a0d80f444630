import type { Database } from '../../db';
import { publishedArticleLinks, publishedArticleStamp } from '../article/service';
import { categoriesWithDepth } from '../category/service';
import { UNSEARCHABLE_STATUSES } from '../document/service';

// What the sitemaps list. Documents: the ones strangers may find (the document module's rule for search),
// under their deepest category as the document lists answer it (`category` by depth), which
// its `publicDocumentLinks` (uuids, for MOREDOC's URLs) does not give: read here until the
// document module exports such a list. Articles come from their module.

export interface SitemapEntry {
  path: string;
  lastmod: string;
}

/**
 * Documents strangers may find (not deleted, disabled, in review or failed in conversion), with their deepest category.
 */
export async function documentEntries(
  db: Database,
): Promise<{ id: number; category_id: number[]; updated_at: string }[]> {
  const rows = await db
    .selectFrom('document as d')
    .innerJoin('document_category as dc', 'dc.document_id', 'd.id')
    .select(['d.id', 'd.updated_at', 'dc.category_id'])
    .where('d.deleted_at', 'is', null)
    .where('d.status', 'not in', [...UNSEARCHABLE_STATUSES])
    .orderBy('d.id')
    .orderBy('dc.id')
    .execute();
  const depth = new Map(
    (
      await categoriesWithDepth(
        db,
        rows.map((r) => r.category_id),
      )
    ).map((c) => [c.id, c.depth]),
  );
  const documents = new Map<number, { id: number; category_id: number[]; updated_at: string }>();
  for (const row of rows) {
    const known = documents.get(row.id);
    const deeper = !known || (depth.get(row.category_id) ?? -1) >= (depth.get(known.category_id[0]!) ?? -1);
    if (deeper) documents.set(row.id, { id: row.id, category_id: [row.category_id], updated_at: row.updated_at });
  }
  return [...documents.values()];
}

/** Published articles, not deleted. */
export const articleEntries = publishedArticleLinks;

/**
 * What changes whenever the sitemaps would: how many documents, articles and categories they
 * list, the latest change of each, and the filing of documents into categories.
 */
export async function contentFingerprint(db: Database): Promise<string> {
  const [documents, articles, categories, filings] = await Promise.all([
    db
      .selectFrom('document')
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max('updated_at').as('latest')])
      .where('deleted_at', 'is', null)
      .where('status', 'not in', [...UNSEARCHABLE_STATUSES])
      .executeTakeFirstOrThrow(),
    publishedArticleStamp(db),
    db
      .selectFrom('category')
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max('updated_at').as('latest')])
      .where('enable', '=', 1)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('document_category')
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max('id').as('latest')])
      .executeTakeFirstOrThrow(),
  ]);
  return JSON.stringify([documents, articles, categories, filings]);
}

/** Enabled categories of documents and articles. */
export function categoryEntries(db: Database) {
  return db
    .selectFrom('category')
    .select(['id', 'type', 'updated_at'])
    .where('enable', '=', 1)
    .orderBy('type')
    .orderBy('id')
    .execute();
}
