// The embedded search engine: contentless FTS5 tables per collection over the bigram tokens of
// bigrams.ts (one over every column, and two small ones, over title and keywords and over the
// description, for the first tiers of the ranking), ranked by bm25 with the title first,
// beside plain tables for the filter and sort values, the categories and the texts the
// snippets are cut from. The engine creates its own tables on first use: they are a
// rebuildable cache of the owning tables, their shape follows the tokenizer version, and an
// install on another engine has none of them.
import type SQLite from 'better-sqlite3';
import { TOKENIZER_VERSION, foldText, indexTokens, normalizeText, parseQuery, toMatchExpression, type ParsedQuery } from './bigrams';
import { escapeHtml, highlightAll, highlightWindow, leadingSnippet, snippetAroundFirstMatch, windowAround } from './highlight';
import type { SearchAttributes, SearchCollection, SearchEntry, SearchFilters, SearchHit, SearchIndex, SearchQuery, SearchResult, SearchSort } from './search-index';
import { StoredTexts, type HitText, type StoredText } from './stored-texts';

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

/** An FTS5 table and a MATCH expression on it. */
interface Tier {
  table: string;
  match: string;
}

/** Where a plan's matches come from: a tier, less the entries of the tiers before it. */
interface MatchSource extends Tier {
  /** the tiers whose entries are left out, or those entries themselves when they are known */
  except?: { tiers: Tier[] } | { ids: number[] };
}

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
  /** title and keywords alone: the first tier */
  private readonly head: string;
  /** the description alone: the second tier */
  private readonly summary: string;
  private readonly entries: string;
  private readonly texts: StoredTexts;
  private readonly categories: string;
  private readonly snippetLength: number;
  private readonly statements = new Map<string, SQLite.Statement>();
  /** Per FTS5 table, the bm25 call that ranks its matches (the column weights written out). */
  private readonly bm25 = new Map<string, string>();

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
    this.snippetLength = Math.max(1, Math.trunc(options.snippetLength ?? DEFAULT_SNIPPET_LENGTH));
    const weights = options.weights ?? DEFAULT_WEIGHTS;
    const weightList = [weights.title, weights.keywords, weights.description, weights.content];
    if (!weightList.every((weight) => Number.isFinite(weight) && weight >= 0)) throw new RangeError('search column weights must be finite and ≥ 0');
    // bm25() called by name, not FTS5's `rank` column: ordering by `rank` makes FTS5 prepare
    // an SQL statement of its own for every query.
    this.bm25.set(this.fts, `bm25(f.${this.fts}, ${weightList.join(', ')})`);
    this.bm25.set(this.head, `bm25(f.${this.head}, ${weights.title}, ${weights.keywords})`);
    this.bm25.set(this.summary, `bm25(f.${this.summary})`);
    this.createTables();
  }

  private createTables(): void {
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
      // The same tokens of the short columns, apart: the first two tiers of the ranking read
      // their short doclists, not those of every text.
      const tiersAreNew = !this.sqlite.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(this.summary);
      for (const [table, columns] of [[this.head, 'title, keywords'], [this.summary, 'description']]) {
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
        .prepare('INSERT INTO search_meta (collection, tokenizer_version) VALUES (?, ?) ON CONFLICT (collection) DO NOTHING')
        .run(this.collection, TOKENIZER_VERSION);
      // An index made before the tier tables existed: their tokens, from the stored texts.
      if (tiersAreNew) this.fillTiers();
    })();
  }

  private fillTiers(): void {
    this.texts.forEach<Omit<StoredText, 'content'>>('id, title, keywords, description', (row) => this.insertTierTokens(row));
    for (const table of [this.head, this.summary]) this.sqlite.prepare(`INSERT INTO ${table} (${table}) VALUES ('optimize')`).run();
  }

  private get ftsTables(): string[] {
    return [this.fts, this.head, this.summary];
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
    const [title, keywords, description] = this.insertTierTokens(text);
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
    const tokens: [string, string, string] = [indexTokens(text.title), indexTokens(text.keywords), indexTokens(text.description)];
    this.statement(`INSERT INTO ${this.head} (rowid, title, keywords) VALUES (?, ?, ?)`).run(text.id, tokens[0], tokens[1]);
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
        this.statement(`DELETE FROM ${this.entries} WHERE id = ?`).run(id);
        this.texts.remove(id);
        this.statement(`DELETE FROM ${this.categories} WHERE entry_id = ?`).run(id);
      }
    })();
  }

  async count(): Promise<number> {
    return (this.statement(`SELECT count(*) AS n FROM ${this.entries}`).get() as { n: number }).n;
  }

  async clear(): Promise<void> {
    this.sqlite.transaction(() => {
      for (const fts of this.ftsTables) this.sqlite.prepare(`INSERT INTO ${fts} (${fts}) VALUES ('delete-all')`).run();
      for (const table of [this.entries, this.categories]) this.sqlite.prepare(`DELETE FROM ${table}`).run();
      this.texts.clear();
      this.statement('UPDATE search_meta SET tokenizer_version = ? WHERE collection = ?').run(TOKENIZER_VERSION, this.collection);
    })();
  }

  /**
   * Tokenizes every entry again from the text this index stores, after a tokenizer change
   * (`needsRebuild`); then merges the index into one segment.
   */
  async rebuild(): Promise<void> {
    this.sqlite.transaction(() => {
      for (const fts of this.ftsTables) this.sqlite.prepare(`INSERT INTO ${fts} (${fts}) VALUES ('delete-all')`).run();
      const refold = this.statement(`UPDATE ${this.entries} SET title_folded = ? WHERE id = ?`);
      this.texts.forEach<StoredText>('id, title, keywords, description, content', (row) => {
        this.insertTokens(row);
        refold.run(foldText(row.title), row.id);
      });
      this.statement('UPDATE search_meta SET tokenizer_version = ? WHERE collection = ?').run(TOKENIZER_VERSION, this.collection);
    })();
    await this.optimize();
  }

  /** Merges the index segments into one: worth it after a bulk load. */
  async optimize(): Promise<void> {
    for (const fts of this.ftsTables) this.sqlite.prepare(`INSERT INTO ${fts} (${fts}) VALUES ('optimize')`).run();
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    const started = performance.now();
    const parsed = parseQuery(query.text);
    const filters = query.filters ?? {};
    const plan = this.plan(parsed, filters, query.sort ?? 'relevance');
    if (!plan) return { total: 0, hits: [], tookMs: performance.now() - started };
    const size = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.trunc(query.size ?? 10)));
    const offset = (Math.max(1, Math.trunc(query.page ?? 1)) - 1) * size;
    const total = this.countMatches(plan, query.maxTotal);
    let rows: RankedRow[] = [];
    if (total > 0 && plan.tiered === undefined) rows = this.pageOf(plan, size, offset);
    else if (total > 0 && plan.tiered !== undefined) rows = this.tieredPage(parsed, filters, plan.tiered, size, offset);
    return { total, hits: this.describeHits(rows, parsed), tookMs: performance.now() - started };
  }

  /** How many entries match, counting no further than `limit`. */
  private countMatches(plan: SearchPlan, limit?: number): number {
    if (limit === undefined) return (this.statement(`SELECT count(*) AS n FROM ${plan.from} WHERE ${plan.where}`).get(...plan.params) as { n: number }).n;
    const capped = `SELECT count(*) AS n FROM (SELECT 1 FROM ${plan.from} WHERE ${plan.where} LIMIT ?)`;
    return (this.statement(capped).get(...plan.params, Math.max(0, Math.trunc(limit))) as { n: number }).n;
  }

  private pageOf(plan: SearchPlan, size: number, offset: number): RankedRow[] {
    const sql = `SELECT ${plan.id} AS id, ${plan.rank} AS rank FROM ${plan.from} WHERE ${plan.where} ORDER BY ${plan.order} LIMIT ? OFFSET ?`;
    return this.statement(sql).all(...plan.params, size, offset) as RankedRow[];
  }

  /**
   * Relevance in three tiers, each by bm25: entries matched in their title or keywords, then
   * in their description, then the others (matched in the text). The first two read the short
   * doclists of their own tables: a page they fill never ranks the thousands of texts a common
   * word or phrase is found in. Only a page past them (few title and description matches, deep
   * pages) ranks the third tier whole.
   */
  private tieredPage(parsed: ParsedQuery, filters: SearchFilters, match: string, size: number, offset: number): RankedRow[] {
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
      const plan = this.plan(parsed, filters, 'relevance', { ...tier, except })!;
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

  /**
   * The SQL of a query. Words go to FTS5; single characters (a title-only query) are looked for
   * in the folded titles, cheaper than an FTS5 prefix query over every token of the index.
   * `source` makes the plan of one tier: another table and expression, no further tiers.
   */
  private plan(parsed: ParsedQuery, filters: SearchFilters, sort: SearchSort, source?: MatchSource): SearchPlan | undefined {
    const words = parsed.terms.filter((term) => term.kind === 'phrase');
    const chars = parsed.terms.flatMap((term) => (term.kind === 'char' ? [term.char] : []));
    const match = source?.match ?? toMatchExpression({ terms: words, titleOnly: parsed.titleOnly });
    if (match === undefined && chars.length === 0) return undefined;
    const fts = source?.table ?? this.fts;
    const id = match === undefined ? 'd.id' : 'f.rowid';
    const filter = this.filterClause(filters, id);
    const except = this.exceptClause(source?.except);
    const conditions = [...(match === undefined ? [] : [`f.${fts} MATCH ?`]), ...chars.map(() => 'instr(d.title_folded, ?) > 0'), ...except.conditions, ...filter.conditions];
    const params = [...(match === undefined ? [] : [match]), ...chars, ...except.params, ...filter.params];
    const needsEntries = chars.length > 0 || filter.readsEntries || sort !== 'relevance';
    let from = `${this.entries} AS d`;
    // FTS5 first, always: the other way round SQLite would run the MATCH once per entry.
    if (match !== undefined) from = needsEntries ? `${fts} AS f CROSS JOIN ${this.entries} AS d ON d.id = f.rowid` : `${fts} AS f`;
    let order: string;
    if (sort !== 'relevance') order = `d.${SORT_COLUMNS[sort]} DESC, d.id DESC`;
    // Characters alone have no bm25: the shorter the title holding them, the closer the match.
    else order = match === undefined ? 'length(d.title_folded), d.id DESC' : `${this.bm25.get(fts)!}, f.rowid DESC`;
    const ranked = match !== undefined && sort === 'relevance';
    const tiered = ranked && !parsed.titleOnly && source === undefined;
    return { from, where: conditions.join(' AND '), params, order, id, rank: ranked ? this.bm25.get(fts)! : '0', ...(tiered ? { tiered: match } : {}) };
  }

  /** Leaves out the entries of the tiers before: by their ids when known, else by their matches. */
  private exceptClause(except: MatchSource['except']): { conditions: string[]; params: SqlValue[] } {
    if (!except) return { conditions: [], params: [] };
    if ('ids' in except) {
      if (except.ids.length === 0) return { conditions: [], params: [] };
      return { conditions: ['f.rowid NOT IN (SELECT value FROM json_each(?))'], params: [JSON.stringify(except.ids)] };
    }
    return {
      conditions: except.tiers.map(({ table }) => `f.rowid NOT IN (SELECT rowid FROM ${table} WHERE ${table} MATCH ?)`),
      params: except.tiers.map((tier) => tier.match),
    };
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
    const needles = needlesOf(parsed);
    const texts = this.texts.hitTexts(rows.map((row) => row.id), needles.needles, this.reach);
    const hits: SearchHit[] = [];
    for (const row of rows) {
      const text = texts.get(row.id);
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

  /** Bytes of a content window reaches on each side of its needle (see `windowAround`). */
  private get reach(): number {
    return this.snippetLength * 4 + 4;
  }

  /** Around the first match in the text, else in the description, else the text's beginning. */
  private snippet(text: HitText, parsed: ParsedQuery, { absenceIsProof }: Needles): string {
    if (parsed.titleOnly) return this.beginningSnippet(text);
    if (text.at >= 0) {
      const window = windowAround(text.window, text.at, this.snippetLength, text.start, text.size);
      const html = highlightWindow(window.text, parsed, window.cutBefore, window.cutAfter);
      if (html !== undefined) return html;
    }
    const inDescription = snippetAroundFirstMatch(text.description, parsed, this.snippetLength);
    if (inDescription !== undefined) return inDescription;
    if (text.at >= 0 || !absenceIsProof) {
      // The byte search missed (a word inside a longer one, another casing, a full-width form):
      // decode the whole text and match it the way the index does.
      const around = snippetAroundFirstMatch(this.texts.content(text.id), parsed, this.snippetLength);
      if (around !== undefined) return around;
    }
    return this.beginningSnippet(text);
  }

  /** The text's beginning, else the description's. */
  private beginningSnippet(text: HitText): string {
    if (text.size === 0) return leadingSnippet(text.description, this.snippetLength);
    const bytes =
      text.start === 0
        ? text.window
        : this.texts.leadingBytes(text.id, this.reach);
    const window = windowAround(bytes, 0, this.snippetLength, 0, text.size);
    return `${escapeHtml(window.text)}${window.cutAfter ? '…' : ''}`;
  }
}
