// The search engine on PostgreSQL, for a backend whose database is PostgreSQL: the tokens of
// bigrams.ts (the SQLite engine's, not PostgreSQL's parser) written as tsvectors with GIN
// indexes, one table per tier of the ranking as the SQLite engine has one FTS5 table per tier
// (title and keywords, weights A and B; the description; every column, A/B/C/D for title,
// keywords, description, text; a long text's further parts apart, tsvectors.ts), the counts of
// repeated tokens as lexemes (so that ranking a word reads no tsvector), beside tables for the
// filter and sort values, the categories and the texts the snippets are cut from
// (postgres-stored-texts.ts). A search is one round trip (postgres-search-plan.ts): its
// count, its page ranked by FTS5's bm25 computed in SQL from the same counts, the windows of
// its snippets, which search-hits.ts then cuts and highlights as for SQLite. For the same writes
// and queries it answers what SqliteSearchIndex answers (totals, hits, order, scores, snippets,
// highlights), except where FTS5 does something our tokens do not say:
// - FTS5's unicode61 folds accents (`cafe` finds `café` there, not here) and splits a token of
//   ours again at a character it does not count as a letter or digit (a spacing mark, as in
//   Devanagari, or a symbol inside a word), which also changes that text's token counts;
// - a token longer than 2,046 bytes (a run of letters without a space) is left out here;
// - a phrase of several Latin words across the cut between two parts of a long text that has
//   no CJK run for 16,000 tokens is not found here (tsvectors.ts);
// - the title and keywords, and the description, are one tsvector each: past 16,383 tokens or
//   256 instances of one token (a description of 300 times the same character), the rest is
//   not counted in their tiers;
// - with column weights that are not whole numbers, a row's weighted instances are rounded.
// The tables are made on first use (no migration): a rebuildable cache whose shape follows the
// tokenizer version, like the SQLite engine's.
import crypto from 'node:crypto';
import {
  TOKENIZER_VERSION,
  foldText,
  indexTerms,
  parseQuery,
  separateWordsQuery,
  tokensOfVersion,
  type ParsedQuery,
} from './bigrams';
import { DEFAULT_WEIGHTS, checkWeights, type ColumnWeights } from './bm25';
import {
  DESCRIPTION_COUNTS,
  PostgresSearchPlanner,
  TEXT_COUNTS,
  tokenTables,
  type PostgresTables,
  type Statement,
  type TokenTable,
  type TokenTables,
} from './postgres-search-plan';
import { PostgresStoredTexts, rowsOf, type Executor, type WindowRow } from './postgres-stored-texts';
import { HitDescriber, needlesOf } from './search-hits';
import {
  pageWindow,
  type SearchAttributes,
  type SearchCounters,
  type SearchCollection,
  type SearchEntry,
  type SearchIndex,
  type SearchQuery,
  type SearchResult,
} from './search-index';
import { changedAttributeColumns, epochMs } from './search-plan';
import { nextTurn } from '../turns';
import { storedTextOf, type StoredText } from './stored-texts';
import { countLexemes, tsvectorOf, tsvectorParts } from './tsvectors';

export interface PostgresSearchIndexOptions {
  /** bm25 weight of each column; the title counts most. */
  weights?: ColumnWeights;
  /** Characters of text in a snippet. */
  snippetLength?: number;
  /** Bytes of whole texts one page of hits may read for their best pages (BEST_PAGE_BYTES). */
  bestPageBytes?: number;
}

/** Entries written per statement: a batch is cut at this much tsvector text. */
const BATCH_BYTES = 8 << 20;
/** Any number, the same in every process: the lock that serialises making the tables. */
const CREATION_LOCK = 7_140_251;
/** The function that runs a search's statement (see run()). */
const RUNNER = 'search_run';

/**
 * A row of a search's statement: the total, and a hit of the page with its text window (all null when the page is
 * empty).
 */
type SearchRow = { total: number; rank: number | null } & { [K in keyof WindowRow]: WindowRow[K] | null };

