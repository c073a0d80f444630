// The embedded search engine: contentless FTS5 tables per collection over the bigram tokens of
// bigrams.ts (one over every column, and two small ones, over title and keywords and over the
// description, for the first tiers of the ranking), ranked by bm25 with the title first,
// beside plain tables for the filter and sort values, the categories and the texts the
// snippets are cut from. The engine creates its own tables on first use: they are a
// rebuildable cache of the owning tables, their shape follows the tokenizer version, and an
// install on another engine has none of them. The SQL of a query is planned in search-plan.ts,
// the hits' highlights and snippets are made in search-hits.ts.
import type SQLite from 'better-sqlite3';
import {
  TOKENIZER_VERSION,
  foldText,
  indexTokens,
  parseQuery,
  separateWordsQuery,
  tokensOfVersion,
  type ParsedQuery,
} from './bigrams';
import { DEFAULT_WEIGHTS, checkWeights, type ColumnWeights } from './bm25';
import { HitDescriber, type RankedRow } from './search-hits';
import {
  pageWindow,
  type SearchAttributes,
  type SearchCounters,
  type SearchCollection,
  type SearchEntry,
  type SearchFilters,
  type SearchIndex,
  type SearchQuery,
  type SearchResult,
} from './search-index';
import { SearchPlanner, changedAttributeColumns, epochMs, type SearchPlan, type Tier } from './search-plan';
import { nextTurn } from '../turns';
import { StoredTexts, storedTextOf, type StoredText } from './stored-texts';

export interface SqliteSearchIndexOptions {
  /** bm25 weight of each column; the title counts most. */
  weights?: ColumnWeights;
  /** Characters of text in a snippet. */
  snippetLength?: number;
  /** Bytes of whole texts one page of hits may read for their best pages (BEST_PAGE_BYTES). */
  bestPageBytes?: number;
}

/** Prepared statements kept per index, the oldest dropped first. */
const MAX_STATEMENTS = 500;
/** What rebuild() and upgrade() read of a stored text. */
const STORED_COLUMNS = 'id, title, keywords, description, content';
/** The every-column table's prefix index: of one character. */
const FTS_PREFIXES = "prefix='1'";

export class SqliteSearchIndex implements SearchIndex {
  readonly collection: SearchCollection;
  /**
   * One: an entry's writes (tokens into three FTS5 tables, the stored text) take 3–14 ms for 600–1,500 characters, as
   * loaded as the shared 2-core machine is, and hold the event loop, the queries settling without I/O. A library page
   * met a batch at each of its turns (socket, the first screen's thread, the answer): while 20,000 documents were
   * indexed it took 0.50 s (median; 0.95 s p90) with 10 entries a turn, 0.10 s (0.44 s) with one. Each turn's commit
   * writes an FTS5 segment: alone, one entry a transaction cost 4.8–9.3 ms an entry against 4.3–6.5 ms for ten
   * (docs/performance.md §11).
   */
  readonly rebuildBatch = 1;
  private readonly fts: string;
  /** title and keywords alone: the first tier */
  private readonly head: string;
  /** the description alone: the second tier */
  private readonly summary: string;
  private readonly entries: string;
  private readonly texts: StoredTexts;
  private readonly categories: string;
  private readonly statements = new Map<string, SQLite.Statement>();
  private readonly planner: SearchPlanner;
  private readonly hits: HitDescriber;
  /** the oldest tokenizer version an entry's tokens may be of (TOKENIZER_VERSION once upgraded) */
  private version: number;

