// Relevance as FTS5's bm25() computes it (sqlite3.c, fts5Bm25Function), which both engines
// rank by: for each phrase of the query, IDF × f·(k1 + 1) / (f + k1·(1 − b + b·D / avgdl)),
// summed, negated (lower is better). f is the phrase's instances in the row, each counted with
// its column's weight; D the row's tokens; avgdl the table's tokens per row; IDF
// ln((N − n + 0.5) / (n + 0.5)), at least 1e-6, n the rows holding the phrase. SQLite runs it
// inside FTS5; the PostgreSQL engine writes the same arithmetic in SQL (postgres-search-plan.ts).

export interface ColumnWeights {
  title: number;
  keywords: number;
  description: number;
  content: number;
}

export const DEFAULT_WEIGHTS: ColumnWeights = { title: 10, keywords: 5, description: 3, content: 1 };

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
/** The IDF of a phrase found in half the rows or more. */
export const BM25_MIN_IDF = 1e-6;

export function checkWeights(weights: ColumnWeights): number[] {
  const list = [weights.title, weights.keywords, weights.description, weights.content];
  if (!list.every((weight) => Number.isFinite(weight) && weight >= 0))
    throw new RangeError('search column weights must be finite and ≥ 0');
  return list;
}
