// The embedded search engine: one contentless FTS5 table per collection over the bigram tokens
// of bigrams.ts, ranked by bm25 with the title first, beside plain tables for the filter and
// sort values, the categories and the texts the snippets are cut from. The engine creates its
// own tables on first use: they are a rebuildable cache of the owning tables, their shape
// follows the tokenizer version, and an install on another engine has none of them.
import type SQLite from 'better-sqlite3';
import { TOKENIZER_VERSION, foldText, indexTokens, normalizeText, parseQuery, toMatchExpression, type ParsedQuery } from './bigrams';
import { escapeHtml, firstOccurrence, highlightAll, highlightWindow, leadingSnippet, snippetAroundFirstMatch, windowAround } from './highlight';
import type { SearchAttributes, SearchCollection, SearchEntry, SearchFilters, SearchHit, SearchIndex, SearchQuery, SearchResult, SearchSort } from './search-index';

export interface ColumnWeights {
  title: number;
  keywords: number;
  description: number;
  content: number;
}

export interface SqliteSearchIndexOptions {
  /** bm25 weight of each column; the title counts most. */
  weights?: ColumnWeights;
  /** Characters of text in a snippet. */
  snippetLength?: number;
}

export const DEFAULT_WEIGHTS: ColumnWeights = { title: 10, keywords: 5, description: 3, content: 1 };
const DEFAULT_SNIPPET_LENGTH = 120;
const MAX_PAGE_SIZE = 100;
const REBUILD_BATCH = 200;
// Indexing runs on the caller's thread at about 2 million characters a second: a text is kept
// and indexed up to here (some 500 pages), so that one upsert never stalls the process long.
export const MAX_CONTENT_LENGTH = 1_000_000;

const SORT_COLUMNS: Record<Exclude<SearchSort, 'relevance'>, string> = {
  newest: 'created_at',
  views: 'view_count',
  downloads: 'download_count',
  favorites: 'favorite_count',
  comments: 'comment_count',
  score: 'score',
};

interface StoredText {
  id: number;
  title: string;
  keywords: string;
  description: string;
  content: string;
}

/** A hit's texts: title and description as strings, the content as its UTF-8 bytes. */
interface HitText {
  id: number;
  title: string;
  description: string;
  content: Buffer;
}

type SqlValue = string | number;

interface RankedRow {
  id: number;
  rank: number;
}

interface SearchPlan {
  from: string;
  where: string;
  /** the parameters of `where`; with an FTS5 expression, that expression comes first */
  params: SqlValue[];
  order: string;
  /** the expressions of the entry id and of its bm25 rank (0 when not ranked) */
  id: string;
  rank: string;
  /** the FTS5 expression, when ranked by relevance in tiers (title and keyword matches first) */
  tiered?: string;
}

// The columns whose matches rank first, and the rest of a match.
const strongTier = (match: string) => `{title keywords} : (${match})`;
const weakTier = (match: string) => `(${match}) NOT {title keywords} : (${match})`;

/** The byte strings to look for in a stored text, and whether missing them all proves no match. */
interface Needles {
  needles: Buffer[];
  absenceIsProof: boolean;
}

/**
 * A CJK literal is searched as it is (the stored text is normalised as the index sees it, so
 * its absence proves that its phrase is not there); a word in its usual casings (a miss then
 * proves nothing: `ＰＹＴＨＯＮ`); a phrase of several words has no literal.
 */
function needlesOf(parsed: ParsedQuery): Needles {
  const needles: Buffer[] = [];
  let absenceIsProof = true;
  for (const term of parsed.terms) {
    if (term.kind !== 'phrase' || !term.literal) {
      absenceIsProof = false;
      continue;
    }
    const text = term.literal.text;
    if (term.literal.cjk) {
      needles.push(Buffer.from(text));
      continue;
    }
    absenceIsProof = false;
    const casings = new Set([text, text.charAt(0).toUpperCase() + text.slice(1), text.toUpperCase()]);
    for (const casing of casings) needles.push(Buffer.from(casing));
  }
  return { needles, absenceIsProof };
}