  constructor(
    private readonly sqlite: SQLite.Database,
    collection: SearchCollection,
    options: SqliteSearchIndexOptions = {},
  ) {
    // Table names are built from the collection: allow nothing but a plain identifier.
    if (!/^[a-z][a-z0-9_]*$/.test(collection)) throw new RangeError(`bad search collection name: ${collection}`);
    this.collection = collection;
    this.fts = `search_${collection}_fts`;
    this.head = `search_${collection}_head_fts`;
    this.summary = `search_${collection}_summary_fts`;
    this.entries = `search_${collection}`;
    this.texts = new StoredTexts(sqlite, collection, (sql) => this.statement(sql));
    this.categories = `search_${collection}_category`;
    const weights = options.weights ?? DEFAULT_WEIGHTS;
    const weightList = checkWeights(weights);
    // bm25() called by name, not FTS5's `rank` column: ordering by `rank` makes FTS5 prepare
    // an SQL statement of its own for every query.
    const bm25 = new Map([
      [this.fts, `bm25(f.${this.fts}, ${weightList.join(', ')})`],
      [this.head, `bm25(f.${this.head}, ${weights.title}, ${weights.keywords})`],
      [this.summary, `bm25(f.${this.summary})`],
    ]);
    this.planner = new SearchPlanner(
      { fts: this.fts, entries: this.entries, categories: this.categories },
      bm25,
      () => tokensOfVersion(this.version).wholeWords,
    );
    this.hits = new HitDescriber(this.texts, options.snippetLength, options.bestPageBytes);
    this.createTables();
    this.version = this.storedVersion;
  }

