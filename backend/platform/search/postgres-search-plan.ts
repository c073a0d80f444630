// The SQL of a search over the tables of postgres-search-index.ts, as one statement: the count,
// the page (in tiers for relevance: title and keywords, description, everything, as the SQLite
// engine's search-plan.ts and tieredPage walk them) and the hits' text windows, so that a search
// is one round trip to the server. Which token table and tsquery, which filters, which order,
// and bm25 written out in SQL so that the order is the one FTS5 gives the SQLite engine (bm25.ts).
import type { ParsedQuery, QueryTerm } from './bigrams';
import { BM25_B, BM25_K1, BM25_MIN_IDF, type ColumnWeights } from './bm25';
import type { PostgresStoredTexts } from './postgres-stored-texts';
import type { SearchFilters, SearchSort } from './search-index';
import { SORT_COLUMNS, epochMs } from './search-plan';

type Value = string | number;

/** A PostgreSQL array literal of numbers or texts. */
function arrayLiteral(values: readonly Value[]): string {
  return `{${values.map((value) => (typeof value === 'number' ? String(value) : `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`)).join(',')}}`;
}

/**
 * One statement's parameters: its SQL reads them as `$1[n]` from one text array (see
 * PostgresSearchIndex.run), each cast to its type where it is used.
 */
export class Statement {
  readonly params: string[] = [];

  bind(value: Value | readonly Value[], type: string): string {
    this.params.push(typeof value === 'object' ? arrayLiteral(value) : String(value));
    return `($1[${this.params.length}])::${type}`;
  }
}

export interface PostgresTables {
  /** filter and sort values, the folded title */
  entries: string;
  /** (category_id, entry_id) */
  categories: string;
  /** collection → tokenizer version and the statistics bm25 reads */
  meta: string;
}

/**
 * A table of (id, size, tokens tsvector) with a GIN index on the tokens: one for each tier.
 * `weights` are ts_rank_cd's ({D, C, B, A}), scaled to at most 1; `scale` undoes that.
 */
export interface TokenTable {
  name: string;
  /** search_meta's column that sums the tokens written to this table (bm25's avgdl) */
  total: string;
  weights: string;
  scale: number;
}

/** The token tables of a collection (see PostgresSearchIndex). */
export interface TokenTables {
  head: TokenTable;
  summary: TokenTable;
  fts: TokenTable;
  /** the parts after the first of the every-column tsvectors of long texts: (id, part, tokens) */
  more: string;
  /** the counts of tokens in the texts and descriptions, as lexemes (tsvectors.ts countLexemes): (id, part, tokens) */
  counts: string;
}

/** The marks of the count lexemes of the text and of the description. */
export const TEXT_COUNTS = 'c';
export const DESCRIPTION_COUNTS = 'd';

/** The ts_rank_cd weights of columns stored with the weights A, B, C, D, and the scale back. */
export function rankWeights(a: number, b: number, c: number, d: number): { weights: string; scale: number } {
  const scale = Math.max(a, b, c, d) || 1;
  return { weights: `{${[d, c, b, a].map((weight) => weight / scale).join(',')}}`, scale };
}

export function tokenTables(collection: string, weights: ColumnWeights): TokenTables {
  return {
    head: {
      name: `search_${collection}_head`,
      total: 'head_tokens',
      ...rankWeights(weights.title, weights.keywords, 0, 0),
    },
    // FTS5's bm25 of the description table has no weights: each instance counts 1.
    summary: { name: `search_${collection}_summary`, total: 'summary_tokens', ...rankWeights(0, 0, 0, 1) },
    fts: {
      name: `search_${collection}_fts`,
      total: 'fts_tokens',
      ...rankWeights(weights.title, weights.keywords, weights.description, weights.content),
    },
    more: `search_${collection}_fts_more`,
    counts: `search_${collection}_counts`,
  };
}

