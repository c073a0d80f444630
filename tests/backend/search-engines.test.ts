// The SQLite and PostgreSQL engines, given the same writes, answer alike: the same totals, the
// same hits in the same order, with the same scores, snippets and highlights. The library is
// the search benchmark's (bench/search.ts), smaller, with a few long texts that the PostgreSQL
// engine cuts into parts, and the queries are the benchmark's.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { SearchEntry, SearchQuery, SearchResult } from '../../backend/platform/search/search-index';
import { ChineseCorpus, searchAttributes } from '../../bench/lib/chinese-corpus';
import { SEARCH_CORPUS_SEED, SEARCH_QUERIES, SEARCH_VARIANTS } from '../../bench/lib/search-queries';
import { searchEngines, type SearchStore } from '../helpers/search-engines';

const clusterUrl = inject('postgresUrl');
const DOCUMENTS = 300;
const LENGTH = 2_000;
/** Long texts (some 52,000 tokens: four parts of a tsvector), ids after the others. */
const LONG = 4;
const LONG_LENGTH = 40_000;
/** Found nowhere else, and no dictionary word: a phrase of bigrams, at the very end of the long texts. */
const LAST_WORDS = '量子纠缠实验';

/** A text cut into pages of PAGE_LENGTH characters, a form feed between them. */
const PAGE_LENGTH = 700;
function paginated(text: string): string {
  const pages: string[] = [];
  for (let at = 0; at < text.length; at += PAGE_LENGTH) pages.push(text.slice(at, at + PAGE_LENGTH));
  return pages.join('\f');
}

/** The corpus's documents; every other one paged, so that the hits' pages are compared too. */
function entriesOf(first: number, count: number, length: number, corpus: ChineseCorpus, ending = ''): SearchEntry[] {
  return Array.from({ length: count }, (_, i) => {
    const d = corpus.document(first + i, length);
    const paged = d.id % 2 === 1;
    return {
      id: d.id,
      title: d.title,
      keywords: d.keywords,
      description: d.description,
      content: paged ? paginated(d.content + ending) : d.content + ending,
      ...(paged ? { paged: true } : {}),
      attributes: searchAttributes(d),
    };
  });
}

/** Everything a search answers but the time it took. */
function answer(result: SearchResult) {
  return { total: result.total, hits: result.hits };
}

describe.skipIf(!clusterUrl)('the SQLite and PostgreSQL engines', () => {
  let stores: SearchStore[] = [];
  const both = async (query: SearchQuery) => {
    const [sqlite, postgres] = await Promise.all(stores.map((store) => store.index.search(query)));
    return { sqlite: answer(sqlite!), postgres: answer(postgres!) };
  };

  beforeAll(async () => {
    stores = await Promise.all(searchEngines(clusterUrl).map((engine) => engine.open()));
    const corpus = new ChineseCorpus(SEARCH_CORPUS_SEED);
    const batches = [
      ...Array.from({ length: DOCUMENTS / 100 }, (_, i) => entriesOf(1 + i * 100, 100, LENGTH, corpus)),
      entriesOf(DOCUMENTS + 1, LONG, LONG_LENGTH, corpus, LAST_WORDS),
    ];
    for (const store of stores) for (const batch of batches) await store.index.upsert(batch);
  }, 180_000);

  afterAll(async () => {
    for (const store of stores) await store.close();
  });

  it("answer the benchmark's 20 queries with the same hits in the same order", async () => {
    for (const text of SEARCH_QUERIES) {
      const { sqlite, postgres } = await both({ text, maxTotal: 1000 });
      expect(sqlite.hits.length, text).toBeGreaterThan(0);
      expect(
        postgres.hits.map((hit) => hit.id),
        text,
      ).toEqual(sqlite.hits.map((hit) => hit.id));
      expect(postgres, text).toEqual(sqlite);
    }
  });

  it('agree on the other shapes of query, on deeper pages, and on a phrase only at the end of long texts', async () => {
    const queries: SearchQuery[] = [
      ...SEARCH_VARIANTS.map((variant) => variant.query),
      ...SEARCH_QUERIES.slice(0, 8).flatMap((text) => [
        { text, page: 3 },
        { text, size: 50, page: 2 },
        { text, sort: 'views' as const },
      ]),
      { text: LAST_WORDS.slice(0, 4), size: 20 },
    ];
    for (const query of queries) {
      const { sqlite, postgres } = await both(query);
      expect(postgres, JSON.stringify(query)).toEqual(sqlite);
    }
    const { postgres } = await both({ text: LAST_WORDS.slice(0, 4) });
    expect(postgres.hits.map((hit) => hit.id).sort()).toEqual(
      Array.from({ length: LONG }, (_, i) => DOCUMENTS + 1 + i),
    );
  });

  it('still agree after entries are replaced, removed and given other values', async () => {
    const corpus = new ChineseCorpus(SEARCH_CORPUS_SEED + 1);
    const replaced = entriesOf(1, 40, LENGTH, corpus).map((entry, i) => ({ ...entry, id: 1 + i * 5 }));
    for (const store of stores) {
      await store.index.upsert(replaced);
      await store.index.remove([2, 3, 50, DOCUMENTS + 2]);
      await store.index.updateAttributes(4, { viewCount: 1_000_000, categoryIds: [99] });
    }
    for (const query of [
      ...SEARCH_QUERIES.map((text) => ({ text })),
      { text: '经济', sort: 'views' as const },
      { text: '经济', filters: { categoryIds: [99] } },
    ]) {
      const { sqlite, postgres } = await both(query);
      expect(postgres, JSON.stringify(query)).toEqual(sqlite);
    }
  });
});