  private createTables(): void {
    this.sqlite.transaction(() => {
      this.sqlite.exec(`CREATE TABLE IF NOT EXISTS search_meta (
        collection TEXT PRIMARY KEY,
        tokenizer_version INTEGER NOT NULL
      )`);
      // Contentless with contentless_delete: the index keeps only tokens (no copy of them) and
      // still deletes and replaces rows. unicode61 splits our space-joined tokens back. The
      // prefix index of one character serves a single character's prefix query ("国"*), which
      // without it merges the doclists of every token starting with it (80 ms over 10,000 texts).
      const ftsSql = (
        this.sqlite.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(this.fts) as { sql: string } | undefined
      )?.sql;
      const lacksPrefixes = ftsSql !== undefined && !ftsSql.includes(FTS_PREFIXES);
      if (lacksPrefixes) this.sqlite.exec(`DROP TABLE ${this.fts}`);
      this.sqlite.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${this.fts} USING fts5(
        title, keywords, description, content,
        content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2', ${FTS_PREFIXES}
      )`);
      // The same tokens of the short columns, apart: the first two tiers of the ranking read
      // their short doclists, not those of every text.
      const tiersAreNew = !this.sqlite.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(this.summary);
      for (const [table, columns] of [
        [this.head, 'title, keywords'],
        [this.summary, 'description'],
      ]) {
        this.sqlite.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING fts5(
          ${columns},
          content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2'
        )`);
      }
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
      this.texts.create();
      this.sqlite.exec(`CREATE TABLE IF NOT EXISTS ${this.categories} (
        category_id INTEGER NOT NULL,
        entry_id INTEGER NOT NULL,
        PRIMARY KEY (category_id, entry_id)
      ) WITHOUT ROWID`);
      this.sqlite.exec(`CREATE INDEX IF NOT EXISTS ${this.categories}_entry ON ${this.categories} (entry_id)`);
      this.sqlite
        .prepare(
          'INSERT INTO search_meta (collection, tokenizer_version) VALUES (?, ?) ON CONFLICT (collection) DO NOTHING',
        )
        .run(this.collection, TOKENIZER_VERSION);
      // An index made before the tier tables existed: their tokens, from the stored texts.
      if (tiersAreNew) this.fillTiers();
      // One made before the prefix index: every column's tokens again (once, at this start).
      if (lacksPrefixes) this.fillFts();
    })();
  }

  private fillFts(): void {
    this.texts.forEach<StoredText>(STORED_COLUMNS, (row) =>
      this.insertFtsTokens(row, indexTokens(row.title), indexTokens(row.keywords), indexTokens(row.description)),
    );
    this.sqlite.prepare(`INSERT INTO ${this.fts} (${this.fts}) VALUES ('optimize')`).run();
  }

  private fillTiers(): void {
    this.texts.forEach<Omit<StoredText, 'content'>>('id, title, keywords, description', (row) =>
      this.insertTierTokens(row),
    );
    for (const table of [this.head, this.summary])
      this.sqlite.prepare(`INSERT INTO ${table} (${table}) VALUES ('optimize')`).run();
  }

  private get ftsTables(): string[] {
    return [this.fts, this.head, this.summary];
  }

  private statement(sql: string): SQLite.Statement {
    let prepared = this.statements.get(sql);
    if (!prepared) {
      prepared = this.sqlite.prepare(sql);
      // Bounded: LIMIT values are written into the SQL (see countMatches), deep pages make more.
      if (this.statements.size >= MAX_STATEMENTS) this.statements.delete(this.statements.keys().next().value!);
      this.statements.set(sql, prepared);
    }
    return prepared;
  }

  /** The tokenizer version search_meta records for this collection (0: none). */
  private get storedVersion(): number {
    const row = this.statement('SELECT tokenizer_version AS version FROM search_meta WHERE collection = ?').get(
      this.collection,
    ) as { version: number } | undefined;
    return row?.version ?? 0;
  }

  /** True when the stored tokens come from another tokenizer version: call upgrade() or rebuild(). */
  get needsRebuild(): boolean {
    return this.storedVersion !== TOKENIZER_VERSION;
  }

  async upsert(entries: readonly SearchEntry[]): Promise<void> {
    const insertEntry = this.statement(`INSERT OR REPLACE INTO ${this.entries}
      (id, title_folded, user_id, ext, language, created_at, view_count, download_count, favorite_count, comment_count, score)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.sqlite.transaction(() => {
      for (const entry of entries) {
        const attributes = entry.attributes;
        const text = storedTextOf(entry);
        this.removeTokens(entry.id);
        this.insertTokens(text);
        this.texts.put(text);
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
    this.insertFtsTokens(text, ...this.insertTierTokens(text));
  }

  /** The every-column table's row of an entry, given the tokens of its short columns. */
  private insertFtsTokens(text: StoredText, title: string, keywords: string, description: string): void {
    this.statement(`INSERT INTO ${this.fts} (rowid, title, keywords, description, content) VALUES (?, ?, ?, ?, ?)`).run(
      text.id,
      title,
      keywords,
      description,
      indexTokens(text.content),
    );
  }

  /** The tier tables' rows of an entry; returns the tokens of title, keywords and description. */
  private insertTierTokens(text: Omit<StoredText, 'content'>): [string, string, string] {
    const tokens: [string, string, string] = [
      indexTokens(text.title),
      indexTokens(text.keywords),
      indexTokens(text.description),
    ];
    this.statement(`INSERT INTO ${this.head} (rowid, title, keywords) VALUES (?, ?, ?)`).run(
      text.id,
      tokens[0],
      tokens[1],
    );
    this.statement(`INSERT INTO ${this.summary} (rowid, description) VALUES (?, ?)`).run(text.id, tokens[2]);
    return tokens;
  }

  private removeTokens(id: number): void {
    const known = this.statement(`SELECT 1 FROM ${this.entries} WHERE id = ?`).get(id);
    if (!known) return;
    for (const table of this.ftsTables) this.statement(`DELETE FROM ${table} WHERE rowid = ?`).run(id);
  }

  private setCategories(id: number, categoryIds: readonly number[]): void {
    this.statement(`DELETE FROM ${this.categories} WHERE entry_id = ?`).run(id);
    const insert = this.statement(`INSERT OR IGNORE INTO ${this.categories} (category_id, entry_id) VALUES (?, ?)`);
    for (const categoryId of categoryIds) insert.run(categoryId, id);
  }

  async updateAttributes(id: number, attributes: Partial<SearchAttributes>): Promise<void> {
    const changed = changedAttributeColumns(attributes);
    this.sqlite.transaction(() => {
      const known = this.statement(`SELECT 1 FROM ${this.entries} WHERE id = ?`).get(id);
      if (!known) return;
      if (changed.length > 0) {
        this.statement(
          `UPDATE ${this.entries} SET ${changed.map(([name]) => `${name} = ?`).join(', ')} WHERE id = ?`,
        ).run(...changed.map(([, value]) => value), id);
      }
      if (attributes.categoryIds) this.setCategories(id, attributes.categoryIds);
    })();
  }

  async addToCounters(id: number, deltas: SearchCounters): Promise<void> {
    const changed = changedAttributeColumns(deltas);
    if (changed.length === 0) return;
    this.statement(
      `UPDATE ${this.entries} SET ${changed.map(([name]) => `${name} = ${name} + ?`).join(', ')} WHERE id = ?`,
    ).run(...changed.map(([, delta]) => delta), id);
  }

  async remove(ids: readonly number[]): Promise<void> {
    this.sqlite.transaction(() => {
      for (const id of ids) {
        this.removeTokens(id);
        this.statement(`DELETE FROM ${this.entries} WHERE id = ?`).run(id);
        this.texts.remove(id);
        this.statement(`DELETE FROM ${this.categories} WHERE entry_id = ?`).run(id);
      }
    })();
  }

  async count(): Promise<number> {
    return (this.statement(`SELECT count(*) AS n FROM ${this.entries}`).get() as { n: number }).n;
  }

  async needsRefill(): Promise<boolean> {
    return this.texts.anyWithoutShownPart();
  }

  async clear(): Promise<void> {
    this.sqlite.transaction(() => {
      for (const fts of this.ftsTables) this.sqlite.prepare(`INSERT INTO ${fts} (${fts}) VALUES ('delete-all')`).run();
      for (const table of [this.entries, this.categories]) this.sqlite.prepare(`DELETE FROM ${table}`).run();
      this.texts.clear();
      this.markCurrent();
    })();
  }

  private markCurrent(): void {
    this.statement('UPDATE search_meta SET tokenizer_version = ? WHERE collection = ?').run(
      TOKENIZER_VERSION,
      this.collection,
    );
    this.version = TOKENIZER_VERSION;
  }

  /**
   * Tokenizes every entry again from the text this index stores, after a tokenizer change
   * (`needsRebuild`); then merges the index into one segment.
   */
  async rebuild(): Promise<void> {
    this.sqlite.transaction(() => {
      for (const fts of this.ftsTables) this.sqlite.prepare(`INSERT INTO ${fts} (${fts}) VALUES ('delete-all')`).run();
      this.texts.forEach<StoredText>(STORED_COLUMNS, (row) => this.reindex(row));
      this.markCurrent();
    })();
    await this.optimize();
  }

  /**
   * rebuild() while the site keeps answering: each entry's tokens are replaced from its stored
   * text, `batch` entries a transaction (10 of 5,000 characters take about 50 ms), the event
   * loop served between batches. Until the last batch, queries match a dictionary word as its
   * bigram phrase, which the old tokens hold too (version 1 had no word tokens; its bigrams are
   * this version's). Returns false when `stopped()` ended it early (the process is closing):
   * the next start begins again.
   */
  async upgrade(options: { batch?: number; stopped?: () => boolean } = {}): Promise<boolean> {
    if (!this.needsRebuild) return true;
    const batch = Math.max(1, Math.trunc(options.batch ?? 10));
    const retokenize = this.sqlite.transaction((rows: StoredText[]) => {
      for (const row of rows) {
        this.removeTokens(row.id);
        this.reindex(row);
      }
    });
    let after = Number.MIN_SAFE_INTEGER;
    for (;;) {
      await nextTurn();
      if (options.stopped?.()) return false;
      const rows = this.texts.batchAfter<StoredText>(STORED_COLUMNS, after, batch);
      retokenize(rows);
      if (rows.length < batch) break;
      after = rows[rows.length - 1]!.id;
    }
    this.markCurrent();
    await this.optimize();
    return true;
  }

  /** An entry's tokens and folded title made again from its stored text (its old tokens gone). */
  private reindex(row: StoredText): void {
    this.insertTokens(row);
    this.statement(`UPDATE ${this.entries} SET title_folded = ? WHERE id = ?`).run(foldText(row.title), row.id);
  }

  /** Merges the index segments into one: worth it after a bulk load. */
  async optimize(): Promise<void> {
    for (const fts of this.ftsTables) this.sqlite.prepare(`INSERT INTO ${fts} (${fts}) VALUES ('optimize')`).run();
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    const started = performance.now();
    // Until every entry has this version's tokens, the signs are read as the old ones were (none before version 3).
    const parsed = parseQuery(query.text, { symbols: tokensOfVersion(this.version).symbols });
    let found = await this.searchParsed(parsed, query);
    // Words typed together that the texts hold apart: each word on its own (bigrams.ts).
    const separate = found.total === 0 ? separateWordsQuery(parsed) : undefined;
    if (separate) found = await this.searchParsed(separate, query);
    return { ...found, tookMs: performance.now() - started };
  }

  private async searchParsed(parsed: ParsedQuery, query: SearchQuery): Promise<Omit<SearchResult, 'tookMs'>> {
    const filters = query.filters ?? {};
    const plan = this.planner.plan(parsed, filters, query.sort ?? 'relevance');
    if (!plan) return { total: 0, hits: [] };
    const { size, offset } = pageWindow(query);
    const total = this.countMatches(plan, query.maxTotal);
    let rows: RankedRow[] = [];
    if (total > 0 && plan.tiered === undefined) rows = this.pageOf(plan, size, offset);
    else if (total > 0 && plan.tiered !== undefined) rows = this.tieredPage(parsed, filters, plan.tiered, size, offset);
    return { total, hits: await this.hits.describe(rows, parsed) };
  }

  /**
   * How many entries match, counting no further than `limit`. A LIMIT is written into the SQL,
   * never bound: SQLite (3.53) prepares a statement again each time a value is bound to its
   * LIMIT parameter (about 13 % of a search's time).
   */
  private countMatches(plan: SearchPlan, limit?: number): number {
    if (limit === undefined)
      return (
        this.statement(`SELECT count(*) AS n FROM ${plan.from} WHERE ${plan.where}`).get(...plan.params) as {
          n: number;
        }
      ).n;
    const capped = `SELECT count(*) AS n FROM (SELECT 1 FROM ${plan.from} WHERE ${plan.where} LIMIT ${Math.max(0, Math.trunc(limit))})`;
    return (this.statement(capped).get(...plan.params) as { n: number }).n;
  }

  /** `size` entries from `offset` on; the size written into the SQL (see countMatches). */
  private pageOf(plan: SearchPlan, size: number, offset: number): RankedRow[] {
    const sql = `SELECT ${plan.id} AS id, ${plan.rank} AS rank FROM ${plan.from} WHERE ${plan.where} ORDER BY ${plan.order} LIMIT ${Math.trunc(size)} OFFSET ?`;
    return this.statement(sql).all(...plan.params, offset) as RankedRow[];
  }

  /**
   * Relevance in three tiers, each by bm25: entries matched in their title or keywords, then
   * in their description, then the others (matched in the text). The first two read the short
   * doclists of their own tables: a page they fill never ranks the thousands of texts a common
   * word or phrase is found in. Only a page past them (few title and description matches, deep
   * pages) ranks the third tier whole.
   */
  private tieredPage(
    parsed: ParsedQuery,
    filters: SearchFilters,
    match: string,
    size: number,
    offset: number,
  ): RankedRow[] {
    const tiers: Tier[] = [
      { table: this.head, match },
      { table: this.summary, match },
      { table: this.fts, match },
    ];
    const rows: RankedRow[] = [];
    let skip = offset;
    // Every entry of the tiers before, while this page holds them all (a first page mostly):
    // leaving them out by id saves 0.1 ms on such a page against a second query of their tables.
    let before: number[] | undefined = [];
    for (const [index, tier] of tiers.entries()) {
      const wanted = size - rows.length;
      if (wanted <= 0) break;
      const except = before === undefined ? { tiers: tiers.slice(0, index) } : { ids: before };
      const plan = this.planner.plan(parsed, filters, 'relevance', { ...tier, except })!;
      const page = this.pageOf(plan, wanted, skip);
      rows.push(...page);
      if (before !== undefined && skip === 0) before.push(...page.map((row) => row.id));
      else before = undefined;
      // A tier that gave fewer than asked ends on this page: the next one starts at its first
      // entry. One that gave none may hold fewer entries than the page skips: count them.
      if (page.length > 0) skip = 0;
      else if (skip > 0) skip -= this.countMatches(plan, skip);
    }
    return rows;
  }
}
