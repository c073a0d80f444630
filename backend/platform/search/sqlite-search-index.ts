// The embedded search engine: one contentless FTS5 table per collection over the bigram tokens
// of bigrams.ts, ranked by bm25 with the title first, beside a plain table with the filter and
// sort values and the text the snippets are cut from (brotli-compressed). The engine creates
// its own tables on first use: they are a rebuildable cache of the owning tables, their shape
// follows the tokenizer version, and an install on another engine has none of them.
import { brotliCompressSync, brotliDecompressSync, constants as zlibConstants } from 'node:zlib';
import type SQLite from 'better-sqlite3';
import { TOKENIZER_VERSION, compactWhitespace, indexTokens, parseQuery, toMatchExpression, type ParsedQuery } from './bigrams';
import { highlightAll, leadingSnippet, snippetAroundFirstMatch } from './highlight';
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
  content: Buffer;
}

type SqlValue = string | number;

function compress(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  return brotliCompressSync(bytes, {
    params: {
      [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
      [zlibConstants.BROTLI_PARAM_QUALITY]: 5,
      [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
}

function decompress(blob: Buffer): string {
  return brotliDecompressSync(blob).toString('utf8');
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
      this.sqlite.exec(`CREATE TABLE IF NOT EXISTS ${this.entries} (
        id INTEGER PRIMARY KEY,
        title TEXT NOT NULL,
        keywords TEXT NOT NULL,
        description TEXT NOT NULL,
        content BLOB NOT NULL,
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
    this.upsertNow(entries);
  }

  private upsertNow(entries: readonly SearchEntry[]): void {
    const insertEntry = this.statement(`INSERT OR REPLACE INTO ${this.entries}
      (id, title, keywords, description, content, user_id, ext, language, created_at,
       view_count, download_count, favorite_count, comment_count, score)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.sqlite.transaction(() => {
      for (const entry of entries) {
        const attributes = entry.attributes;
        const title = compactWhitespace(entry.title);
        const keywords = compactWhitespace(entry.keywords);
        const description = compactWhitespace(entry.description);
        const content = compactWhitespace(entry.content);
        this.removeTokens(entry.id);
        this.insertTokens(entry.id, title, keywords, description, content);
        insertEntry.run(
          entry.id,
          title,
          keywords,
          description,
          compress(content),
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

  private insertTokens(id: number, title: string, keywords: string, description: string, content: string): void {
    this.statement(`INSERT INTO ${this.fts} (rowid, title, keywords, description, content) VALUES (?, ?, ?, ?, ?)`).run(
      id,
      indexTokens(title),
      indexTokens(keywords),
      indexTokens(description),
      indexTokens(content),
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
        this.statement(`DELETE FROM ${this.entries} WHERE id = ?`).run(id);
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
      this.sqlite.prepare(`DELETE FROM ${this.entries}`).run();
      this.sqlite.prepare(`DELETE FROM ${this.categories}`).run();
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
      const batch = this.statement(`SELECT id, title, keywords, description, content FROM ${this.entries} WHERE id > ? ORDER BY id LIMIT ${REBUILD_BATCH}`);
      let after = Number.MIN_SAFE_INTEGER;
      for (;;) {
        const rows = batch.all(after) as StoredText[];
        for (const row of rows) this.insertTokens(row.id, row.title, row.keywords, row.description, decompress(row.content));
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
    const match = toMatchExpression(parsed);
    if (match === undefined) return { total: 0, hits: [], tookMs: performance.now() - started };
    const size = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.trunc(query.size ?? 10)));
    const page = Math.max(1, Math.trunc(query.page ?? 1));
    const sort = query.sort ?? 'relevance';
    const filter = this.filterClause(query.filters ?? {});
    const joined = filter.sql !== '' || sort !== 'relevance';
    const from = joined ? `${this.fts} AS f CROSS JOIN ${this.entries} AS d ON d.id = f.rowid` : `${this.fts} AS f`;
    const where = `f.${this.fts} MATCH ?${filter.sql}`;
    const order = sort === 'relevance' ? 'f.rank, f.rowid DESC' : `d.${SORT_COLUMNS[sort]} DESC, d.id DESC`;
    const params = [match, ...filter.params];

    const total = (this.statement(`SELECT count(*) AS n FROM ${from} WHERE ${where}`).get(...params) as { n: number }).n;
    const rows = total === 0
      ? []
      : (this.statement(`SELECT f.rowid AS id, ${sort === 'relevance' ? 'f.rank' : '0'} AS rank FROM ${from} WHERE ${where} ORDER BY ${order} LIMIT ? OFFSET ?`).all(
          ...params,
          size,
          (page - 1) * size,
        ) as { id: number; rank: number }[]);
    const hits = this.describeHits(rows, parsed);
    return { total, hits, tookMs: performance.now() - started };
  }

  private filterClause(filters: SearchFilters): { sql: string; params: SqlValue[] } {
    let sql = '';
    const params: SqlValue[] = [];
    const anyOf = (column: string, values: readonly SqlValue[] | undefined) => {
      if (!values || values.length === 0) return;
      sql += ` AND ${column} IN (${placeholders(values.length)})`;
      params.push(...values);
    };
    if (filters.categoryIds && filters.categoryIds.length > 0) {
      sql += ` AND f.rowid IN (SELECT entry_id FROM ${this.categories} WHERE category_id IN (${placeholders(filters.categoryIds.length)}))`;
      params.push(...filters.categoryIds);
    }
    anyOf('d.ext', filters.exts);
    anyOf('d.language', filters.languages);
    if (filters.userId !== undefined) {
      sql += ' AND d.user_id = ?';
      params.push(filters.userId);
    }
    if (filters.createdFrom !== undefined) {
      sql += ' AND d.created_at >= ?';
      params.push(epochMs(filters.createdFrom, 'createdFrom'));
    }
    if (filters.createdTo !== undefined) {
      sql += ' AND d.created_at <= ?';
      params.push(epochMs(filters.createdTo, 'createdTo'));
    }
    return { sql, params };
  }

  private describeHits(rows: { id: number; rank: number }[], parsed: ParsedQuery): SearchHit[] {
    if (rows.length === 0) return [];
    const stored = this.statement(`SELECT id, title, keywords, description, content FROM ${this.entries} WHERE id IN (SELECT value FROM json_each(?))`).all(
      JSON.stringify(rows.map((row) => row.id)),
    ) as StoredText[];
    const byId = new Map(stored.map((row) => [row.id, row]));
    const hits: SearchHit[] = [];
    for (const row of rows) {
      const text = byId.get(row.id);
      if (!text) continue;
      hits.push({ id: row.id, score: row.rank === 0 ? 0 : -row.rank, titleHighlight: highlightAll(text.title, parsed), snippet: this.snippet(text, parsed) });
    }
    return hits;
  }

  /** Around the first match in the text, else in the description, else the text's beginning. */
  private snippet(text: StoredText, parsed: ParsedQuery): string {
    const content = decompress(text.content);
    if (!parsed.titleOnly) {
      const around = snippetAroundFirstMatch(content, parsed, this.snippetLength) ?? snippetAroundFirstMatch(text.description, parsed, this.snippetLength);
      if (around !== undefined) return around;
    }
    return leadingSnippet(content || text.description, this.snippetLength);
  }
}