/** A tsquery lexeme: quoted, so that no user input acts as an operator. */
function lexeme(token: string): string {
  return `'${token.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

/**
 * The tsquery of each term of a parsed query: a dictionary word as its one token when the
 * index holds them (`wholeWords`), else the tokens in a row (`<->`), restricted to the title
 * (weight A) for a title-only query; a single character as the prefix of a token (`:*`), as
 * FTS5's `"x"*`.
 */
export function phraseQueries(terms: QueryTerm[], titleOnly: boolean, wholeWords: boolean): string[] {
  const suffix = titleOnly ? ':A' : '';
  return terms.map((term) => {
    if (term.kind === 'char') return `${lexeme(term.char)}:*`;
    const tokens = wholeWords && term.word !== undefined ? [term.word] : term.tokens;
    return tokens.map((token) => `${lexeme(token)}${suffix}`).join(' <-> ');
  });
}

/** What a search asks for: the parsed query, its filters and order, its page and the cap on its count. */
export interface SearchShape {
  parsed: ParsedQuery;
  filters: SearchFilters;
  sort: SearchSort;
  size: number;
  offset: number;
  maxTotal?: number;
  /** the byte strings the hits' snippets are looked for (search-hits.ts), and how far a window reaches */
  needles: Buffer[];
  reach: number;
}

/** A search's statement, and the columns of the rows it answers (see PostgresSearchIndex.run). */
export interface SearchStatement extends Statement {
  sql: string;
  columns: string;
  /**
   * The same search as the body of a plpgsql function of `params text[]` (a first page ranked
   * in tiers only): a statement per step, each tier run only while the page still wants rows.
   * Made when asked: a search made by the function needs only its parameters.
   */
  procedure?: () => string;
}

/** A tier of a first page, for the procedure: its statistics, and its matches ranked (without their LIMIT). */
interface TierStep {
  statistics: string;
  ranked: string;
}

/** The columns of a search's rows: the total, then each hit of the page with its text window. */
export const SEARCH_COLUMNS =
  'total int, id float8, rank float8, title bytea, description bytea, size int, at int, start int, "window" text, partial boolean, page_starts bytea, shown int';

/** How a page's matches are ranked by bm25 (see ranked()). */
interface Ranking {
  /** the table whose rows each phrase's IDF counts */
  counted: string;
  /** counts, and instances, in the further parts of long texts too */
  parts: boolean;
  /** ts_rank_cd's weights of the instances in f.tokens, and the scale back */
  instances: { weights: string; scale: number };
  /** search_meta's column of the tokens of the table FTS5 ranks over (its avgdl) */
  total: string;
  /** the expression of the row's tokens (D), and a join it needs */
  size: string;
  sizeJoin?: string;
  /** the instances of a one-token query in one column, from its count lexemes, and that column's weight */
  counts?: { mark: string; weight: number };
}

/** The parameters and facts every part of a search's statement shares. */
interface Query {
  statement: Statement;
  shape: SearchShape;
  /** the tsquery of all the phrases, and of each (bound; and as texts) */
  match: string;
  phrases: string[];
  phraseTexts: string[];
  needsEntries: boolean;
  /** the one token of a query that is one (a word, a dictionary word, a bigram), bound */
  token?: string;
  /** the tsquery of each term of each word left out (ParsedQuery.excluded), bound */
  excluded: string[][];
}

export class PostgresSearchPlanner {
  constructor(
    private readonly collection: string,
    private readonly tables: PostgresTables,
    private readonly tokens: TokenTables,
    private readonly weights: ColumnWeights,
    private readonly texts: PostgresStoredTexts,
    /** whether the index holds the dictionary words as tokens yet */
    private readonly wholeWords: () => boolean,
  ) {}

  /**
   * The statement of a search, or undefined when nothing in it is searchable. Words and
   * characters (prefixes) go to the tsvectors. A title-only query's words are looked for in the
   * title and keywords table (weight A is the title) and ranked as FTS5 ranks `title : (…)`
   * over the table of every column.
   */
  search(shape: SearchShape): SearchStatement | undefined {
    const { parsed, filters, sort } = shape;
    const phraseTexts = phraseQueries(parsed.terms, parsed.titleOnly, this.wholeWords());
    if (phraseTexts.length === 0) return undefined;
    // Bad dates are refused now, before any statement runs.
    this.filterConditions(filters, 'd.id', new Statement());
    const statement = new Statement();
    const query: Query = {
      statement,
      shape,
      match: statement.bind(phraseTexts.map((phrase) => `(${phrase})`).join(' & '), 'tsquery'),
      phrases: phraseTexts.map((phrase) => statement.bind(phrase, 'tsquery')),
      phraseTexts,
      needsEntries: readsValues(filters) || sort !== 'relevance',
      excluded: (parsed.excluded ?? []).map((terms) =>
        phraseQueries(terms, false, this.wholeWords()).map((phrase) => statement.bind(phrase, 'tsquery')),
      ),
    };
    const token = oneToken(parsed, this.wholeWords());
    if (token !== undefined) query.token = statement.bind(token, 'text');
    const main = parsed.titleOnly ? this.tokens.head : this.tokens.fts;
    const total = this.matching(query, main, []);
    // Always a cap (none: the largest), so that the SQL is the same with or without one.
    const cap = statement.bind(Math.max(0, Math.trunc(shape.maxTotal ?? Number.MAX_SAFE_INTEGER)), 'bigint');
    const counted = `(SELECT 1 FROM ${total.from} WHERE ${total.where} LIMIT ${cap}) AS c`;
    const ctes = [`total AS MATERIALIZED (SELECT count(*)::int AS n FROM ${counted})`];
    // Nothing is ranked or read when nothing matches.
    const size = statement.bind(shape.size, 'bigint');
    const wanted = `CASE WHEN (SELECT n FROM total) > 0 THEN ${size} ELSE 0 END`;
    const offset = statement.bind(shape.offset, 'bigint');
    const steps: TierStep[] = [];
    const pages =
      sort === 'relevance' && !parsed.titleOnly
        ? this.tiers(query, wanted, offset, ctes, steps)
        : this.page(query, main, wanted, offset, ctes);
    ctes.push(`page AS MATERIALIZED (${pages.join(' UNION ALL ')})`);
    const needles = statement.bind(
      shape.needles.map((needle) => needle.toString('utf8')),
      'text[]',
    );
    const windows = this.texts.windows('SELECT id FROM page', needles, shape.reach, 'heads');
    ctes.push(`w AS (${windows})`);
    const sql = `WITH ${ctes.join(',\n')}
      SELECT t.n AS total, p.id::float8 AS id, p.rank, w.title, w.description, w.size, w.at, w.start, w.window, w.partial, w.page_starts, w.shown
      FROM total AS t LEFT JOIN page AS p ON true LEFT JOIN w ON w.id = p.id ORDER BY p.tier, p.ord`;
    const procedure =
      shape.offset === 0 && steps.length > 0 ? () => procedureOf(counted, size, steps, windows) : undefined;
    return Object.assign(statement, { sql, columns: SEARCH_COLUMNS }, procedure ? { procedure } : {});
  }

  /**
   * The page in tiers, as SqliteSearchIndex.tieredPage walks them: each tier gives what the
   * page still wants, from what is left to skip; a tier that gave none may hold fewer entries
   * than that, which it then takes off (counted no further than the skip). Adds each tier's
   * statements to `ctes`; returns the page's rows of each tier, as (tier, id, rank, ord).
   */
  private tiers(query: Query, wanted: string, offset: string, ctes: string[], steps: TierStep[]): string[] {
    const tiers = [this.tokens.head, this.tokens.summary, this.tokens.fts];
    const pages: string[] = [];
    // A first page skips nothing in any tier (most searches): no skip to carry over.
    let skip = query.shape.offset > 0 ? offset : '0';
    for (const [index, table] of tiers.entries()) {
      const tier = index + 1;
      const source = this.matching(query, table, tiers.slice(0, index));
      const ranking: Ranking = {
        counted: table.name,
        parts: table === this.tokens.fts,
        instances: table,
        total: table.total,
        size: 'f.size',
      };
      // One token matched in the description (the second tier) or only in the text (the
      // third) is found there: its instances there are its count, the other columns have none.
      if (query.token !== undefined && table === this.tokens.summary)
        ranking.counts = { mark: DESCRIPTION_COUNTS, weight: 1 };
      if (query.token !== undefined && table === this.tokens.fts)
        ranking.counts = { mark: TEXT_COUNTS, weight: this.weights.content };
      const statistics = this.statistics(query, ranking);
      const ranked = this.ranked(query, ranking, source, `s${tier}`);
      steps.push({ statistics: `s${tier} AS MATERIALIZED (${statistics})`, ranked });
      ctes.push(`s${tier} AS MATERIALIZED (${statistics})`);
      ctes.push(`p${tier} AS MATERIALIZED (${ranked} LIMIT ${wanted} OFFSET ${skip})`);
      pages.push(`SELECT ${tier} AS tier, id, rank, row_number() OVER (ORDER BY rank, id DESC) AS ord FROM p${tier}`);
      if (tier === tiers.length) break;
      wanted = `${wanted} - (SELECT count(*) FROM p${tier})`;
      if (query.shape.offset === 0) continue;
      ctes.push(
        `k${tier + 1} AS MATERIALIZED (SELECT CASE WHEN EXISTS (SELECT 1 FROM p${tier}) OR ${skip} = 0 THEN 0::bigint
          ELSE ${skip} - (SELECT count(*) FROM (SELECT 1 FROM ${source.from} WHERE ${source.where} LIMIT ${skip}) AS c) END AS skip)`,
      );
      skip = `(SELECT skip FROM k${tier + 1})`;
    }
    return pages;
  }

  /** The page of a query not ranked in tiers: title-only, or in another order than relevance. */
  private page(query: Query, table: TokenTable, wanted: string, offset: string, ctes: string[]): string[] {
    const source = this.matching(query, table, []);
    const sort = query.shape.sort;
    if (sort === 'relevance') {
      // FTS5 ranks `title : (…)` over the table of every column: its statistics, the row's
      // size there, the instances in the title alone.
      const ranking: Ranking = {
        counted: this.tokens.head.name,
        parts: false,
        instances: rankWeights(this.weights.title, 0, 0, 0),
        total: this.tokens.fts.total,
        size: 'x.size',
        sizeJoin: `JOIN ${this.tokens.fts.name} AS x ON x.id = f.id`,
      };
      ctes.push(`s1 AS MATERIALIZED (${this.statistics(query, ranking)})`);
      ctes.push(`p1 AS MATERIALIZED (${this.ranked(query, ranking, source, 's1')} LIMIT ${wanted} OFFSET ${offset})`);
      return ['SELECT 1 AS tier, id, rank, row_number() OVER (ORDER BY rank, id DESC) AS ord FROM p1'];
    }
    const order = `d.${SORT_COLUMNS[sort]} DESC, d.id DESC`;
    ctes.push(`p1 AS MATERIALIZED (SELECT ${source.id} AS id, 0::float8 AS rank FROM ${source.from} WHERE ${source.where}
      ORDER BY ${order} LIMIT ${wanted} OFFSET ${offset})`);
    // The page's own order again, from its values (the rank is 0).
    return [
      `SELECT 1 AS tier, p1.id, p1.rank, row_number() OVER (ORDER BY ${order}) AS ord FROM p1 JOIN ${this.tables.entries} AS d ON d.id = p1.id`,
    ];
  }

  /**
   * The FROM and WHERE of the matches in one token table, less the entries that match in the tables of the tiers
   * before.
   */
  private matching(query: Query, table: TokenTable, before: TokenTable[]): { from: string; where: string; id: string } {
    const conditions: string[] = [];
    let tokens = `${table.name} AS f`;
    if (table === this.tokens.fts) tokens = `(${this.ftsMatches(query)}) AS f`;
    else conditions.push(`f.tokens @@ ${query.match}`);
    const from = query.needsEntries ? `${tokens} JOIN ${this.tables.entries} AS d ON d.id = f.id` : tokens;
    const id = 'f.id';
    for (const tier of before)
      conditions.push(`f.id NOT IN (SELECT id FROM ${tier.name} WHERE tokens @@ ${query.match})`);
    conditions.push(...this.exclusionConditions(query));
    conditions.push(...this.filterConditions(query.shape.filters, id, query.statement));
    return { from, where: conditions.length > 0 ? conditions.join(' AND ') : 'true', id };
  }

  /**
   * The rows of the every-column table that match: those whose first part holds every phrase
   * (every entry whose text is not long), then the long texts that hold them across their
   * parts, not all in the first. The second half reads the further parts' index, and the
   * first half's matches only when such a part holds a phrase (its ids first, then each by its
   * key: the planner never scans the first parts' table for them).
   */
  private ftsMatches({ match, phrases, phraseTexts, statement }: Query): string {
    const fts = this.tokens.fts.name;
    const more = this.tokens.more;
    const columns = 'f.id, f.size, f.parts, f.tokens';
    const any =
      phrases.length === 1 ? match : statement.bind(phraseTexts.map((phrase) => `(${phrase})`).join(' | '), 'tsquery');
    const each =
      phrases.length === 1
        ? []
        : phrases.map(
            (phrase) =>
              `(f.id IN (SELECT id FROM ${fts} WHERE tokens @@ ${phrase}) OR f.id IN (SELECT id FROM ${more} WHERE tokens @@ ${phrase}))`,
          );
    return `SELECT ${columns} FROM ${fts} AS f WHERE f.tokens @@ ${match}
      UNION ALL
      SELECT ${columns} FROM ${fts} AS f WHERE f.id = ANY(ARRAY(SELECT DISTINCT id FROM ${more} WHERE tokens @@ ${any}))
        AND f.id NOT IN (SELECT id FROM ${fts} WHERE tokens @@ ${match})${each.map((condition) => ` AND ${condition}`).join('')}`;
  }

  /**
   * Leaves out the entries holding a word typed with a `-`, every term of it, in any column and
   * any part of a long text (as FTS5 reads a whole row): whichever table the tier reads.
   */
  private exclusionConditions({ excluded }: Query): string[] {
    const fts = this.tokens.fts.name;
    const holders = (phrase: string) =>
      `f.id IN (SELECT id FROM ${fts} WHERE tokens @@ ${phrase} UNION ALL SELECT id FROM ${this.tokens.more} WHERE tokens @@ ${phrase})`;
    return excluded.map((phrases) => `NOT (${phrases.map(holders).join(' AND ')})`);
  }

  private filterConditions(filters: SearchFilters, id: string, statement: Statement): string[] {
    const conditions: string[] = [];
    const anyOf = (column: string, values: readonly string[] | undefined) => {
      if (values && values.length > 0) conditions.push(`${column} = ANY(${statement.bind(values, 'text[]')})`);
    };
    anyOf('d.ext', filters.exts);
    anyOf('d.language', filters.languages);
    if (filters.userId !== undefined) conditions.push(`d.user_id = ${statement.bind(filters.userId, 'bigint')}`);
    if (filters.createdFrom !== undefined)
      conditions.push(`d.created_at >= ${statement.bind(epochMs(filters.createdFrom, 'createdFrom'), 'bigint')}`);
    if (filters.createdTo !== undefined)
      conditions.push(`d.created_at <= ${statement.bind(epochMs(filters.createdTo, 'createdTo'), 'bigint')}`);
    if (filters.categoryIds && filters.categoryIds.length > 0) {
      conditions.push(
        `${id} IN (SELECT entry_id FROM ${this.tables.categories} WHERE category_id = ANY(${statement.bind(filters.categoryIds, 'bigint[]')}))`,
      );
    }
    return conditions;
  }

  /**
   * bm25's statistics, as FTS5 takes them: avgdl, and each phrase's IDF. N and the table's
   * tokens are search_meta's counts of what was written (FTS5 with contentless_delete never
   * subtracts a removed row from them); each phrase's IDF counts the rows holding it, with
   * parts also the long texts holding it only past their first part.
   */
  private statistics({ phrases, statement }: Query, ranking: Ranking): string {
    const { counted } = ranking;
    const hits = (phrase: string) =>
      ranking.parts
        ? `(SELECT count(*) FROM ${counted} WHERE tokens @@ ${phrase}) + (SELECT count(DISTINCT id) FROM ${this.tokens.more}
            WHERE tokens @@ ${phrase} AND id NOT IN (SELECT id FROM ${counted} WHERE tokens @@ ${phrase}))`
        : `(SELECT count(*) FROM ${counted} WHERE tokens @@ ${phrase})`;
    const idfs = phrases.map(
      (phrase, i) => `CROSS JOIN LATERAL (SELECT ${hits(phrase)} AS n OFFSET 0) AS c${i}
        CROSS JOIN LATERAL (SELECT ln(((m.written_rows - c${i}.n)::float8 + 0.5::float8) / (c${i}.n::float8 + 0.5::float8)) AS l) AS h${i}`,
    );
    return `SELECT m.${ranking.total}::float8 / m.written_rows::float8 AS avgdl,
        ${phrases.map((_, i) => `CASE WHEN h${i}.l <= 0 THEN ${float(BM25_MIN_IDF)} ELSE h${i}.l END AS idf${i}`).join(', ')}
      FROM ${this.tables.meta} AS m ${idfs.join(' ')} WHERE m.collection = ${statement.bind(this.collection, 'text')}`;
  }

  /**
   * The matches of a source as (id, rank), ranked: bm25 as FTS5 computes it (bm25.ts),
   * operation for operation in float8 so that equal inputs give the same double and ties fall
   * to the newest id as they do there. f is the phrase's instances weighted by column:
   * ts_rank_cd of a lone phrase sums its instances' weights (its covers are the instances, none
   * with noise); a long text's further parts are read by its key, only for a long text.
   */
  private ranked(
    { phrases, token, statement }: Query,
    ranking: Ranking,
    source: { from: string; where: string },
    stats: string,
  ): string {
    const { instances } = ranking;
    const frequency = (tokens: string, phrase: string) =>
      `round(ts_rank_cd('${instances.weights}'::float4[], ${tokens}, ${phrase})::float8 * ${float(instances.scale)})`;
    const frequencies = phrases.map((phrase, i) => {
      if (ranking.counts) return `(1 + coalesce(n.extra, 0))::float8 * ${float(ranking.counts.weight)} AS f${i}`;
      const first = frequency('f.tokens', phrase);
      if (!ranking.parts) return `${first} AS f${i}`;
      return `${first} + CASE WHEN f.parts > 1 THEN (SELECT coalesce(sum(${frequency('p.tokens', phrase)}), 0) FROM ${this.tokens.more} AS p WHERE p.id = f.id) ELSE 0 END AS f${i}`;
    });
    // A count less one, bit by bit: the entries holding `<token>#<mark><bit>` (as many bits as
    // the largest count written takes), each a lookup in the GIN index of the counts.
    const counts = ranking.counts
      ? `LEFT JOIN (SELECT c.id, sum(1::bigint << k) AS extra
          FROM ${this.tables.meta} AS m CROSS JOIN generate_series(0, m.count_bits - 1) AS k
          JOIN ${this.tokens.counts} AS c ON c.tokens @@ quote_literal(${token!} || '#${ranking.counts.mark}' || k)::tsquery
          WHERE m.collection = ${statement.bind(this.collection, 'text')} GROUP BY c.id) AS n ON n.id = f.id`
      : '';
    const k1 = float(BM25_K1);
    const b = float(BM25_B);
    const terms = phrases.map(
      (_, i) =>
        `s.idf${i} * ((r.f${i} * (${k1} + 1.0::float8)) / (r.f${i} + ${k1} * (1.0::float8 - ${b} + ${b} * r.size::float8 / s.avgdl)))`,
    );
    // The frequencies in a subquery of their own (OFFSET 0 keeps it from being merged), so
    // that each is computed once per row, not once per use.
    return `SELECT r.id, -(0::float8 + ${terms.join(' + ')}) AS rank
      FROM (SELECT f.id, ${ranking.size} AS size, ${frequencies.join(', ')}
        FROM ${source.from} ${ranking.sizeJoin ?? ''} ${counts} WHERE ${source.where} OFFSET 0) AS r CROSS JOIN ${stats} AS s
      ORDER BY rank, r.id DESC`;
  }
}

