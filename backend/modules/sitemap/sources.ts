import type { Database } from '../../db';
import { HIDDEN_STATUSES } from '../document/service';

// What the sitemaps list. Documents: the ones strangers may see (the document module's rule),
// with the category their page sits under, which its `publicDocumentLinks` (uuids, for
// MOREDOC's URLs) does not give: read here until the document module exports such a list.
// Articles: their module is still to come; until then this seam reads their table itself.

const PUBLISHED = 1;

export interface SitemapEntry {
  path: string;
  lastmod: string;
}

/** Documents strangers may see (not deleted, disabled or in review), with the last category they are filed under. */
export async function documentEntries(db: Database): Promise<{ id: number; category_id: number[]; updated_at: string }[]> {
  const rows = await db.selectFrom('document as d')
    .innerJoin('document_category as dc', 'dc.document_id', 'd.id')
    .select(['d.id', 'd.updated_at', (eb) => eb.fn.max('dc.id').as('link_id')])
    .where('d.deleted_at', 'is', null).where('d.status', 'not in', [...HIDDEN_STATUSES])
    .groupBy('d.id').orderBy('d.id').execute();
  if (!rows.length) return [];
  const links = await db.selectFrom('document_category').select(['id', 'category_id'])
    .where('id', 'in', rows.map((r) => Number(r.link_id))).execute();
  const categoryOf = new Map(links.map((l) => [l.id, l.category_id]));
  return rows.map((r) => ({ id: r.id, category_id: [categoryOf.get(Number(r.link_id)) ?? 0], updated_at: r.updated_at }));
}

/** Published articles, not deleted. */
export function articleEntries(db: Database) {
  return db.selectFrom('article').select(['id', 'identifier', 'updated_at'])
    .where('deleted_at', 'is', null).where('status', '=', PUBLISHED).orderBy('id').execute();
}

/** Enabled categories of documents and articles. */
export function categoryEntries(db: Database) {
  return db.selectFrom('category').select(['id', 'type', 'updated_at']).where('enable', '=', 1).orderBy('type').orderBy('id').execute();
}