function epochMs(timestamp: string, what: string): number {
  const ms = Date.parse(timestamp);
  if (Number.isNaN(ms)) throw new RangeError(`${what} is not a date: ${JSON.stringify(timestamp)}`);
  return ms;
}

function placeholders(count: number): string {
  return new Array<string>(count).fill('?').join(', ');
}

export class SqliteSearchIndex implements SearchIndex {
  readonly collection: SearchCollection;
  private readonly fts: string;
  private readonly entries: string;
  private readonly texts: string;
  private readonly categories: string;
  private readonly snippetLength: number;
  private readonly statements = new Map<string, SQLite.Statement>();

  constructor(
    private readonly sqlite: SQLite.Database,
    collection: SearchCollection,
    options: SqliteSearchIndexOptions = {},
  ) {
    // Table names are built from the collection: allow nothing but a plain identifier.
    if (!/^[a-z][a-z0-9_]*$/.test(collection)) throw new RangeError(`bad search collection name: ${collection}`);
    this.collection = collection;
    this.fts = `search_${collection}_fts`;
    this.entries = `search_${collection}`;
    this.texts = `search_${collection}_text`;
    this.categories = `search_${collection}_category`;
    this.snippetLength = options.snippetLength ?? DEFAULT_SNIPPET_LENGTH;
    this.createTables(options.weights ?? DEFAULT_WEIGHTS);
  }