/**
 * The plpgsql body of a first page in tiers (see SearchStatement.procedure): the capped count;
 * then, while the page wants rows, each tier's ranked matches, its statistics read only when
 * it runs; then the page's windows. Each statement's plan holds its step alone, so that a page
 * the title tier fills never starts (nor locks) the others' nodes.
 */
function procedureOf(counted: string, size: string, steps: readonly TierStep[], windows: string): string {
  const tiers = steps.map(
    ({ statistics, ranked }) => `IF v_wanted > 0 THEN
      WITH ${statistics}
      SELECT coalesce(array_agg(p.id ORDER BY p.rank, p.id DESC), '{}'), coalesce(array_agg(p.rank ORDER BY p.rank, p.id DESC), '{}')
        INTO v_tier_ids, v_tier_ranks FROM (${ranked} LIMIT v_wanted) AS p;
      v_ids := v_ids || v_tier_ids;
      v_ranks := v_ranks || v_tier_ranks;
      v_wanted := v_wanted - cardinality(v_tier_ids);
    END IF;`,
  );
  return `DECLARE
    v_total int;
    v_wanted bigint;
    v_ids bigint[] := '{}';
    v_ranks float8[] := '{}';
    v_tier_ids bigint[];
    v_tier_ranks float8[];
  BEGIN
    SELECT count(*)::int INTO v_total FROM ${counted};
    v_wanted := CASE WHEN v_total > 0 THEN ${size} ELSE 0 END;
    ${tiers.join('\n    ')}
    RETURN QUERY WITH page AS MATERIALIZED (SELECT u.id, u.rank, u.ord FROM unnest(v_ids, v_ranks) WITH ORDINALITY AS u (id, rank, ord)),
      w AS (${windows})
      SELECT v_total, p.id::float8 AS id, p.rank, w.title, w.description, w.size, w.at, w.start, w.window, w.partial, w.page_starts, w.shown
      FROM (SELECT 1) AS t LEFT JOIN page AS p ON true LEFT JOIN w ON w.id = p.id ORDER BY p.ord;
  END`;
}

function float(value: number): string {
  return `${value}::float8`;
}

/** The one token a query looks for, when it is one: a word, a dictionary word, a bigram. */
function oneToken(parsed: ParsedQuery, wholeWords: boolean): string | undefined {
  if (parsed.titleOnly || parsed.terms.length !== 1) return undefined;
  const [term] = parsed.terms;
  if (term?.kind !== 'phrase') return undefined;
  if (wholeWords && term.word !== undefined) return term.word;
  return term.tokens.length === 1 ? term.tokens[0] : undefined;
}

/** Whether filters read the values table (categories have a table of their own). */
function readsValues(filters: SearchFilters): boolean {
  return (
    (filters.exts?.length ?? 0) > 0 ||
    (filters.languages?.length ?? 0) > 0 ||
    filters.userId !== undefined ||
    filters.createdFrom !== undefined ||
    filters.createdTo !== undefined
  );
}
