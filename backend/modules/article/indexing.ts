import type { BackendContext } from '../../platform/context';
import { jobKind } from '../../platform/jobs/job-queue';
import { richTextToText } from '../../platform/rich-text';
import type { SearchEntry } from '../../platform/search/search-index';
import { nextTurn } from '../../platform/turns';
import { articlesForIndex, categoryIdsOf, publishedArticleIds, type ArticleRow } from './store';

// The search index (platform/search, collection 'article') holds what readers may find:
// published articles outside the recycle bin. Every write that changes that (create, edit,
// review, file, delete, restore, purge) calls refreshArticleIndex (through articlesChanged)
// with the articles it touched, after its transaction committed. The index is derived data: a failure here is
// logged, never fails the request, and a rebuild refills it from the tables.

/** `refill`: upsert every entry again without emptying the index first, so that searches go on finding them meanwhile. */
export const reindexArticlesKind = jobKind<{ refill?: boolean }>('article.reindex');

const isFindable = (row: Pick<ArticleRow, 'status' | 'deleted_at'>) => row.status === 1 && row.deleted_at === null;

async function entriesOf(app: BackendContext, rows: readonly ArticleRow[]): Promise<SearchEntry[]> {
  const links = await categoryIdsOf(
    app.db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    keywords: row.keywords,
    description: row.description,
    content: richTextToText(row.content),
    attributes: {
      categoryIds: links.get(row.id) ?? [],
      userId: row.user_id,
      createdAt: row.created_at,
      viewCount: row.view_count,
      favoriteCount: row.favorite_count,
      commentCount: row.comment_count,
    },
  }));
}

/** Brings the index in line with these articles: findable ones upserted, the others (or gone ones) removed. */
export async function refreshArticleIndex(app: BackendContext, ids: readonly number[]): Promise<void> {
  if (!ids.length) return;
  try {
    const rows = await articlesForIndex(app.db, ids);
    const findable = rows.filter(isFindable);
    const findableIds = new Set(findable.map((r) => r.id));
    const hidden = [...new Set(ids)].filter((id) => !findableIds.has(id));
    if (hidden.length) await app.search.article.remove(hidden);
    if (findable.length) await app.search.article.upsert(await entriesOf(app, findable));
  } catch (error) {
    app.log.error({ err: error, articles: ids.slice(0, 20) }, 'updating the article search index failed');
  }
}

/**
 * The index sorts by views too: a published article's read adds one there, as to the table (not
 * the count read plus one: reads at once would write the same number). Derived data, so a failure
 * is only logged.
 */
export async function countArticleView(app: BackendContext, id: number): Promise<void> {
  try {
    await app.search.article.addToCounters(id, { viewCount: 1 });
  } catch (error) {
    app.log.error({ err: error, article: id }, 'updating the view count in the article search index failed');
  }
}

/**
 * Empties the index and fills it again from the article tables, the index's `rebuildBatch` articles at a time, the site
 * answering between them (as rebuildSearchIndex); with `refill`, upserts them without emptying it (an index that holds
 * them all already, entries of an older layout: needsRefill).
 */
export async function rebuildArticleIndex(app: BackendContext, { refill = false } = {}): Promise<number> {
  if (!refill) await app.search.article.clear();
  const ids = await publishedArticleIds(app.db);
  const batch = app.search.article.rebuildBatch;
  for (let i = 0; i < ids.length; i += batch) {
    await nextTurn();
    const rows = (await articlesForIndex(app.db, ids.slice(i, i + batch))).filter(isFindable);
    await app.search.article.upsert(await entriesOf(app, rows));
  }
  return ids.length;
}

/**
 * At start: a rebuild is queued when the index is empty but articles exist (the seeded pages, a database from MOREDOC),
 * or holds entries from before it kept what their snippets may show (SearchIndex.needsRefill).
 */
export async function scheduleArticleReindexIfNeeded(app: BackendContext): Promise<void> {
  const refill = (await app.search.article.count()) > 0;
  if (refill && !(await app.search.article.needsRefill())) return;
  if (!(await publishedArticleIds(app.db, 1)).length) return;
  await app.jobs.enqueue(reindexArticlesKind, { refill }, { dedupeKey: reindexArticlesKind.name });
}