  private createTables(weights: ColumnWeights): void {
    const weightList = [weights.title, weights.keywords, weights.description, weights.content];
    if (!weightList.every((weight) => Number.isFinite(weight) && weight >= 0)) throw new RangeError('search column weights must be finite and ≥ 0');
    this.sqlite.transaction(() => {
      this.sqlite.exec(`CREATE TABLE IF NOT EXISTS search_meta (
        collection TEXT PRIMARY KEY,
        tokenizer_version INTEGER NOT NULL
      )`);
      // Contentless with contentless_delete: the index keeps only tokens (no copy of them) and
      // still deletes and replaces rows. unicode61 splits our space-joined tokens back.
      this.sqlite.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${this.fts} USING fts5(
        title, keywords, description, content,
        content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2'
      )`);
      // Filter and sort values apart from the texts: a sort or a filter over thousands of
      // matches then reads a few dense pages, not one page of text per match.
      this.sqlite.exec(`CREATE TABLE IF NOT EXISTS ${this.entries} (
        id INTEGER PRIMARY KEY,
        title_folded TEXT NOT NULL,
        user_id INTEGER NOT NULL DEFAULT 0,
        ext TEXT NOT NULL DEFAULT '',
        language TEXT NOT NULL DEFAULT '',
        created_at INTEGER NOT NULL,
        view_count INTEGER NOT NULL DEFAULT 0,
        download_count INTEGER NOT NULL DEFAULT 0,
        favorite_count INTEGER NOT NULL DEFAULT 0,
        comment_count INTEGER NOT NULL DEFAULT 0,
        score INTEGER NOT NULL DEFAULT 0
      )`);
      this.sqlite.exec(`CREATE TABLE IF NOT EXISTS ${this.texts} (
        id INTEGER PRIMARY KEY,
        title TEXT NOT NULL,
        keywords TEXT NOT NULL,
        description TEXT NOT NULL,
        content TEXT NOT NULL
      )`);
      this.sqlite.exec(`CREATE TABLE IF NOT EXISTS ${this.categories} (
        category_id INTEGER NOT NULL,
        entry_id INTEGER NOT NULL,
        PRIMARY KEY (category_id, entry_id)
      ) WITHOUT ROWID`);
      this.sqlite.exec(`CREATE INDEX IF NOT EXISTS ${this.categories}_entry ON ${this.categories} (entry_id)`);
      this.sqlite
        .prepare('INSERT INTO search_meta (collection, tokenizer_version) VALUES (?, ?) ON CONFLICT (collection) DO NOTHING')
        .run(this.collection, TOKENIZER_VERSION);
      // The rank column orders by bm25 with these weights (kept in the table's own config).
      this.sqlite.prepare(`INSERT INTO ${this.fts} (${this.fts}, rank) VALUES ('rank', ?)`).run(`bm25(${weightList.join(', ')})`);
    })();
  }

  private statement(sql: string): SQLite.Statement {
    let prepared = this.statements.get(sql);
    if (!prepared) {
      prepared = this.sqlite.prepare(sql);
      this.statements.set(sql, prepared);
    }
    return prepared;
  }

  /** True when the stored tokens come from another tokenizer version: call rebuild(). */
  get needsRebuild(): boolean {
    const row = this.statement('SELECT tokenizer_version AS version FROM search_meta WHERE collection = ?').get(this.collection) as { version: number } | undefined;
    return row?.version !== TOKENIZER_VERSION;
  }

  async upsert(entries: readonly SearchEntry[]): Promise<void> {
    const insertEntry = this.statement(`INSERT OR REPLACE INTO ${this.entries}
      (id, title_folded, user_id, ext, language, created_at, view_count, download_count, favorite_count, comment_count, score)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const insertText = this.statement(`INSERT OR REPLACE INTO ${this.texts} (id, title, keywords, description, content) VALUES (?, ?, ?, ?, ?)`);
    this.sqlite.transaction(() => {
      for (const entry of entries) {
        const attributes = entry.attributes;
        const text: StoredText = {
          id: entry.id,
          title: normalizeText(entry.title),
          keywords: normalizeText(entry.keywords),
          description: normalizeText(entry.description),
          content: normalizeText(entry.content.length > MAX_CONTENT_LENGTH ? entry.content.slice(0, MAX_CONTENT_LENGTH) : entry.content),
        };
        this.removeTokens(entry.id);
        this.insertTokens(text);
        insertText.run(text.id, text.title, text.keywords, text.description, text.content);
        insertEntry.run(
          entry.id,
          foldText(text.title),
          attributes.userId ?? 0,
          attributes.ext ?? '',
          attributes.language ?? '',
          epochMs(attributes.createdAt, 'createdAt'),
          attributes.viewCount ?? 0,
          attributes.downloadCount ?? 0,
          attributes.favoriteCount ?? 0,
          attributes.commentCount ?? 0,
          attributes.score ?? 0,
        );
        this.setCategories(entry.id, attributes.categoryIds ?? []);
      }
    })();
  }

  private insertTokens(text: StoredText): void {
    this.statement(`INSERT INTO ${this.fts} (rowid, title, keywords, description, content) VALUES (?, ?, ?, ?, ?)`).run(
      text.id,
      indexTokens(text.title),
      indexTokens(text.keywords),
      indexTokens(text.description),
      indexTokens(text.content),
    );
  }

  private removeTokens(id: number): void {
    const known = this.statement(`SELECT 1 FROM ${this.entries} WHERE id = ?`).get(id);
    if (known) this.statement(`DELETE FROM ${this.fts} WHERE rowid = ?`).run(id);
  }

  private setCategories(id: number, categoryIds: readonly number[]): void {
    this.statement(`DELETE FROM ${this.categories} WHERE entry_id = ?`).run(id);
    const insert = this.statement(`INSERT OR IGNORE INTO ${this.categories} (category_id, entry_id) VALUES (?, ?)`);
    for (const categoryId of categoryIds) insert.run(categoryId, id);
  }

  async updateAttributes(id: number, attributes: Partial<SearchAttributes>): Promise<void> {
    const columns: [string, SqlValue | undefined][] = [
      ['user_id', attributes.userId],
      ['ext', attributes.ext],
      ['language', attributes.language],
      ['created_at', attributes.createdAt === undefined ? undefined : epochMs(attributes.createdAt, 'createdAt')],
      ['view_count', attributes.viewCount],
      ['download_count', attributes.downloadCount],
      ['favorite_count', attributes.favoriteCount],
      ['comment_count', attributes.commentCount],
      ['score', attributes.score],
    ];
    const changed = columns.filter((column): column is [string, SqlValue] => column[1] !== undefined);
    this.sqlite.transaction(() => {
      const known = this.statement(`SELECT 1 FROM ${this.entries} WHERE id = ?`).get(id);
      if (!known) return;
      if (changed.length > 0) {
        this.statement(`UPDATE ${this.entries} SET ${changed.map(([name]) => `${name} = ?`).join(', ')} WHERE id = ?`).run(...changed.map(([, value]) => value), id);
      }
      if (attributes.categoryIds) this.setCategories(id, attributes.categoryIds);
    })();
  }

  async remove(ids: readonly number[]): Promise<void> {
    this.sqlite.transaction(() => {
      for (const id of ids) {
        this.removeTokens(id);
        for (const table of [this.entries, this.texts]) this.statement(`DELETE FROM ${table} WHERE id = ?`).run(id);
        this.statement(`DELETE FROM ${this.categories} WHERE entry_id = ?`).run(id);
      }
    })();
  }

  async count(): Promise<number> {
    return (this.statement(`SELECT count(*) AS n FROM ${this.entries}`).get() as { n: number }).n;
  }

  async clear(): Promise<void> {
    this.sqlite.transaction(() => {
      this.sqlite.prepare(`INSERT INTO ${this.fts} (${this.fts}) VALUES ('delete-all')`).run();
      for (const table of [this.entries, this.texts, this.categories]) this.sqlite.prepare(`DELETE FROM ${table}`).run();
      this.statement('UPDATE search_meta SET tokenizer_version = ? WHERE collection = ?').run(TOKENIZER_VERSION, this.collection);
    })();
  }

  /**
   * Tokenizes every entry again from the text this index stores, after a tokenizer change
   * (`needsRebuild`); then merges the index into one segment.
   */
  async rebuild(): Promise<void> {
    this.sqlite.transaction(() => {
      this.sqlite.prepare(`INSERT INTO ${this.fts} (${this.fts}) VALUES ('delete-all')`).run();
      const batch = this.statement(`SELECT id, title, keywords, description, content FROM ${this.texts} WHERE id > ? ORDER BY id LIMIT ${REBUILD_BATCH}`);
      const refold = this.statement(`UPDATE ${this.entries} SET title_folded = ? WHERE id = ?`);
      let after = Number.MIN_SAFE_INTEGER;
      for (;;) {
        const rows = batch.all(after) as StoredText[];
        for (const row of rows) {
          this.insertTokens(row);
          refold.run(foldText(row.title), row.id);
        }
        if (rows.length < REBUILD_BATCH) break;
        after = rows[rows.length - 1]!.id;
      }
      this.statement('UPDATE search_meta SET tokenizer_version = ? WHERE collection = ?').run(TOKENIZER_VERSION, this.collection);
    })();
    await this.optimize();
  }

  /** Merges the index segments into one: worth it after a bulk load. */
  async optimize(): Promise<void> {
    this.sqlite.prepare(`INSERT INTO ${this.fts} (${this.fts}) VALUES ('optimize')`).run();
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    const started = performance.now();
    const parsed = parseQuery(query.text);
    const plan = this.plan(parsed, query.filters ?? {}, query.sort ?? 'relevance');
    if (!plan) return { total: 0, hits: [], tookMs: performance.now() - started };
    const size = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.trunc(query.size ?? 10)));
    const offset = (Math.max(1, Math.trunc(query.page ?? 1)) - 1) * size;
    const total = this.countMatches(plan, plan.params, query.maxTotal);
    let rows: RankedRow[] = [];
    if (total > 0 && plan.tiered === undefined) rows = this.pageOf(plan, plan.params, size, offset);
    else if (total > 0 && plan.tiered !== undefined) rows = this.tieredPage(plan, plan.tiered, size, offset);
    return { total, hits: this.describeHits(rows, parsed), tookMs: performance.now() - started };
  }

