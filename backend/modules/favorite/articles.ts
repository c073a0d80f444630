import { sql } from 'kysely';
import type { Database } from '../../db';
import { ReviewStatus } from '../../../shared/constants';

// Seam to the article module (issue 11, branch `articles`): favourites of articles need to
// know which articles readers may see, their titles and identifiers, and to move an
// article's favourite counter. Until modules/article/service.ts is in main (it will export
// `publishedArticles` and `articleTitles` with these shapes), these read the `article` table.

export interface ArticleTarget { id: number; title: string; identifier: string; user_id: number }

/** Published articles among `ids` (not in the recycle bin), by id. */
export async function publishedArticles(db: Database, ids: readonly number[]): Promise<Map<number, ArticleTarget>> {
  const unique = [...new Set(ids.filter((id) => id > 0))];
  const rows = unique.length
    ? await db.selectFrom('article').select(['id', 'title', 'identifier', 'user_id'])
      .where('id', 'in', unique).where('deleted_at', 'is', null).where('status', '=', ReviewStatus.Approved).execute()
    : [];
  return new Map(rows.map((r) => [r.id, r]));
}

/** Title and identifier of these articles, wherever they are. */
export async function articleTitles(db: Database, ids: readonly number[]): Promise<Map<number, { title: string; identifier: string }>> {
  const unique = [...new Set(ids.filter((id) => id > 0))];
  const rows = unique.length ? await db.selectFrom('article').select(['id', 'title', 'identifier']).where('id', 'in', unique).execute() : [];
  return new Map(rows.map((r) => [r.id, { title: r.title, identifier: r.identifier }]));
}

export async function bumpArticleFavorites(db: Database, id: number, delta: number): Promise<void> {
  await db.updateTable('article').set({ favorite_count: sql<number>`max(favorite_count + ${delta}, 0)` }).where('id', '=', id).execute();
}