/** An entry as its rows are written: the stored text, the tsvectors and their sizes in tokens. */
interface PreparedEntry {
  text: StoredText;
  attributes: SearchAttributes;
  createdAt: number;
  head: string;
  summary: string;
  /** the every-column tsvector, in parts when the text is long (tsvectors.ts) */
  fts: string[];
  /** the counts of the text's and the description's tokens, as lexemes, and the bits they take */
  counts: string[];
  countBits: number;
  sizes: { head: number; summary: number; fts: number };
}

/** The tokens of a stored text, for each token table. */
function tokensOf(
  text: StoredText,
): Pick<PreparedEntry, 'head' | 'summary' | 'fts' | 'counts' | 'countBits' | 'sizes'> {
  const title = indexTerms(text.title);
  const keywords = indexTerms(text.keywords);
  const description = indexTerms(text.description);
  const content = indexTerms(text.content);
  const counts = [countLexemes(content, TEXT_COUNTS), countLexemes(description, DESCRIPTION_COUNTS)];
  return {
    counts: counts.flatMap((count) => count.parts),
    countBits: Math.max(...counts.map((count) => count.bits)),
    head: tsvectorOf([
      { terms: title, weight: 'A' },
      { terms: keywords, weight: 'B' },
    ]),
    summary: tsvectorOf([{ terms: description, weight: 'D' }]),
    fts: tsvectorParts([
      { terms: title, weight: 'A' },
      { terms: keywords, weight: 'B' },
      { terms: description, weight: 'C' },
      { terms: content, weight: 'D' },
    ]),
    sizes: {
      head: title.length + keywords.length,
      summary: description.length,
      fts: title.length + keywords.length + description.length + content.length,
    },
  };
}

/** The folded title the single characters are looked for in; PostgreSQL's text holds no NUL. */
function foldedTitle(title: string): string {
  return foldText(title).replaceAll('\u0000', '\uFFFD');
}

export class PostgresSearchIndex implements SearchIndex {
  readonly collection: SearchCollection;
  /**
   * Ten: the writes wait on the database's socket, where requests get their turns; each batch is a transaction of
   * round trips, which smaller batches would multiply.
   */
  readonly rebuildBatch = 10;
  private readonly tables: PostgresTables;
  private readonly tokens: TokenTables;
  private readonly texts: PostgresStoredTexts;
  private readonly planner: PostgresSearchPlanner;
  /** how far a snippet's window reaches on each side of its needle (search-hits.ts) */
  private readonly reach: number;
  /**
   * The statement of the usual search (one word or phrase, by relevance, its first page, the
   * count capped, no filter) and the function that runs it: static SQL, whose plans each
   * connection makes once (planning the statement took 4–20 ms of a search's 5–25 on a loaded
   * machine; the plan, all GIN lookups and keyed reads, suits every word), a statement per step
   * (the planner's procedure): the one statement's large plan cost 0.3 ms of server CPU to
   * start and end even when nothing matched, and its tiers ran when the first had filled the page.
   */
  private readonly usual: { sql: string; name: string; procedure: string };
  private readonly snippetLength: number | undefined;
  private readonly bestPageBytes: number | undefined;
  private created: Promise<void> | undefined;
  /** the oldest tokenizer version an entry's tokens may be of (TOKENIZER_VERSION once upgraded) */
  private version = TOKENIZER_VERSION;

  constructor(
    private readonly db: Executor,
    collection: SearchCollection,
    options: PostgresSearchIndexOptions = {},
  ) {
    // Table names are built from the collection: allow nothing but a plain identifier.
    if (!/^[a-z][a-z0-9_]*$/.test(collection)) throw new RangeError(`bad search collection name: ${collection}`);
    this.collection = collection;
    const weights = options.weights ?? DEFAULT_WEIGHTS;
    checkWeights(weights);
    this.tables = { entries: `search_${collection}`, categories: `search_${collection}_category`, meta: 'search_meta' };
    this.tokens = tokenTables(collection, weights);
    this.texts = new PostgresStoredTexts(db, collection, (statement) => this.run(statement));
    this.planner = new PostgresSearchPlanner(
      collection,
      this.tables,
      this.tokens,
      weights,
      this.texts,
      () => tokensOfVersion(this.version).wholeWords,
    );
    this.snippetLength = options.snippetLength;
    this.bestPageBytes = options.bestPageBytes;
    this.reach = new HitDescriber(this.texts, options.snippetLength).reach;
    const usual = this.planner.search({
      parsed: { terms: [{ kind: 'phrase', tokens: ['word'] }], titleOnly: false },
      filters: {},
      sort: 'relevance',
      size: 10,
      offset: 0,
      maxTotal: 1000,
      needles: [],
      reach: this.reach,
    })!;
    const procedure = usual.procedure!();
    this.usual = {
      sql: usual.sql,
      procedure,
      name: `search_${collection}_usual_${crypto.createHash('sha256').update(procedure).digest('hex').slice(0, 12)}`,
    };
  }