  /** How many entries match, counting no further than `limit`. */
  private countMatches(plan: SearchPlan, params: SqlValue[], limit?: number): number {
    if (limit === undefined) return (this.statement(`SELECT count(*) AS n FROM ${plan.from} WHERE ${plan.where}`).get(...params) as { n: number }).n;
    const capped = `SELECT count(*) AS n FROM (SELECT 1 FROM ${plan.from} WHERE ${plan.where} LIMIT ?)`;
    return (this.statement(capped).get(...params, Math.max(0, Math.trunc(limit))) as { n: number }).n;
  }

  private pageOf(plan: SearchPlan, params: SqlValue[], size: number, offset: number): RankedRow[] {
    const sql = `SELECT ${plan.id} AS id, ${plan.rank} AS rank FROM ${plan.from} WHERE ${plan.where} ORDER BY ${plan.order} LIMIT ? OFFSET ?`;
    return this.statement(sql).all(...params, size, offset) as RankedRow[];
  }

  /**
   * Relevance in two tiers: entries matched in their title or keywords, by bm25 of those
   * columns, then the others, by bm25. A page in the first tier ranks only that tier's (few)
   * entries, not the thousands a common word matches in the texts.
   */
  private tieredPage(plan: SearchPlan, match: string, size: number, offset: number): RankedRow[] {
    const withMatch = (expression: string) => [expression, ...plan.params.slice(1)];
    const strong = withMatch(strongTier(match));
    // Counted only as far as this page reaches: enough to know where the second tier starts.
    const strongCount = this.countMatches(plan, strong, offset + size);
    const rows = offset < strongCount ? this.pageOf(plan, strong, size, offset) : [];
    if (rows.length < size) rows.push(...this.pageOf(plan, withMatch(weakTier(match)), size - rows.length, Math.max(0, offset - strongCount)));
    return rows;
  }

