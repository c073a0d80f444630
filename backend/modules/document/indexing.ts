import type { BackendContext } from '../../platform/context';
import { jobKind } from '../../platform/jobs/job-queue';
import { nextTurn } from '../../platform/turns';
import type { SearchEntry } from '../../platform/search/search-index';
import { freePages } from './access';
import { searchSnippetPages } from './page-text';
import { categoryIdsOf, documentsByIds, isSearchable, searchableDocumentIds, textOf, type DocumentRow } from './store';

// The search index (platform/search, collection 'document') holds what strangers may find:
// live documents that are not disabled, pending or rejected, nor failed in conversion. Every write that changes that
// (create, convert, update, review, delete, recover, purge) calls refreshSearchIndex with
// the documents it touched, after its transaction committed. The index is derived data: a
// failure here is logged, never fails the request, and a rebuild refills it from the tables.

/** `refill`: upsert every entry again without emptying the index first, so that searches go on finding them meanwhile. */
export const reindexDocumentsKind = jobKind<{ refill?: boolean }>('document.reindex');

async function entriesOf(app: BackendContext, rows: readonly DocumentRow[]): Promise<SearchEntry[]> {
  const links = await categoryIdsOf(
    app.db,
    rows.map((r) => r.id),
  );
  const entries: SearchEntry[] = [];
  for (const row of rows) {
    // Every page is searched; a hit's snippet shows only the free pages (docs/api.md, search).
    const text = await textOf(app.db, row.id);
    entries.push({
      id: row.id,
      title: row.title,
      keywords: row.keywords,
      description: row.description,
      content: text.content,
      paged: text.pages > 0,
      shownPages: searchSnippetPages(text, freePages(row), row.pages),
      attributes: {
        categoryIds: links.get(row.id) ?? [],
        userId: row.user_id,
        ext: row.ext,
        language: row.language,
        createdAt: row.created_at,
        viewCount: row.view_count,
        downloadCount: row.download_count,
        favoriteCount: row.favorite_count,
        commentCount: row.comment_count,
        score: row.score,
      },
    });
  }
  return entries;
}

/**
 * Brings the index in line with these documents: searchable ones upserted, the others (or gone ones) removed. The one
 * call after every committed document write, so it also tells `contentChanges` (the pages the gateway keeps follow).
 */
export async function refreshSearchIndex(app: BackendContext, ids: readonly number[]): Promise<void> {
  if (!ids.length) return;
  await indexDocuments(app, ids);
  await app.contentChanges.tell({ content: 'document', ids });
}

async function indexDocuments(app: BackendContext, ids: readonly number[]): Promise<void> {
  try {
    const rows = await documentsByIds(app.db, ids);
    const visible = rows.filter(isSearchable);
    const visibleIds = new Set(visible.map((r) => r.id));
    const hidden = [...new Set(ids)].filter((id) => !visibleIds.has(id));
    if (hidden.length) await app.search.document.remove(hidden);
    if (visible.length) await app.search.document.upsert(await entriesOf(app, visible));
  } catch (error) {
    app.log.error({ err: error, documents: ids.slice(0, 20) }, 'updating the document search index failed');
  }
}

/**
 * The index sorts by views too (浏览最多): a document read adds one there, as to the table (not the
 * count read plus one: reads at once would write the same number). Derived data, so a failure is
 * only logged; the favourite and download counts follow their own writes.
 */
export async function countSearchView(app: BackendContext, row: DocumentRow): Promise<void> {
  if (!isSearchable(row)) return;
  try {
    await app.search.document.addToCounters(row.id, { viewCount: 1 });
  } catch (error) {
    app.log.error({ err: error, document: row.id }, 'updating the view count in the search index failed');
  }
}

/**
 * Empties the index and fills it again from the document tables, the index's `rebuildBatch` documents at a time, the
 * site answering between them (20,000 documents took two minutes, during which the site had answered nothing); with
 * `refill`, upserts them without emptying it (an index that holds them all already, entries of an older layout:
 * needsRefill).
 */
export async function rebuildSearchIndex(app: BackendContext, { refill = false } = {}): Promise<number> {
  if (!refill) await app.search.document.clear();
  const ids = await searchableDocumentIds(app.db);
  const batch = app.search.document.rebuildBatch;
  for (let i = 0; i < ids.length; i += batch) {
    await nextTurn();
    const rows = (await documentsByIds(app.db, ids.slice(i, i + batch))).filter(isSearchable);
    await app.search.document.upsert(await entriesOf(app, rows));
  }
  return ids.length;
}

/**
 * At start: a rebuild is queued when the index is empty (a database from MOREDOC) but documents exist, or holds
 * entries from before it kept what their snippets may show (SearchIndex.needsRefill: until then they show no text).
 */
export async function scheduleReindexIfNeeded(app: BackendContext): Promise<void> {
  const refill = (await app.search.document.count()) > 0;
  if (refill && !(await app.search.document.needsRefill())) return;
  if (!(await searchableDocumentIds(app.db, 1)).length) return;
  await app.jobs.enqueue(reindexDocumentsKind, { refill }, { dedupeKey: reindexDocumentsKind.name });
}