  private get tokenTables(): TokenTable[] {
    return [this.tokens.head, this.tokens.summary, this.tokens.fts];
  }

  /** Every table of tokens, the further parts of long texts' and the counts' too. */
  private get tokenTableNames(): string[] {
    return [...this.tokenTables.map((table) => table.name), this.tokens.more, this.tokens.counts];
  }

  /** Makes the tables on first use (once per process; the lock keeps two processes apart). */
  private ready(): Promise<void> {
    this.created ??= this.createTables().catch((error: unknown) => {
      this.created = undefined;
      throw error;
    });
    return this.created;
  }

  private async createTables(): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await rowsOf(trx, 'SELECT pg_advisory_xact_lock($1)', [CREATION_LOCK]);
      const newTable = async (name: string) =>
        (await rowsOf<{ missing: boolean }>(trx, 'SELECT to_regclass($1) IS NULL AS missing', [name]))[0]!.missing;
      // Where every table and index is there (another process made them), no DDL runs: even
      // CREATE … IF NOT EXISTS locks its table, and that lock, taken while another process
      // empties the index (TRUNCATE of every table, in its order), ended one of them in a deadlock.
      if (await this.anyMissing(trx)) {
        await rowsOf(
          trx,
          `CREATE TABLE IF NOT EXISTS ${this.tables.meta} (
            collection text PRIMARY KEY,
            tokenizer_version integer NOT NULL,
            written_rows bigint NOT NULL DEFAULT 0,
            head_tokens bigint NOT NULL DEFAULT 0,
            summary_tokens bigint NOT NULL DEFAULT 0,
            fts_tokens bigint NOT NULL DEFAULT 0,
            count_bits integer NOT NULL DEFAULT 0
          )`,
        );
        // Filter and sort values apart from the tokens: a sort or a filter over thousands of
        // matches reads a few dense pages.
        await rowsOf(
          trx,
          `CREATE TABLE IF NOT EXISTS ${this.tables.entries} (
            id bigint PRIMARY KEY,
            title_folded text NOT NULL,
            user_id bigint NOT NULL DEFAULT 0,
            ext text NOT NULL DEFAULT '',
            language text NOT NULL DEFAULT '',
            created_at bigint NOT NULL,
            view_count bigint NOT NULL DEFAULT 0,
            download_count bigint NOT NULL DEFAULT 0,
            favorite_count bigint NOT NULL DEFAULT 0,
            comment_count bigint NOT NULL DEFAULT 0,
            score bigint NOT NULL DEFAULT 0
          )`,
        );
        // size: the entry's tokens in the table's columns (bm25's D); parts: 1, or the parts of a
        // long text, the first here and the others in the table of further parts.
        for (const table of [this.tokens.head, this.tokens.summary]) {
          await rowsOf(
            trx,
            `CREATE TABLE IF NOT EXISTS ${table.name} (id bigint PRIMARY KEY, size integer NOT NULL, tokens tsvector NOT NULL)`,
          );
        }
        await rowsOf(
          trx,
          `CREATE TABLE IF NOT EXISTS ${this.tokens.fts.name} (id bigint PRIMARY KEY, size integer NOT NULL, parts integer NOT NULL, tokens tsvector NOT NULL)`,
        );
        for (const table of [this.tokens.more, this.tokens.counts]) {
          await rowsOf(
            trx,
            `CREATE TABLE IF NOT EXISTS ${table} (id bigint NOT NULL, part integer NOT NULL, tokens tsvector NOT NULL, PRIMARY KEY (id, part))`,
          );
        }
        for (const table of this.tokenTableNames) {
          await rowsOf(trx, `CREATE INDEX IF NOT EXISTS ${table}_tokens ON ${table} USING gin (tokens)`);
        }
        if (await newTable(`search_${this.collection}_text`))
          for (const statement of this.texts.creation) await rowsOf(trx, statement);
        await rowsOf(
          trx,
          `CREATE TABLE IF NOT EXISTS ${this.tables.categories} (
            category_id bigint NOT NULL,
            entry_id bigint NOT NULL,
            PRIMARY KEY (category_id, entry_id)
          )`,
        );
        await rowsOf(
          trx,
          `CREATE INDEX IF NOT EXISTS ${this.tables.categories}_entry ON ${this.tables.categories} (entry_id)`,
        );
      }
      await this.texts.addShownColumn(trx);
      await rowsOf(
        trx,
        `CREATE OR REPLACE FUNCTION ${RUNNER}(statement text, params text[]) RETURNS SETOF record
          LANGUAGE plpgsql SET enable_seqscan = off SET jit = off
          AS $$ BEGIN RETURN QUERY EXECUTE statement USING params; END $$`,
      );
      // Named after its SQL: processes of another version of this code keep their own.
      await rowsOf(
        trx,
        `CREATE OR REPLACE FUNCTION ${this.usual.name}(params text[]) RETURNS SETOF record
          LANGUAGE plpgsql SET enable_seqscan = off SET jit = off SET plan_cache_mode = force_generic_plan
          AS $usual$ ${this.usual.procedure} $usual$`,
      );
      await rowsOf(
        trx,
        `INSERT INTO ${this.tables.meta} (collection, tokenizer_version) VALUES ($1, $2) ON CONFLICT (collection) DO NOTHING`,
        [this.collection, TOKENIZER_VERSION],
      );
    });
    this.version = await this.storedVersion();
  }

  /** Is any of the tables or indexes createTables makes missing? (`to_regclass` takes no lock.) */
  private async anyMissing(trx: Executor): Promise<boolean> {
    const names = [
      this.tables.meta,
      this.tables.entries,
      this.tables.categories,
      `${this.tables.categories}_entry`,
      `search_${this.collection}_text`,
      ...this.tokenTableNames.flatMap((table) => [table, `${table}_tokens`]),
    ];
    const [row] = await rowsOf<{ missing: number }>(
      trx,
      'SELECT count(*)::int AS missing FROM unnest($1::text[]) AS name WHERE to_regclass(name) IS NULL',
      [names],
    );
    return row!.missing > 0;
  }

  /** The tokenizer version search_meta records for this collection (0: none). */
  private async storedVersion(): Promise<number> {
    const [row] = await rowsOf<{ version: number }>(
      this.db,
      `SELECT tokenizer_version AS version FROM ${this.tables.meta} WHERE collection = $1`,
      [this.collection],
    );
    return row?.version ?? 0;
  }

  /** True when the stored tokens come from another tokenizer version: call upgrade() or rebuild(). */
  async needsRebuild(): Promise<boolean> {
    await this.ready();
    return (await this.storedVersion()) !== TOKENIZER_VERSION;
  }

  async upsert(entries: readonly SearchEntry[]): Promise<void> {
    await this.ready();
    if (entries.length === 0) return;
    // An id given twice is written once, as given last; FTS5's counts take in every write.
    const latest = new Map<number, PreparedEntry>();
    const written = nothingWritten();
    for (const entry of entries) {
      const text = storedTextOf(entry);
      const prepared = {
        text,
        attributes: entry.attributes,
        createdAt: epochMs(entry.attributes.createdAt, 'createdAt'),
        ...tokensOf(text),
      };
      latest.delete(entry.id);
      latest.set(entry.id, prepared);
      addWritten(written, prepared);
    }
    await this.db.transaction().execute(async (trx) => {
      for (const batch of batches([...latest.values()])) {
        await this.writeEntries(trx, batch);
        await this.writeTokens(trx, batch);
        await this.texts.put(
          trx,
          batch.map((entry) => entry.text),
        );
        await this.writeCategories(trx, batch);
      }
      await this.countWritten(trx, written);
    });
  }

  private async writeEntries(db: Executor, batch: readonly PreparedEntry[]): Promise<void> {
    const column = <T>(value: (entry: PreparedEntry) => T) => batch.map(value);
    await rowsOf(
      db,
      `INSERT INTO ${this.tables.entries}
        (id, title_folded, user_id, ext, language, created_at, view_count, download_count, favorite_count, comment_count, score)
        SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[])
        ON CONFLICT (id) DO UPDATE SET title_folded = excluded.title_folded, user_id = excluded.user_id, ext = excluded.ext, language = excluded.language,
          created_at = excluded.created_at, view_count = excluded.view_count, download_count = excluded.download_count,
          favorite_count = excluded.favorite_count, comment_count = excluded.comment_count, score = excluded.score`,
      [
        column((entry) => entry.text.id),
        column((entry) => foldedTitle(entry.text.title)),
        column((entry) => entry.attributes.userId ?? 0),
        column((entry) => entry.attributes.ext ?? ''),
        column((entry) => entry.attributes.language ?? ''),
        column((entry) => entry.createdAt),
        column((entry) => entry.attributes.viewCount ?? 0),
        column((entry) => entry.attributes.downloadCount ?? 0),
        column((entry) => entry.attributes.favoriteCount ?? 0),
        column((entry) => entry.attributes.commentCount ?? 0),
        column((entry) => entry.attributes.score ?? 0),
      ],
    );
  }

  /** The entries' rows of the token tables, replacing their old ones. */
  private async writeTokens(
    db: Executor,
    batch: readonly Pick<PreparedEntry, 'text' | 'head' | 'summary' | 'fts' | 'counts' | 'sizes'>[],
  ): Promise<void> {
    const ids = batch.map((entry) => entry.text.id);
    for (const [table, part] of [
      [this.tokens.head, 'head'],
      [this.tokens.summary, 'summary'],
    ] as const) {
      await rowsOf(
        db,
        `INSERT INTO ${table.name} (id, size, tokens) SELECT * FROM unnest($1::bigint[], $2::int[], $3::tsvector[])
          ON CONFLICT (id) DO UPDATE SET size = excluded.size, tokens = excluded.tokens`,
        [ids, batch.map((entry) => entry.sizes[part]), batch.map((entry) => entry[part])],
      );
    }
    await rowsOf(
      db,
      `INSERT INTO ${this.tokens.fts.name} (id, size, parts, tokens) SELECT * FROM unnest($1::bigint[], $2::int[], $3::int[], $4::tsvector[])
        ON CONFLICT (id) DO UPDATE SET size = excluded.size, parts = excluded.parts, tokens = excluded.tokens`,
      [
        ids,
        batch.map((entry) => entry.sizes.fts),
        batch.map((entry) => entry.fts.length),
        batch.map((entry) => entry.fts[0]),
      ],
    );
    await this.writeParts(
      db,
      this.tokens.more,
      ids,
      batch.flatMap((entry) =>
        entry.fts.slice(1).map((tokens, index) => ({ id: entry.text.id, part: index + 1, tokens })),
      ),
    );
    await this.writeParts(
      db,
      this.tokens.counts,
      ids,
      batch.flatMap((entry) => entry.counts.map((tokens, part) => ({ id: entry.text.id, part, tokens }))),
    );
  }

  /** The rows of a table of (id, part, tokens) of these entries, replacing their old ones. */
  private async writeParts(
    db: Executor,
    table: string,
    ids: readonly number[],
    rows: readonly { id: number; part: number; tokens: string }[],
  ): Promise<void> {
    await rowsOf(db, `DELETE FROM ${table} WHERE id = ANY($1::bigint[])`, [ids]);
    if (rows.length === 0) return;
    await rowsOf(
      db,
      `INSERT INTO ${table} (id, part, tokens) SELECT * FROM unnest($1::bigint[], $2::int[], $3::tsvector[])`,
      [rows.map((row) => row.id), rows.map((row) => row.part), rows.map((row) => row.tokens)],
    );
  }

  private async writeCategories(db: Executor, batch: readonly PreparedEntry[]): Promise<void> {
    await this.setCategories(
      db,
      batch.map((entry) => entry.text.id),
      batch.flatMap((entry) =>
        (entry.attributes.categoryIds ?? []).map((categoryId) => [entry.text.id, categoryId] as const),
      ),
    );
  }

  private async setCategories(
    db: Executor,
    ids: readonly number[],
    links: readonly (readonly [number, number])[],
  ): Promise<void> {
    await rowsOf(db, `DELETE FROM ${this.tables.categories} WHERE entry_id = ANY($1::bigint[])`, [ids]);
    if (links.length === 0) return;
    await rowsOf(
      db,
      `INSERT INTO ${this.tables.categories} (entry_id, category_id) SELECT * FROM unnest($1::bigint[], $2::bigint[]) ON CONFLICT DO NOTHING`,
      [links.map(([id]) => id), links.map(([, categoryId]) => categoryId)],
    );
  }

  /** Adds what was written to the counts bm25 reads (FTS5 adds every row it is given, and subtracts nothing). */
  private async countWritten(db: Executor, written: Written): Promise<void> {
    await rowsOf(
      db,
      `UPDATE ${this.tables.meta} SET written_rows = written_rows + $1, head_tokens = head_tokens + $2, summary_tokens = summary_tokens + $3,
        fts_tokens = fts_tokens + $4, count_bits = greatest(count_bits, $5) WHERE collection = $6`,
      [written.rows, written.head, written.summary, written.fts, written.countBits, this.collection],
    );
  }

  async updateAttributes(id: number, attributes: Partial<SearchAttributes>): Promise<void> {
    await this.ready();
    const changed = changedAttributeColumns(attributes);
    if (!attributes.categoryIds) {
      // A counter that moved (a view, a download, a favourite): one statement, on the hot path of
      // reading; an id the index does not hold updates nothing.
      if (changed.length > 0) {
        const assignments = changed.map(([name], i) => `${name} = $${i + 2}`).join(', ');
        await rowsOf(this.db, `UPDATE ${this.tables.entries} SET ${assignments} WHERE id = $1`, [
          id,
          ...changed.map(([, value]) => value),
        ]);
      }
      return;
    }
    await this.db.transaction().execute(async (trx) => {
      const known = await rowsOf(trx, `SELECT 1 FROM ${this.tables.entries} WHERE id = $1 FOR UPDATE`, [id]);
      if (known.length === 0) return;
      if (changed.length > 0) {
        const assignments = changed.map(([name], i) => `${name} = $${i + 2}`).join(', ');
        await rowsOf(trx, `UPDATE ${this.tables.entries} SET ${assignments} WHERE id = $1`, [
          id,
          ...changed.map(([, value]) => value),
        ]);
      }
      if (attributes.categoryIds)
        await this.setCategories(
          trx,
          [id],
          attributes.categoryIds.map((categoryId) => [id, categoryId] as const),
        );
    });
  }

  async addToCounters(id: number, deltas: SearchCounters): Promise<void> {
    await this.ready();
    const changed = changedAttributeColumns(deltas);
    if (changed.length === 0) return;
    // One statement, on the hot path of reading: the row's lock orders the additions.
    const assignments = changed.map(([name], i) => `${name} = ${name} + $${i + 2}`).join(', ');
    await rowsOf(this.db, `UPDATE ${this.tables.entries} SET ${assignments} WHERE id = $1`, [
      id,
      ...changed.map(([, delta]) => delta),
    ]);
  }

  async remove(ids: readonly number[]): Promise<void> {
    await this.ready();
    if (ids.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (const table of [this.tables.entries, ...this.tokenTableNames])
        await rowsOf(trx, `DELETE FROM ${table} WHERE id = ANY($1::bigint[])`, [ids]);
      await rowsOf(trx, `DELETE FROM ${this.tables.categories} WHERE entry_id = ANY($1::bigint[])`, [ids]);
      await this.texts.remove(trx, ids);
    });
  }

  async count(): Promise<number> {
    await this.ready();
    return (await rowsOf<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM ${this.tables.entries}`))[0]!.n;
  }

  async needsRefill(): Promise<boolean> {
    await this.ready();
    return this.texts.anyWithoutShownPart();
  }

  async clear(): Promise<void> {
    await this.ready();
    await this.db.transaction().execute(async (trx) => {
      await rowsOf(
        trx,
        `TRUNCATE ${[this.tables.entries, this.tables.categories, ...this.tokenTableNames].join(', ')}`,
      );
      await this.texts.clear(trx);
      await this.resetCounts(trx);
    });
    this.version = TOKENIZER_VERSION;
  }

  /** Empty token tables: nothing written, this tokenizer version's. */
  private async resetCounts(db: Executor): Promise<void> {
    await rowsOf(
      db,
      `UPDATE ${this.tables.meta} SET tokenizer_version = $1, written_rows = 0, head_tokens = 0, summary_tokens = 0, fts_tokens = 0, count_bits = 0
        WHERE collection = $2`,
      [TOKENIZER_VERSION, this.collection],
    );
  }

  /** Tokenizes every entry again from the text this index stores, in one transaction, after a tokenizer change. */
  async rebuild(): Promise<void> {
    await this.ready();
    await this.db.transaction().execute(async (trx) => {
      await rowsOf(trx, `TRUNCATE ${this.tokenTableNames.join(', ')}`);
      await this.resetCounts(trx);
      let after = Number.MIN_SAFE_INTEGER;
      for (;;) {
        const rows = await this.texts.batchAfter(trx, after, 200);
        await this.reindex(trx, rows);
        if (rows.length < 200) break;
        after = rows[rows.length - 1]!.id;
      }
    });
    this.version = TOKENIZER_VERSION;
    await this.optimize();
  }

  /**
   * rebuild() while the site keeps answering, as SqliteSearchIndex.upgrade(): `batch` entries
   * a transaction, the event loop served between them, dictionary words matched as their
   * bigram phrases until the last batch. Returns false when `stopped()` ended it early.
   */
  async upgrade(options: { batch?: number; stopped?: () => boolean } = {}): Promise<boolean> {
    if (!(await this.needsRebuild())) return true;
    const batch = Math.max(1, Math.trunc(options.batch ?? 10));
    let after = Number.MIN_SAFE_INTEGER;
    for (;;) {
      await nextTurn();
      if (options.stopped?.()) return false;
      const rows = await this.texts.batchAfter(this.db, after, batch);
      await this.db.transaction().execute((trx) => this.reindex(trx, rows));
      if (rows.length < batch) break;
      after = rows[rows.length - 1]!.id;
    }
    await rowsOf(this.db, `UPDATE ${this.tables.meta} SET tokenizer_version = $1 WHERE collection = $2`, [
      TOKENIZER_VERSION,
      this.collection,
    ]);
    this.version = TOKENIZER_VERSION;
    await this.optimize();
    return true;
  }

  /** Entries' tokens and folded titles made again from their stored texts. */
  private async reindex(db: Executor, texts: readonly StoredText[]): Promise<void> {
    if (texts.length === 0) return;
    const written = nothingWritten();
    const prepared = texts.map((text) => ({ text, ...tokensOf(text) }));
    for (const entry of prepared) addWritten(written, entry);
    for (const batch of batches(prepared)) await this.writeTokens(db, batch);
    await rowsOf(
      db,
      `UPDATE ${this.tables.entries} AS d SET title_folded = t.title FROM unnest($1::bigint[], $2::text[]) AS t (id, title) WHERE d.id = t.id`,
      [prepared.map((entry) => entry.text.id), prepared.map((entry) => foldedTitle(entry.text.title))],
    );
    await this.countWritten(db, written);
  }

  /** Cleans the GIN indexes' pending entries and refreshes the planner's statistics: worth it after a bulk load. */
  async optimize(): Promise<void> {
    await this.ready();
    const tables = [
      this.tables.entries,
      this.tables.categories,
      ...this.tokenTableNames,
      `search_${this.collection}_text`,
    ];
    await rowsOf(this.db, `VACUUM (ANALYZE) ${tables.join(', ')}`);
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    const started = performance.now();
    await this.ready();
    // Until every entry has this version's tokens, the signs are read as the old ones were (none before version 3).
    const parsed = parseQuery(query.text, { symbols: tokensOfVersion(this.version).symbols });
    let found = await this.searchParsed(parsed, query);
    // Words typed together that the texts hold apart: each word on its own (bigrams.ts).
    const separate = found.total === 0 ? separateWordsQuery(parsed) : undefined;
    if (separate) found = await this.searchParsed(separate, query);
    return { ...found, tookMs: performance.now() - started };
  }

  private async searchParsed(parsed: ParsedQuery, query: SearchQuery): Promise<Omit<SearchResult, 'tookMs'>> {
    const { size, offset } = pageWindow(query);
    const statement = this.planner.search({
      parsed,
      filters: query.filters ?? {},
      sort: query.sort ?? 'relevance',
      size,
      offset,
      ...(query.maxTotal !== undefined ? { maxTotal: query.maxTotal } : {}),
      needles: needlesOf(parsed).needles,
      reach: this.reach,
    });
    if (!statement) return { total: 0, hits: [] };
    const rows = await this.run<SearchRow>(statement);
    const page = rows.filter((row): row is SearchRow & { id: number } => row.id !== null);
    const texts = page.filter((row): row is SearchRow & WindowRow => row.title !== null);
    const describer = new HitDescriber(this.texts.prefetched(texts), this.snippetLength, this.bestPageBytes);
    const hits = await describer.describe(
      page.map((row) => ({ id: row.id, rank: row.rank ?? 0 })),
      parsed,
    );
    return { total: rows[0]?.total ?? 0, hits };
  }

  /**
   * Runs a statement through the runner function (one round trip, one snapshot) with the
   * settings a search needs: the GIN indexes used (the planner would rather scan a table whose
   * every row holds a common word, and reading every tsvector costs a hundred times what it
   * reckons) and no JIT compilation (which pays only for long queries).
   */
  private async run<Row>(statement: Statement & { sql: string; columns: string }): Promise<Row[]> {
    if (statement.sql === this.usual.sql)
      return rowsOf<Row>(this.db, `SELECT * FROM ${this.usual.name}($1) AS r (${statement.columns})`, [
        statement.params,
      ]);
    return rowsOf<Row>(this.db, `SELECT * FROM ${RUNNER}($1, $2) AS r (${statement.columns})`, [
      statement.sql,
      statement.params,
    ]);
  }
}

/** What writes add to search_meta: rows and tokens (bm25's N and avgdl), and the bits the largest count takes. */
interface Written {
  rows: number;
  head: number;
  summary: number;
  fts: number;
  countBits: number;
}

function nothingWritten(): Written {
  return { rows: 0, head: 0, summary: 0, fts: 0, countBits: 0 };
}

function addWritten(written: Written, { sizes, countBits }: Pick<PreparedEntry, 'sizes' | 'countBits'>): void {
  written.rows++;
  written.head += sizes.head;
  written.summary += sizes.summary;
  written.fts += sizes.fts;
  written.countBits = Math.max(written.countBits, countBits);
}

/** Entries in groups of at most BATCH_BYTES of tsvector text (one entry alone may be more). */
function batches<T extends Pick<PreparedEntry, 'fts'>>(entries: readonly T[]): T[][] {
  const groups: T[][] = [];
  let group: T[] = [];
  let bytes = 0;
  for (const entry of entries) {
    const size = entry.fts.reduce((sum, part) => sum + part.length, 0);
    if (group.length > 0 && bytes + size > BATCH_BYTES) {
      groups.push(group);
      group = [];
      bytes = 0;
    }
    group.push(entry);
    bytes += size;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}