  /**
   * The SQL of a query. Words go to FTS5; single characters (a title-only query) are looked for
   * in the folded titles, cheaper than an FTS5 prefix query over every token of the index.
   */
  private plan(parsed: ParsedQuery, filters: SearchFilters, sort: SearchSort): SearchPlan | undefined {
    const words = parsed.terms.filter((term) => term.kind === 'phrase');
    const chars = parsed.terms.flatMap((term) => (term.kind === 'char' ? [term.char] : []));
    const match = toMatchExpression({ terms: words, titleOnly: parsed.titleOnly });
    if (match === undefined && chars.length === 0) return undefined;
    const id = match === undefined ? 'd.id' : 'f.rowid';
    const filter = this.filterClause(filters, id);
    const conditions = [...(match === undefined ? [] : [`f.${this.fts} MATCH ?`]), ...chars.map(() => 'instr(d.title_folded, ?) > 0'), ...filter.conditions];
    const params = [...(match === undefined ? [] : [match]), ...chars, ...filter.params];
    const needsEntries = chars.length > 0 || filter.readsEntries || sort !== 'relevance';
    let from = `${this.entries} AS d`;
    // FTS5 first, always: the other way round SQLite would run the MATCH once per entry.
    if (match !== undefined) from = needsEntries ? `${this.fts} AS f CROSS JOIN ${this.entries} AS d ON d.id = f.rowid` : `${this.fts} AS f`;
    let order: string;
    if (sort !== 'relevance') order = `d.${SORT_COLUMNS[sort]} DESC, d.id DESC`;
    // Characters alone have no bm25: the shorter the title holding them, the closer the match.
    else order = match === undefined ? 'length(d.title_folded), d.id DESC' : 'f.rank, f.rowid DESC';
    const ranked = match !== undefined && sort === 'relevance';
    return { from, where: conditions.join(' AND '), params, order, id, rank: ranked ? 'f.rank' : '0', ...(ranked && !parsed.titleOnly ? { tiered: match } : {}) };
  }

