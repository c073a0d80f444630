// The SQL of a search over the tables of sqlite-search-index.ts: which FTS5 table and MATCH
// expression, which filters, which order. A plan runs as a count or as one page of ranked ids;
// the relevance order runs one plan per tier (title and keywords, description, text).
import { toExclusionExpression, toMatchExpression, type ParsedQuery } from './bigrams';
import type { SearchAttributes, SearchFilters, SearchSort } from './search-index';

export type SqlValue = string | number;

export interface SearchPlan {
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
export interface Tier {
  table: string;
  match: string;
}

/** Where a plan's matches come from: a tier, less the entries of the tiers before it. */
export interface MatchSource extends Tier {
  /** the tiers whose entries are left out, or those entries themselves when they are known */
  except?: { tiers: Tier[] } | { ids: number[] };
}

/** The tables a collection's searches read (see SqliteSearchIndex). */
export interface SearchTables {
  /** every column */
  fts: string;
  /** filter and sort values */
  entries: string;
  /** (category_id, entry_id) */
  categories: string;
}

export const SORT_COLUMNS: Record<Exclude<SearchSort, 'relevance'>, string> = {
  newest: 'created_at',
  views: 'view_count',
  downloads: 'download_count',
  favorites: 'favorite_count',
  comments: 'comment_count',
  score: 'score',
};

export function epochMs(timestamp: string, what: string): number {
  const ms = Date.parse(timestamp);
  if (Number.isNaN(ms)) throw new RangeError(`${what} is not a date: ${JSON.stringify(timestamp)}`);
  return ms;
}

/** The columns an attribute update writes, both engines alike: only the attributes given. */
export function changedAttributeColumns(attributes: Partial<SearchAttributes>): [string, string | number][] {
  const columns: [string, string | number | undefined][] = [
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
  return columns.filter((column): column is [string, string | number] => column[1] !== undefined);
}

function placeholders(count: number): string {
  return new Array<string>(count).fill('?').join(', ');
}

export class SearchPlanner {
  /**
   * @param bm25 per FTS5 table, the bm25 call that ranks its matches (the column weights
   * written out)
   */
  constructor(
    private readonly tables: SearchTables,
    private readonly bm25: ReadonlyMap<string, string>,
    /** whether the index holds the dictionary words as tokens yet (see toMatchExpression) */
    private readonly wholeWords: () => boolean,
  ) {}

  /**
   * The SQL of a query: its words and characters (prefix queries) go to FTS5. `source` makes
   * the plan of one tier: another table and expression, no further tiers.
   */
  plan(parsed: ParsedQuery, filters: SearchFilters, sort: SearchSort, source?: MatchSource): SearchPlan | undefined {
    const match = source?.match ?? toMatchExpression(parsed, this.wholeWords());
    if (match === undefined) return undefined;
    const fts = source?.table ?? this.tables.fts;
    const filter = this.filterClause(filters, 'f.rowid');
    const except = exceptClause(source?.except);
    const excluded = this.exclusionClause(parsed);
    const conditions = [`f.${fts} MATCH ?`, ...except.conditions, ...excluded.conditions, ...filter.conditions];
    const params = [match, ...except.params, ...excluded.params, ...filter.params];
    const needsEntries = filter.readsEntries || sort !== 'relevance';
    // FTS5 first, always: the other way round SQLite would run the MATCH once per entry.
    const from = needsEntries ? `${fts} AS f CROSS JOIN ${this.tables.entries} AS d ON d.id = f.rowid` : `${fts} AS f`;
    const order =
      sort === 'relevance' ? `${this.bm25.get(fts)!}, f.rowid DESC` : `d.${SORT_COLUMNS[sort]} DESC, d.id DESC`;
    const ranked = sort === 'relevance';
    const tiered = ranked && !parsed.titleOnly && source === undefined;
    return {
      from,
      where: conditions.join(' AND '),
      params,
      order,
      id: 'f.rowid',
      rank: ranked ? this.bm25.get(fts)! : '0',
      ...(tiered ? { tiered: match } : {}),
    };
  }

  /**
   * Leaves out the entries holding a word typed with a `-` (ParsedQuery.excluded), in any of their
   * columns: the table of every column is asked, whichever table the plan reads (a tier's holds
   * some columns only).
   */
  private exclusionClause(parsed: ParsedQuery): { conditions: string[]; params: SqlValue[] } {
    const excluded = toExclusionExpression(parsed, this.wholeWords());
    if (excluded === undefined) return { conditions: [], params: [] };
    const fts = this.tables.fts;
    return { conditions: [`f.rowid NOT IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ?)`], params: [excluded] };
  }

  private filterClause(
    filters: SearchFilters,
    id: string,
  ): { conditions: string[]; params: SqlValue[]; readsEntries: boolean } {
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
      conditions.push(
        `+${id} IN (SELECT entry_id FROM ${this.tables.categories} WHERE category_id IN (${placeholders(filters.categoryIds.length)}))`,
      );
      params.push(...filters.categoryIds);
    }
    return { conditions, params, readsEntries };
  }
}

/** Leaves out the entries of the tiers before: by their ids when known, else by their matches. */
function exceptClause(except: MatchSource['except']): { conditions: string[]; params: SqlValue[] } {
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
