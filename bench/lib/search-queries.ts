// The search benchmark's queries (bench/search.ts), also run by the test that compares the
// engines (tests/backend/search-engines.test.ts).
import type { SearchQuery } from '../../backend/platform/search/search-index';

// 2 to 6 characters: two words in nearly every text (the worst case), then words and phrases
// in 1–40 % of the documents, as a real library's content words are. Those of 3 or more
// characters are all in the engine's dictionary (one token each, words.ts); the variants below
// time phrases that are not.
export const SEARCH_QUERIES = [
  '我们',
  '经济',
  '医院',
  '电脑',
  '那种',
  '大师',
  '计算机',
  '委员会',
  '为什么',
  '俄罗斯',
  '社会主义',
  '市场经济',
  '科学技术',
  '高速公路',
  '天安门广场',
  '马克思主义',
  '自然保护区',
  '人民代表大会',
  '最高人民法院',
  '南京长江大桥',
];

// Other shapes of query, measured on their own: single characters (prefixes of tokens: a
// common one, a rarer one, one beside a word), a mixed query, two words, phrases that are no dictionary word (matched
// as bigram phrases), deep
// paging, a sort and a filter.
export const SEARCH_VARIANTS: { label: string; query: SearchQuery }[] = [
  { label: '1 character `国`', query: { text: '国' } },
  { label: '1 character `塔`', query: { text: '塔' } },
  { label: 'a word and 1 character `经济 国`', query: { text: '经济 国' } },
  { label: 'mixed `Python 经济`', query: { text: 'Python 经济' } },
  { label: 'two words `经济 发展`', query: { text: '经济 发展' } },
  { label: 'no dictionary word `安门广场`', query: { text: '安门广场' } },
  { label: 'no dictionary word `民代表大会`', query: { text: '民代表大会' } },
  { label: '`经济`, page 50', query: { text: '经济', page: 50 } },
  { label: '`经济`, newest first', query: { text: '经济', sort: 'newest' } },
  { label: '`经济`, one category', query: { text: '经济', filters: { categoryIds: [3] } } },
];

/** The seed of the benchmark's library (lib/chinese-corpus.ts). */
export const SEARCH_CORPUS_SEED = 20261122;
