// The search engine as the document and article modules see it. One index per collection; the
// owning module upserts an entry whenever what strangers may find changes (created, edited,
// converted, approved) and removes it when it must no longer be found (deleted, disabled,
// rejected). The index is derived data: it can always be refilled from the owning tables.
//
// Engines: `SqliteSearchIndex` (FTS5 over bigrams, in the embedded database) now. Beyond one
// machine (docs/operations.md, "Scaling") a Meilisearch engine satisfies the same interface, which is why every
// method returns a promise and nothing here names a table or an SQL expression:
// - one Meilisearch index per collection, primary key `id`; searchableAttributes
//   [title, keywords, description, content] (attribute order ranks the title first),
//   filterableAttributes [category_ids, ext, language, user_id, created_at], sortableAttributes
//   [created_at, view_count, download_count, favorite_count, comment_count, score], Chinese
//   segmentation through localizedAttributes (locale `cmn`);
// - upsert → addDocuments (created_at as epoch seconds), updateAttributes → updateDocuments
//   (partial), addToCounters → updateDocumentsByFunction (`doc.view_count += context.view_count`, one
//   task, so that none is lost), remove → deleteDocuments, clear → deleteAllDocuments, count → stats;
// - search → index.search(text, { filter, sort, page, hitsPerPage, attributesToCrop: ['content'],
//   attributesToHighlight: ['title', 'content'], showRankingScore }) with private-use
//   characters as highlight tags, the text HTML-escaped and the tags then swapped for <em>;
//   totalHits → total, _rankingScore → score, processingTimeMs → tookMs; a query of single
//   letters sets attributesToSearchOn: ['title'];
// - a paged entry's content is indexed without its form feeds, with its pages' start offsets
//   kept beside it; a hit's page is the one holding the crop's match (`_matchesPosition`).

export type SearchCollection = 'document' | 'article';

/** Values to filter and sort by. Only `createdAt` is needed; the rest default to 0 or ''. */
export interface SearchAttributes {
  categoryIds?: readonly number[];
  userId?: number;
  /** File extension with its dot, as the document stores it (".pdf"); '' for articles. */
  ext?: string;
  language?: string;
  /** RFC 3339 timestamp */
  createdAt: string;
  viewCount?: number;
  downloadCount?: number;
  favoriteCount?: number;
  commentCount?: number;
  score?: number;
}

/** The counters an entry sorts by, which readers and members move (a view, a download, a favourite). */
export type SearchCounters = Partial<
  Pick<SearchAttributes, 'viewCount' | 'downloadCount' | 'favoriteCount' | 'commentCount'>
>;

export interface SearchEntry {
  /** The document's or article's id. */
  id: number;
  title: string;
  keywords: string;
  description: string;
  /** The full text (a document's extracted text, an article's body as text). */
  content: string;
  /**
   * `content` is the text of pages, in order, a form feed (`\f`) between them: the hits then
   * name the page of their snippet. The form feeds are no part of the text searched or shown.
   */
  paged?: boolean;
  /**
   * How much of `content` a hit's snippet may show: its first `shownPages` pages (a paged entry), or none of it (0, an
   * entry that is not paged). Undefined: all of it. The rest is found, never shown: a hit that matches only there gets
   * the description (or the beginning of what may be shown) and the page of its match (`matchPage`).
   */
  shownPages?: number;
  attributes: SearchAttributes;
}

export interface SearchFilters {
  /** Any of these categories. */
  categoryIds?: readonly number[];
  /** Any of these extensions (".pdf", ".docx"). */
  exts?: readonly string[];
  /** Any of these languages. */
  languages?: readonly string[];
  userId?: number;
  /** Created at or after (RFC 3339). */
  createdFrom?: string;
  /** Created at or before (RFC 3339). */
  createdTo?: string;
}

export const SEARCH_SORTS = ['relevance', 'newest', 'views', 'downloads', 'favorites', 'comments', 'score'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

export interface SearchQuery {
  text: string;
  filters?: SearchFilters;
  /** Default relevance; the others are newest first / highest first, ties newest first. */
  sort?: SearchSort;
  /** 1-based, default 1. */
  page?: number;
  /** 1…100, default 10. */
  size?: number;
  /**
   * Count the matches no further than this (MOREDOC caps the total at max_search_pages × size):
   * `total` is then at most this, and counting a word found everywhere stays cheap.
   */
  maxTotal?: number;
}

const DEFAULT_PAGE_SIZE = 10;
const MAX_PAGE_SIZE = 100;

/** The entries a query's page holds: `size` of them (1…100, default 10) after `offset`. */
export function pageWindow(query: SearchQuery): { size: number; offset: number } {
  const size = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.trunc(query.size ?? DEFAULT_PAGE_SIZE)));
  return { size, offset: (Math.max(1, Math.trunc(query.page ?? 1)) - 1) * size };
}

export interface SearchHit {
  id: number;
  /**
   * Relevance, higher is better, comparable among the hits of one tier of one result (engines
   * may rank title matches first whatever their score); 0 when the order is not by relevance.
   */
  score: number;
  /** HTML: the text around the first match, escaped, matches in <em>…</em>. */
  snippet: string;
  /**
   * The page (1-based) of a paged entry's text that the snippet was cut from: where its first
   * match is, or, for a query of several terms, the page holding the most distinct terms, then
   * the terms as typed, then the earliest (search-hits.ts); where the text begins when it holds
   * none. Only a page the entry's snippets may show (`shownPages`). 0 when the snippet is not
   * from a paged text (the description, an entry that is not paged).
   */
  page: number;
  /**
   * When the snippet holds no match because the text matches only past what it may show
   * (`shownPages`): the first page there holding a match (a number, never its text); else 0.
   */
  matchPage: number;
  /**
   * With `matchPage`: the query's words found on that page, as the query holds them (folded as
   * the index folds them), in its order; never the text's own spelling. Empty otherwise, or when
   * none is a literal to look for (a phrase of words without one).
   */
  matchWords: string[];
  /** HTML: the whole title, escaped, matches in <em>…</em>. */
  titleHighlight: string;
}

export interface SearchResult {
  total: number;
  hits: SearchHit[];
  tookMs: number;
}

export interface SearchIndex {
  readonly collection: SearchCollection;
  /**
   * Entries a rebuild from the owning tables indexes between two turns of the event loop (the site answers between
   * them): as few as the engine's writes need to keep a request from waiting, which it does at each of its turns.
   */
  readonly rebuildBatch: number;
  /** Adds or replaces entries by id (replacing drops every old token). */
  upsert(entries: readonly SearchEntry[]): Promise<void>;
  /** Changes filter and sort values (counters, categories) without indexing the text again. */
  updateAttributes(id: number, attributes: Partial<SearchAttributes>): Promise<void>;
  /**
   * Adds to counters in one step of the engine: views at once all count, where a count read and
   * written back plus one would keep one of them. An id the index does not hold changes nothing.
   */
  addToCounters(id: number, deltas: SearchCounters): Promise<void>;
  remove(ids: readonly number[]): Promise<void>;
  search(query: SearchQuery): Promise<SearchResult>;
  /** How many entries the index holds. */
  count(): Promise<number>;
  /**
   * Whether entries stored before the index kept how much of their text a snippet may show
   * (`shownPages`) are still there: they show none of it until the owning module upserts them again.
   */
  needsRefill(): Promise<boolean>;
  /** Empties the index, before refilling it from the owning tables. */
  clear(): Promise<void>;
}