  private filterClause(filters: SearchFilters, id: string): { conditions: string[]; params: SqlValue[]; readsEntries: boolean } {
    const conditions: string[] = [];
    const params: SqlValue[] = [];
    const anyOf = (column: string, values: readonly SqlValue[] | undefined) => {
      if (!values || values.length === 0) return;
      conditions.push(`${column} IN (${placeholders(values.length)})`);
      params.push(...values);
    };
    anyOf('d.ext', filters.exts);
    anyOf('d.language', filters.languages);
    if (filters.userId !== undefined) {
      conditions.push('d.user_id = ?');
      params.push(filters.userId);
    }
    if (filters.createdFrom !== undefined) {
      conditions.push('d.created_at >= ?');
      params.push(epochMs(filters.createdFrom, 'createdFrom'));
    }
    if (filters.createdTo !== undefined) {
      conditions.push('d.created_at <= ?');
      params.push(epochMs(filters.createdTo, 'createdTo'));
    }
    const readsEntries = conditions.length > 0;
    if (filters.categoryIds && filters.categoryIds.length > 0) {
      // The unary + keeps FTS5 from taking the list as rowids to look up one by one.
      conditions.push(`+${id} IN (SELECT entry_id FROM ${this.categories} WHERE category_id IN (${placeholders(filters.categoryIds.length)}))`);
      params.push(...filters.categoryIds);
    }
    return { conditions, params, readsEntries };
  }

  private describeHits(rows: RankedRow[], parsed: ParsedQuery): SearchHit[] {
    if (rows.length === 0) return [];
    const texts = this.statement(`SELECT id, title, description, CAST(content AS BLOB) AS content FROM ${this.texts} WHERE id IN (SELECT value FROM json_each(?))`).all(
      JSON.stringify(rows.map((row) => row.id)),
    ) as HitText[];
    const byId = new Map(texts.map((text) => [text.id, text]));
    const needles = needlesOf(parsed);
    const hits: SearchHit[] = [];
    for (const row of rows) {
      const text = byId.get(row.id);
      if (!text) continue;
      hits.push({
        id: row.id,
        score: row.rank === 0 ? 0 : -row.rank,
        titleHighlight: highlightAll(text.title, parsed),
        snippet: this.snippet(text, parsed, needles),
      });
    }
    return hits;
  }

  /** Around the first match in the text, else in the description, else the text's beginning. */
  private snippet(text: HitText, parsed: ParsedQuery, { needles, absenceIsProof }: Needles): string {
    if (parsed.titleOnly) return this.beginningSnippet(text);
    const at = firstOccurrence(text.content, needles);
    if (at >= 0) {
      const window = windowAround(text.content, at, this.snippetLength);
      const html = highlightWindow(window.text, parsed, window.cutBefore, window.cutAfter);
      if (html !== undefined) return html;
    }
    const inDescription = snippetAroundFirstMatch(text.description, parsed, this.snippetLength);
    if (inDescription !== undefined) return inDescription;
    if (at >= 0 || !absenceIsProof) {
      // The byte search missed (a word inside a longer one, another casing, a full-width form):
      // decode the whole text and match it the way the index does.
      const around = snippetAroundFirstMatch(text.content.toString('utf8'), parsed, this.snippetLength);
      if (around !== undefined) return around;
    }
    return this.beginningSnippet(text);
  }

  /** The text's beginning, else the description's. */
  private beginningSnippet(text: HitText): string {
    if (text.content.length === 0) return leadingSnippet(text.description, this.snippetLength);
    const window = windowAround(text.content, 0, this.snippetLength);
    return `${escapeHtml(window.text)}${window.cutAfter ? '…' : ''}`;
  }
}
