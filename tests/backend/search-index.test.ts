import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import type { OpenedDatabase } from '../../backend/db';
import {
  compactWhitespace,
  indexTerms,
  indexTokens,
  normalizeText,
  parseQuery,
  queryToMatchExpression,
  toExclusionExpression,
  toMatchExpression,
} from '../../backend/platform/search/bigrams';
import { normalizePages, pageAt } from '../../backend/platform/search/pages';
import { PostgresSearchIndex } from '../../backend/platform/search/postgres-search-index';
import type { SearchEntry, SearchQuery } from '../../backend/platform/search/search-index';
import { SqliteSearchIndex } from '../../backend/platform/search/sqlite-search-index';
import { HEAD_BYTES, MAX_CONTENT_LENGTH, headOf } from '../../backend/platform/search/stored-texts';
import { tsvectorParts } from '../../backend/platform/search/tsvectors';
import { hasSearchableText } from '../../shared/searchable-text';
import { createDatabase, dropDatabase, lockWaiters } from '../helpers/postgres';
import { postgresKysely, searchEngines, type SearchStore, type TestIndex } from '../helpers/search-engines';
import { openMigratedSqlite } from '../helpers/test-database';

const FILLER = '今天天气很好，我们一起去公园散步。公园里有很多花草树木，空气清新。';

// Five pages (the second empty), a word cut by the break between the third and the fourth.
const PAGES = [
  '第一页讲述了城市图书馆的历史。',
  '',
  `${FILLER}第三页的末尾写着机器学`,
  `习的方法。${FILLER}`,
  'Chapter five: the ｐｙｔｈｏｎ notes.',
];
const PAGED = PAGES.join('\f');

function entry(
  id: number,
  fields: Partial<Omit<SearchEntry, 'id' | 'attributes'>> & { attributes?: Partial<SearchEntry['attributes']> } = {},
): SearchEntry {
  return {
    id,
    title: fields.title ?? `文档${id}`,
    keywords: fields.keywords ?? '',
    description: fields.description ?? '',
    content: fields.content ?? FILLER,
    ...(fields.paged ? { paged: true } : {}),
    ...(fields.shownPages !== undefined ? { shownPages: fields.shownPages } : {}),
    attributes: { createdAt: '2024-01-01T00:00:00Z', ...fields.attributes },
  };
}

describe('bigram tokens', () => {
  it('turns CJK runs into overlapping bigrams ending with the last character, and keeps words whole', () => {
    expect(indexTokens('机器学习')).toBe('机器 器学 学习 习');
    expect(indexTokens('书')).toBe('书');
    // A word of letters and digits is its parts too, after the text's tokens (phrases compare those).
    expect(indexTokens('Python3教程，第2章')).toBe('python3 教程 程 第 2 章 python 3');
    expect(indexTokens('win10 iPhone15Pro a1b2c3 pythonic')).toBe(
      'win10 iphone15pro a1b2c3 pythonic win 10 iphone 15 pro',
    );
    expect(indexTokens('Hello, World! node.js')).toBe('hello world node js');
  });

  it('folds full-width forms, radicals and case (NFKC)', () => {
    expect(indexTokens('ＰＤＦ⽂件')).toBe('pdf 文件 件');
    expect(indexTokens('⻔户')).toBe('门户 户');
  });

  it('joins CJK characters across a line break, never across punctuation or a space', () => {
    expect(compactWhitespace('机器学\n  习\n\nEnd of\nline')).toBe('机器学习 End of line');
    expect(indexTokens('学\n习')).toBe('学习 习');
    expect(indexTokens('学，习')).toBe('学 习');
    expect(indexTokens('数学 习题')).toBe('数学 学 习题 题');
  });

  it('makes a query of quoted phrases joined by AND, whatever the user typed', () => {
    expect(queryToMatchExpression('机器学习')).toBe('"机器 器学 学习"');
    expect(queryToMatchExpression('Python教程')).toBe('"python" AND "教程"');
    expect(queryToMatchExpression('机器学习 pdf')).toBe('"机器 器学 学习" AND "pdf"');
    expect(queryToMatchExpression('node.js')).toBe('"node js"');
    // A sign is a token, spelled for FTS5 as U+E000 and its code point: `C++`, `C#`, `❤️`.
    expect(queryToMatchExpression('C++')).toBe('"c \ue0002b \ue0002b"');
    expect(queryToMatchExpression('C#')).toBe('"c \ue00023"');
    expect(queryToMatchExpression('❤️')).toBe('"\ue0002764"');
    expect(queryToMatchExpression('书')).toBe('"书"*');
    expect(queryToMatchExpression('c')).toBe('title : ("c")');
    expect(queryToMatchExpression('"*NEAR( AND x:-y')).toBe('"near" AND "and" AND "x y"');
    // A leading - leaves a word out, a closed quote makes a phrase; an open one is punctuation.
    expect(queryToMatchExpression('"*NEAR( AND -x:y')).toBe('"near" AND "and"');
    expect(toExclusionExpression(parseQuery('near -x:y -"a b" -书'))).toBe('("x y") OR ("a b") OR ("书"*)');
    expect(queryToMatchExpression('"machine  learning" -')).toBe('"machine learning"');
    expect(queryToMatchExpression('  ，。!!  ')).toBeUndefined();
  });

  it('leaves nothing to search for exactly in the queries the shared rule calls unsearchable (the SPA sends none)', () => {
    const queries = [
      '。。',
      '《》',
      '——',
      '   ',
      '、',
      '！？',
      '…',
      '＃',
      '#',
      '+',
      '😀',
      '❤️',
      'a',
      '中',
      '⼈',
      '《红楼梦》',
      'é',
      '\u0301',
    ];
    for (const query of queries)
      expect(parseQuery(query).terms.length > 0, JSON.stringify(query)).toBe(hasSearchableText(query));
  });

  it('keeps a single CJK character as a prefix term, alone or beside longer words, and searches titles for single letters only', () => {
    expect(parseQuery('2024年 报告')).toEqual({
      titleOnly: false,
      terms: [
        { kind: 'phrase', tokens: ['2024'], literal: { text: '2024', cjk: false } },
        { kind: 'char', char: '年' },
        { kind: 'phrase', tokens: ['报告'], literal: { text: '报告', cjk: true } },
      ],
    });
    expect(queryToMatchExpression('麒麟 座')).toBe('"麒麟" AND "座"*');
    expect(parseQuery('A股')).toEqual({
      titleOnly: false,
      terms: [
        { kind: 'phrase', tokens: ['a'], literal: { text: 'a', cjk: false } },
        { kind: 'char', char: '股' },
      ],
    });
    expect(parseQuery('C 2')).toEqual({
      titleOnly: true,
      terms: [
        { kind: 'phrase', tokens: ['c'], literal: { text: 'c', cjk: false } },
        { kind: 'phrase', tokens: ['2'], literal: { text: '2', cjk: false } },
      ],
    });
    expect(parseQuery('node.js 机器学习')).toEqual({
      titleOnly: false,
      terms: [
        { kind: 'phrase', tokens: ['node', 'js'] },
        { kind: 'phrase', tokens: ['机器', '器学', '学习'], literal: { text: '机器学习', cjk: true } },
      ],
    });
  });
});

describe('dictionary words', () => {
  it('follow the bigrams of a text, every word of 3 or more characters each time it occurs', () => {
    expect(indexTokens('我在天安门广场')).toBe('我在 在天 天安 安门 门广 广场 场 天安门 天安门广场');
    expect(indexTokens('人民代表大会，天安门')).toBe(
      '人民 民代 代表 表大 大会 会 天安 安门 门 人民代表 人民代表大会 代表大会 天安门',
    );
    // Within a run only: not across punctuation or a space, but across a line wrap.
    expect(indexTokens('天安门 广场')).toBe('天安 安门 门 广场 场 天安门');
    expect(indexTokens('天安\n门广场')).toBe('天安 安门 门广 广场 场 天安门 天安门广场');
    expect(
      indexTokens('天安门广场天安门广场')
        .split(' ')
        .filter((token) => token === '天安门广场'),
    ).toHaveLength(2);
  });

  it('are matched as one token, other runs as their bigram phrase, and as a phrase by an index without them', () => {
    expect(queryToMatchExpression('天安门广场')).toBe('"天安门广场"');
    expect(queryToMatchExpression('天安门广场 Python')).toBe('"天安门广场" AND "python"');
    expect(queryToMatchExpression('安门广场')).toBe('"安门 门广 广场"');
    expect(parseQuery('计算机')).toEqual({
      titleOnly: false,
      terms: [{ kind: 'phrase', tokens: ['计算', '算机'], literal: { text: '计算机', cjk: true }, word: '计算机' }],
    });
    expect(toMatchExpression(parseQuery('天安门广场'), false)).toBe('"天安 安门 门广 广场"');
  });
});

// The contract of the SearchIndex interface, the same checks on every engine: the SQLite engine
// always, the PostgreSQL one where the test cluster runs (tests/helpers/postgres-setup.ts).
describe.each(searchEngines(inject('postgresUrl')))('the search index on $name', ({ missing, open }) => {
  let store: SearchStore;
  let index: TestIndex;

  beforeEach(async (context) => {
    if (missing) context.skip();
    store = await open();
    index = store.index;
  });

  afterEach(async () => {
    await store?.close();
  });

  const ids = async (query: SearchQuery | string) =>
    (await index.search(typeof query === 'string' ? { text: query } : query)).hits.map((hit) => hit.id);

  it('finds a 2-character word that only the body text holds', async () => {
    await index.upsert([
      entry(1, { content: `${FILLER}这份报告分析了市场的变化。${FILLER}` }),
      entry(2),
      entry(3, { title: '市场', content: FILLER }),
    ]);
    expect(await ids('报告')).toEqual([1]);
    expect(await ids('市场的变化')).toEqual([1]);
  });

  it('finds the words of a run typed without spaces each on its own, only when no text holds the run', async () => {
    await index.upsert([
      entry(1, { content: `${FILLER}红楼梦是古典名著。${FILLER}书中的林黛玉聪慧多才。` }),
      entry(2, { content: `${FILLER}红楼梦的作者是曹雪芹。` }),
      entry(3, { content: FILLER }),
    ]);
    const apart = await index.search({ text: '红楼梦林黛玉' });
    expect(apart.hits.map((hit) => hit.id)).toEqual([1]);
    expect(apart.total).toBe(1);
    expect(apart.hits[0]!.snippet).toContain('<em>红楼梦</em>');
    expect(await ids('曹雪芹红楼梦')).toEqual([2]);
    expect(await ids('红楼梦贾宝玉')).toEqual([]);
    // A text that holds the run as typed is all that is found: the words apart are no longer asked.
    await index.upsert([entry(4, { title: '红楼梦林黛玉人物谈', content: FILLER })]);
    expect(await ids('红楼梦林黛玉')).toEqual([4]);
  });

  it('does not match a word across punctuation or a space, but does across a line wrap', async () => {
    await index.upsert([
      entry(1, { content: '我们要好好学，习惯会改变一切。' }),
      entry(2, { content: '数学 习题集' }),
      entry(3, { content: '机器学\n习的原理' }),
      entry(4, { content: '努力学习' }),
    ]);
    expect((await ids('学习')).sort()).toEqual([3, 4]);
  });

  it('finds Latin words and mixed Chinese/Latin queries', async () => {
    await index.upsert([
      entry(1, { title: 'Python入门教程', content: '变量、函数与类。' }),
      entry(2, { title: 'Java 教程', content: '面向对象。' }),
      entry(3, { title: '机器学习实战', description: '附 PDF 讲义', content: '监督学习。' }),
      entry(4, { title: '机器学习笔记', content: '只有文字。' }),
      entry(5, { title: 'Pythonic 写法', content: '风格。' }),
    ]);
    expect(await ids('python')).toEqual([1]);
    expect(await ids('Python教程')).toEqual([1]);
    expect(await ids('机器学习 pdf')).toEqual([3]);
    expect((await ids('机器学习')).sort()).toEqual([3, 4]);
  });

  it('finds a word inside a run of letters and digits, where letters and digits meet, and marks it there', async () => {
    await index.upsert([
      entry(1, { title: 'Python3 入门', content: `${FILLER}用 Python3 写一个小程序。` }),
      entry(2, { content: `${FILLER}Win10 系统安装 python 环境。` }),
      entry(3, { content: `${FILLER}这是 Pythonic 的写法，iPhone15Pro 也一样。` }),
      entry(4, { content: `${FILLER}哈希值 a1b2c3d4 与 3d 打印。` }),
    ]);
    expect((await ids('python')).sort()).toEqual([1, 2]);
    expect(await ids('python3')).toEqual([1]);
    expect(await ids('win')).toEqual([2]);
    expect(await ids('iphone 15')).toEqual([3]);
    expect(await ids('pro')).toEqual([3]);
    // Not inside a word of one kind (Pythonic), nor in a run of more parts than a name has (a hash).
    expect(await ids('ython')).toEqual([]);
    expect(await ids('b2c3')).toEqual([]);
    expect(await ids('3d')).toEqual([4]);
    const hits = (await index.search({ text: 'python' })).hits;
    expect(hits.find((hit) => hit.id === 1)).toMatchObject({
      titleHighlight: '<em>Python</em>3 入门',
      snippet: expect.stringContaining('用 <em>Python</em>3 写'),
    });
    expect(hits.find((hit) => hit.id === 2)!.snippet).toContain('安装 <em>python</em> 环境');
    expect((await index.search({ text: 'iphone' })).hits[0]!.snippet).toContain('<em>iPhone</em>15Pro');
    // A paged text: the page holding both words is the best one, Python3 counted as python there.
    await index.upsert([entry(5, { content: [`${FILLER}教程目录`, `${FILLER}Python3 教程`].join('\f'), paged: true })]);
    expect((await index.search({ text: 'python 教程' })).hits.find((hit) => hit.id === 5)).toMatchObject({ page: 2 });
  });

  it('leaves out the entries holding a word typed with a leading -, in any column, and marks none of it', async () => {
    await index.upsert([
      entry(1, { title: '城市图书馆', content: `${FILLER}图书馆里的量子物理书。` }),
      entry(2, { title: '图书馆简介', content: `${FILLER}图书馆开放时间。` }),
      entry(3, { title: '量子图书馆', content: FILLER }),
      entry(4, { title: '图书馆', description: '量子力学专区', content: FILLER }),
      entry(5, { title: '图书馆 Wi-Fi', keywords: 'wi-fi', content: `${FILLER}图书馆的量子计算机。` }),
    ]);
    expect(await ids('图书馆 -量子')).toEqual([2]);
    expect((await ids('图书馆 -量子计算')).sort()).toEqual([1, 2, 3, 4]);
    expect((await ids('-量子 图书馆')).sort()).toEqual([2]);
    // A quoted phrase to leave out: every term of it, not each.
    expect((await ids('图书馆 -"量子 计算机"')).sort()).toEqual([1, 2, 3, 4]);
    // Inside a word, a - is punctuation as before; alone, nothing to leave out.
    expect((await ids('wi-fi')).sort()).toEqual([5]);
    expect((await ids('图书馆 - 量子')).sort()).toEqual([1, 3, 4, 5]);
    // Only words to leave out: those are what is looked for.
    expect((await ids('-量子')).sort()).toEqual([1, 3, 4, 5]);
    const result = await index.search({ text: '图书馆 -量子', sort: 'newest' });
    expect(result.total).toBe(1);
    const [hit] = (await index.search({ text: '量子 -计算机' })).hits.filter((h) => h.id === 1);
    expect(hit!.snippet).toContain('<em>量子</em>物理');
    const only = (await index.search({ text: '图书馆 -开放' })).hits.find((h) => h.id === 1)!;
    expect(only.snippet).not.toContain('<em>开放');
    expect((await index.search({ text: '图书馆 -量子' })).hits[0]!.snippet).toContain('<em>图书馆</em>开放时间');
  });

  it('finds a quoted phrase as typed, not its words apart', async () => {
    await index.upsert([
      entry(1, { content: `${FILLER}machine learning 入门。` }),
      entry(2, { content: `${FILLER}learning by machine。` }),
      entry(3, { content: `${FILLER}红楼梦是古典名著。${FILLER}书中的林黛玉聪慧多才。` }),
    ]);
    expect((await ids('machine learning')).sort()).toEqual([1, 2]);
    expect(await ids('"machine learning"')).toEqual([1]);
    expect(await ids('红楼梦林黛玉')).toEqual([3]);
    expect(await ids('"红楼梦林黛玉"')).toEqual([]);
  });

  it('finds a single CJK character wherever a token starts with it, title matches first, and marks it', async () => {
    await index.upsert([
      entry(1, { title: '一本好书', content: FILLER }),
      entry(2, { title: '书法入门', content: FILLER }),
      entry(3, { title: '散文集', content: `${FILLER}书` }),
      entry(4, { title: 'C语言', content: FILLER }),
      entry(5, { title: 'CSS 手册', content: 'c' }),
      entry(6, { title: '书目', content: FILLER }),
      entry(7, { title: 'Ｃ语言程序设计', content: FILLER }),
      entry(8, { title: '神话', description: '关于麒麟的传说', content: `${FILLER}麒麟是一种瑞兽。` }),
      entry(9, { title: '动物图鉴', content: `${FILLER}传说中的麒麟，还有麒麟座。` }),
      entry(10, { title: '麒麟', content: FILLER }),
      entry(11, { title: '地理', content: '长颈鹿' }),
    ]);
    // Title matches, then description matches, then text matches, each by bm25.
    expect(await ids('麒')).toEqual([10, 8, 9]);
    expect(await ids('书')).toEqual([6, 2, 1, 3]);
    expect((await index.search({ text: '麒' })).total).toBe(3);
    const hits = (await index.search({ text: '麒' })).hits;
    expect(hits[0]!.titleHighlight).toBe('<em>麒</em>麟');
    expect(hits[2]!.snippet).toContain('传说中的<em>麒</em>麟，还有<em>麒</em>麟座。');
    // A character that ends a run is a token of its own: found too.
    expect(await ids('麟')).toEqual([10, 8, 9]);
    // Beside a longer word, the character is required as well.
    expect(await ids('麒麟 座')).toEqual([9]);
    expect(await ids('瑞兽 麒')).toEqual([8]);
    expect(await ids('A股')).toEqual([]);
    expect(await ids({ text: '书', sort: 'newest', filters: { createdFrom: '2023-01-01T00:00:00Z' } })).toEqual([
      6, 3, 2, 1,
    ]);
    // A single letter is a word of nearly every text: titles only, as a whole word.
    expect(await ids('c')).toEqual([4, 7]);
  });

  it('never throws on FTS5 syntax in a query, and matches operators as plain words', async () => {
    await index.upsert([
      entry(1, { title: 'Rock and Roll', content: 'near the end' }),
      entry(2, { title: '教程', content: FILLER }),
    ]);
    for (const text of [
      '"',
      '""',
      '*',
      'NEAR',
      'NEAR(a b)',
      'AND',
      'OR',
      'NOT',
      '(',
      ')',
      '-',
      ':',
      'title:教程',
      '教程*',
      '-教程',
      '^教程',
      '{title}: x',
      '"教程',
      'a" OR "b',
      '\u0000',
      '\ud800',
    ]) {
      await expect(index.search({ text }), text).resolves.toBeDefined();
    }
    expect(await ids('AND')).toEqual([1]);
    expect(await ids('near')).toEqual([1]);
    expect(await ids('-教程')).toEqual([2]);
    expect(await ids('title:教程')).toEqual([]);
    expect(await ids('教程*')).toEqual([2]);
    expect((await index.search({ text: '"*(:-' })).total).toBe(0);
  });

  it('ranks a title match above a body-only match', async () => {
    await index.upsert([
      entry(1, { title: '旅行日记', content: `${FILLER}区块链区块链区块链的应用。` }),
      entry(2, { title: '区块链技术概论', content: FILLER }),
      entry(3, { title: '菜谱', content: FILLER }),
      entry(4, { title: '园艺', content: FILLER }),
    ]);
    const result = await index.search({ text: '区块链' });
    expect(result.hits.map((hit) => hit.id)).toEqual([2, 1]);
    expect(result.hits[0]!.score).toBeGreaterThan(result.hits[1]!.score);
  });

  it('ranks title and keyword matches first, then description matches, then the rest, and pages across the three', async () => {
    await index.upsert([
      entry(1, { title: '边缘计算', content: FILLER }),
      entry(2, { title: '笔记', keywords: '边缘计算,物联网', content: FILLER }),
      entry(3, { title: '关于边缘计算与云计算的协同调度方法研究综述', content: FILLER }),
      entry(4, { content: `边缘计算。${FILLER}` }),
      entry(5, { content: '边缘计算边缘计算边缘计算。' }),
      entry(6, { description: '介绍边缘计算。', content: FILLER }),
      entry(7, { content: `${FILLER}${FILLER}边缘计算。` }),
      entry(8, { title: '无关', content: FILLER }),
    ]);
    const all = await ids({ text: '边缘计算', size: 100 });
    expect(all.slice(0, 3).sort()).toEqual([1, 2, 3]);
    expect(all[3]).toBe(6);
    expect(all.slice(4).sort()).toEqual([4, 5, 7]);
    expect(all.indexOf(1)).toBeLessThan(all.indexOf(3));
    // Within the text tier, by bm25: three mentions in a short text first.
    expect(all[4]).toBe(5);
    const pages = await Promise.all([1, 2, 3, 4, 5].map((page) => index.search({ text: '边缘计算', page, size: 2 })));
    expect(pages.map((p) => p.total)).toEqual([7, 7, 7, 7, 7]);
    expect(pages.flatMap((p) => p.hits.map((hit) => hit.id))).toEqual(all);
    for (const size of [1, 3, 4]) {
      const paged = await Promise.all([1, 2, 3, 4, 5, 6, 7].map((page) => ids({ text: '边缘计算', page, size })));
      expect(paged.flat(), `pages of ${size}`).toEqual(all);
    }
    expect(await ids({ text: '边缘计算', size: 100, filters: { createdTo: '2023-01-01T00:00:00Z' } })).toEqual([]);
    // A filter applies to every tier: the description tier's entry alone.
    await index.updateAttributes(6, { ext: 'pdf' });
    expect(await ids({ text: '边缘计算', filters: { exts: ['pdf'] } })).toEqual([6]);
  });

  it('counts no further than maxTotal', async () => {
    await index.upsert(Array.from({ length: 30 }, (_, i) => entry(i + 1, { content: '区块链。' })));
    const capped = await index.search({ text: '区块链', maxTotal: 12 });
    expect(capped.total).toBe(12);
    expect(capped.hits).toHaveLength(10);
    expect((await index.search({ text: '区块链' })).total).toBe(30);
  });

  it('filters by category, extension, language, uploader and creation date', async () => {
    const body = '操作系统的进程调度。';
    await index.upsert([
      entry(1, {
        content: body,
        attributes: {
          categoryIds: [10, 11],
          ext: '.pdf',
          language: 'zh',
          userId: 7,
          createdAt: '2024-01-10T00:00:00Z',
        },
      }),
      entry(2, {
        content: body,
        attributes: { categoryIds: [11], ext: '.docx', language: 'en', userId: 8, createdAt: '2024-03-10T00:00:00Z' },
      }),
      entry(3, {
        content: body,
        attributes: { categoryIds: [12], ext: '.pdf', language: 'zh', userId: 7, createdAt: '2024-05-10T00:00:00Z' },
      }),
    ]);
    const filtered = (filters: SearchQuery['filters']) => ids({ text: '进程调度', filters, sort: 'newest' });
    expect(await filtered({ categoryIds: [11] })).toEqual([2, 1]);
    expect(await filtered({ categoryIds: [10, 12] })).toEqual([3, 1]);
    expect(await filtered({ exts: ['.pdf'] })).toEqual([3, 1]);
    expect(await filtered({ exts: ['.pdf', '.docx'], languages: ['en'] })).toEqual([2]);
    expect(await filtered({ userId: 7, categoryIds: [11] })).toEqual([1]);
    expect(await filtered({ createdFrom: '2024-02-01T00:00:00Z' })).toEqual([3, 2]);
    expect(await filtered({ createdFrom: '2024-02-01T00:00:00Z', createdTo: '2024-04-01T00:00:00+08:00' })).toEqual([
      2,
    ]);
    expect(await filtered({ categoryIds: [], exts: [], languages: [] })).toEqual([3, 2, 1]);
    await expect(index.search({ text: '进程', filters: { createdFrom: 'yesterday' } })).rejects.toThrow(RangeError);
  });

  it('sorts by creation date and by counters, ties newest first', async () => {
    const body = '数据库索引的原理。';
    await index.upsert([
      entry(1, {
        content: body,
        attributes: {
          createdAt: '2024-01-01T00:00:00Z',
          viewCount: 50,
          downloadCount: 1,
          favoriteCount: 3,
          commentCount: 0,
          score: 450,
        },
      }),
      entry(2, {
        content: body,
        attributes: {
          createdAt: '2024-02-01T00:00:00Z',
          viewCount: 10,
          downloadCount: 9,
          favoriteCount: 3,
          commentCount: 5,
          score: 300,
        },
      }),
      entry(3, {
        content: body,
        attributes: {
          createdAt: '2024-03-01T00:00:00Z',
          viewCount: 30,
          downloadCount: 5,
          favoriteCount: 1,
          commentCount: 2,
          score: 380,
        },
      }),
    ]);
    const sorted = (sort: SearchQuery['sort']) => ids({ text: '数据库索引', sort });
    expect(await sorted('newest')).toEqual([3, 2, 1]);
    expect(await sorted('views')).toEqual([1, 3, 2]);
    expect(await sorted('downloads')).toEqual([2, 3, 1]);
    expect(await sorted('favorites')).toEqual([2, 1, 3]);
    expect(await sorted('comments')).toEqual([2, 3, 1]);
    expect(await sorted('score')).toEqual([1, 3, 2]);
    const newest = await index.search({ text: '数据库索引', sort: 'newest' });
    expect(newest.hits.every((hit) => hit.score === 0)).toBe(true);
  });

  it('pages through the results and reports the total', async () => {
    await index.upsert(
      Array.from({ length: 25 }, (_, i) =>
        entry(i + 1, {
          content: '云计算平台的架构。',
          attributes: { createdAt: new Date(Date.UTC(2024, 0, i + 1)).toISOString() },
        }),
      ),
    );
    const pages = await Promise.all(
      [1, 2, 3, 4].map((page) => index.search({ text: '云计算', sort: 'newest', page, size: 10 })),
    );
    expect(pages.map((p) => p.total)).toEqual([25, 25, 25, 25]);
    expect(pages.map((p) => p.hits.length)).toEqual([10, 10, 5, 0]);
    expect(pages.flatMap((p) => p.hits.map((hit) => hit.id))).toEqual(Array.from({ length: 25 }, (_, i) => 25 - i));
    expect((await index.search({ text: '云计算', size: 1000 })).hits).toHaveLength(25);
    expect((await index.search({ text: '云计算', page: -3, size: 0 })).hits).toHaveLength(1);
  });

  it('answers every page size and depth right', async () => {
    await index.upsert(
      Array.from({ length: 30 }, (_, i) =>
        entry(i + 1, {
          content: '云计算平台的架构。',
          attributes: { createdAt: new Date(Date.UTC(2024, 0, i + 1)).toISOString() },
        }),
      ),
    );
    // Each size, page and total cap is its own SQL (the LIMIT is written into it). The pages
    // of one size are asked at once, as a busy site would (the pool's connections in parallel).
    const pages = Array.from({ length: 30 }, (_, i) => i + 1);
    for (let size = 1; size <= 30; size++) {
      const answers = await Promise.all(
        pages.map((page) =>
          index.search({ text: '云计算', sort: 'newest', size, page, maxTotal: 100 + size * 30 + page }),
        ),
      );
      answers.forEach(({ total, hits }, i) => {
        expect(total).toBe(30);
        const first = 30 - i * size;
        expect(hits.map((hit) => hit.id)).toEqual(
          Array.from({ length: Math.max(0, Math.min(size, first)) }, (_, k) => first - k),
        );
      });
    }
  });

  it('cuts the snippet around the first match, highlights it and escapes the rest', async () => {
    const before = '前言部分讲述了历史背景。'.repeat(30);
    const content = `${before}<script>alert("x")</script>量子计算机的原理与量子比特。${'后记。'.repeat(50)}`;
    await index.upsert([entry(1, { title: '<b>量子</b>计算导论', content })]);
    const [hit] = (await index.search({ text: '量子计算' })).hits;
    expect(hit!.titleHighlight).toBe('&lt;b&gt;量子&lt;/b&gt;计算导论');
    expect(hit!.snippet).toMatch(/^…/);
    expect(hit!.snippet).toMatch(/…$/);
    expect(hit!.snippet).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;<em>量子计算</em>机的原理');
    expect(hit!.snippet).not.toContain('<script>');
    expect(hit!.snippet.replace(/<\/?em>/g, '').length).toBeLessThan(140 + 40);
    const both = (await index.search({ text: '量子 原理' })).hits[0]!;
    expect(both.snippet).toContain('<em>量子</em>计算机的<em>原理</em>与<em>量子</em>比特');
  });

  it('never cuts a character in two at the edges of a snippet', async () => {
    const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    for (const filler of ['𠀀', '𠀀a', 'a𠀀', 'é']) {
      await index.upsert([entry(1, { content: `${filler.repeat(150)}关键词${filler.repeat(150)}` })]);
      const [hit] = (await index.search({ text: '关键词' })).hits;
      expect(hit!.snippet, filler).toMatch(/^….*<em>关键词<\/em>.*…$/su);
      expect(loneSurrogate.test(hit!.snippet), filler).toBe(false);
      expect(hit!.snippet.length, filler).toBeLessThan(140);
    }
  });

  it("shows the text's beginning when the only candidate far into the text is inside a longer word", async () => {
    const content = `${'正文内容。'.repeat(200)}Pythonic code.${'结尾。'.repeat(200)}`;
    await index.upsert([entry(1, { title: 'python 入门', content })]);
    const [hit] = (await index.search({ text: 'python' })).hits;
    expect(hit!.snippet).toMatch(/^正文内容。正文内容。.*…$/u);
    expect(hit!.snippet).not.toContain('Pythonic');
  });

  it('finds the real match for the snippet when the first candidate is inside a longer word', async () => {
    const content = `Pythonic code.${'正文内容。'.repeat(60)}学会 python 编程。`;
    await index.upsert([entry(1, { content })]);
    const [hit] = (await index.search({ text: 'python' })).hits;
    expect(hit!.snippet).toContain('学会 <em>python</em> 编程。');
    expect(hit!.snippet).not.toContain('<em>Pythonic');
  });

  it('stores and shows radicals and compatibility ideographs as the ideographs they stand for', async () => {
    await index.upsert([entry(1, { title: '⽂件格式', content: '这是⽂件的说明，见\uF900。' })]);
    const [hit] = (await index.search({ text: '文件' })).hits;
    expect(hit).toMatchObject({ titleHighlight: '<em>文件</em>格式', snippet: '这是<em>文件</em>的说明，见豈。' });
  });

  it('falls back to the description, then to the beginning of the text, for the snippet', async () => {
    await index.upsert([
      entry(1, { title: '天文学', description: '关于<星系>的介绍', content: '宇宙很大。' }),
      entry(2, { title: '地理学', description: '', content: '山川河流。' }),
    ]);
    expect((await index.search({ text: '星系' })).hits[0]!.snippet).toBe('关于&lt;<em>星系</em>&gt;的介绍');
    expect((await index.search({ text: '地理学' })).hits[0]).toMatchObject({
      snippet: '山川河流。',
      titleHighlight: '<em>地理学</em>',
    });
  });

  it('takes the snippet from the description when the text holds the word only inside a longer one', async () => {
    await index.upsert([
      entry(1, { title: '编程入门', description: '学会 python 编程', content: `${'正文。'.repeat(40)}Pythonic code.` }),
    ]);
    expect((await index.search({ text: 'python' })).hits[0]!.snippet).toBe('学会 <em>python</em> 编程');
  });

  it('replaces every old token on upsert and forgets removed entries', async () => {
    await index.upsert([
      entry(1, { title: '旧标题', keywords: '旧关键词', description: '旧的摘要', content: '旧的正文内容。' }),
      entry(2, { content: '旧的正文内容。' }),
    ]);
    expect((await ids('旧的正文')).sort()).toEqual([1, 2]);
    expect(await ids('旧的摘要')).toEqual([1]);
    await index.upsert([entry(1, { title: '新标题', content: '全新的正文。' })]);
    expect(await ids('旧的正文')).toEqual([2]);
    expect(await ids('旧标题')).toEqual([]);
    expect(await ids('旧关键词')).toEqual([]);
    expect(await ids('旧的摘要')).toEqual([]);
    expect(await ids('全新')).toEqual([1]);
    await index.remove([2, 99]);
    expect(await ids('旧的正文')).toEqual([]);
    expect(await index.count()).toBe(1);
    await index.clear();
    expect(await index.count()).toBe(0);
    expect(await ids('全新')).toEqual([]);
  });

  it('changes filter and sort values without indexing the text again', async () => {
    await index.upsert([
      entry(1, { content: '网络安全。', attributes: { categoryIds: [1] } }),
      entry(2, { content: '网络安全。', attributes: { categoryIds: [1], viewCount: 5 } }),
    ]);
    await index.updateAttributes(1, { viewCount: 9, categoryIds: [2] });
    await index.updateAttributes(42, { viewCount: 1 });
    expect(await ids({ text: '网络安全', sort: 'views' })).toEqual([1, 2]);
    expect(await ids({ text: '网络安全', filters: { categoryIds: [2] } })).toEqual([1]);
    expect(await index.count()).toBe(2);
  });

  it('folds full-width letters and radicals (NFKC) in text and query alike', async () => {
    await index.upsert([
      entry(1, { title: '说明书 pdf 版' }),
      entry(2, { content: '⽂件的格式。' }),
      entry(3, { content: 'ＡＢＣ公司' }),
    ]);
    expect(await ids('ＰＤＦ')).toEqual([1]);
    expect(await ids('文件')).toEqual([2]);
    expect(await ids('⽂件')).toEqual([2]);
    expect(await ids('abc')).toEqual([3]);
    const hit = (await index.search({ text: 'abc' })).hits[0]!;
    expect(hit.snippet).toBe('<em>ＡＢＣ</em>公司');
  });

  it('highlights the original characters when folding changes the length', async () => {
    await index.upsert([entry(1, { content: '他说……这是ﬁnal版本，然后㈱公司发布了机器学习教程。' })]);
    const hit = (await index.search({ text: '机器学习' })).hits[0]!;
    expect(hit.snippet).toBe('他说……这是ﬁnal版本，然后㈱公司发布了<em>机器学习</em>教程。');
    expect((await index.search({ text: 'final' })).hits[0]!.snippet).toContain('<em>ﬁnal</em>');
  });

  it('keeps one index per collection and survives reopening the database file', async () => {
    const articles = store.open('article');
    await index.upsert([entry(1, { content: '文档里的深度学习。' })]);
    await articles.upsert([entry(1, { content: '文章里的强化学习。' })]);
    expect(await ids('强化学习')).toEqual([]);
    expect((await articles.search({ text: '强化学习' })).hits.map((hit) => hit.id)).toEqual([1]);

    await store.reopen();
    index = store.index;
    expect(await store.needsRebuild(index)).toBe(false);
    expect(await ids('深度学习')).toEqual([1]);
    await index.rebuild();
    expect(await ids('深度学习')).toEqual([1]);
    expect(await index.count()).toBe(1);
  });

  it('keeps and indexes a very long text up to its limit', async () => {
    const content = `开头的句子。${'填充文字。'.repeat(MAX_CONTENT_LENGTH / 5)}结尾的句子。`;
    await index.upsert([entry(1, { content })]);
    expect(await ids('开头')).toEqual([1]);
    expect(await ids('结尾')).toEqual([]);
  });

  describe('a long text', () => {
    // About 100 KiB of UTF-8: over HEAD_BYTES, so its snippets are looked for in its head first.
    const long = `${FILLER.repeat(10)}开篇提到的词。${FILLER.repeat(1000)}书末才有的词。`;
    const headRows = () => store.headRows();

    it('keeps a copy of its first 64 KiB, cut before a character, and none for a short text', async () => {
      expect(Buffer.byteLength(long)).toBeGreaterThan(HEAD_BYTES);
      await index.upsert([entry(1, { content: long }), entry(2)]);
      expect(await headRows()).toEqual([{ id: 1, size: Buffer.byteLength(long) }]);
      for (const text of [long, '𠀀'.repeat(20_000), `a${'𠀀'.repeat(20_000)}`]) {
        const { head } = headOf(text)!;
        expect(head.length).toBeLessThanOrEqual(HEAD_BYTES);
        expect(head.length).toBeGreaterThan(HEAD_BYTES - 4);
        expect(Buffer.from(head.toString('utf8')).equals(head)).toBe(true);
      }
      expect(headOf(FILLER)).toBeNull();
      await index.upsert([entry(1, { content: FILLER })]);
      expect(await headRows()).toEqual([]);
      await index.upsert([entry(1, { content: long })]);
      await index.remove([1]);
      expect(await headRows()).toEqual([]);
      await index.upsert([entry(1, { content: long })]);
      await index.clear();
      expect(await headRows()).toEqual([]);
    });

    it('cuts the snippet of a word near its beginning from the head, never reading the whole text', async () => {
      await index.upsert([entry(1, { content: long })]);
      // The stored text loses the word; its head still has it: the snippet comes from the head.
      await store.replaceInStoredText(1, '开篇提到', '后来改掉');
      const [hit] = (await index.search({ text: '开篇提到' })).hits;
      expect(hit!.snippet).toMatch(/^….*<em>开篇提到<\/em>的词。.*…$/su);
    });

    it('looks in the whole text for a word its head does not hold', async () => {
      await index.upsert([entry(1, { content: long })]);
      const [hit] = (await index.search({ text: '书末才有' })).hits;
      expect(hit!.snippet).toMatch(/^….*<em>书末才有<\/em>的词。$/su);
    });
  });

  describe('a paged text (a form feed between pages)', () => {
    it('is stored, tokenized and shown as the pages joined by a line break: a word a page break cut is whole', async () => {
      expect(normalizePages(PAGED).text).toBe(normalizeText(PAGES.join('\n')));
      await index.upsert([entry(1, { content: PAGED, paged: true })]);
      expect(await ids('机器学习')).toEqual([1]);
      const [hit] = (await index.search({ text: '机器学习' })).hits;
      expect(hit!.snippet).toContain('<em>机器学习</em>的方法');
      expect(hit!.snippet).not.toContain('\f');
    });

    it('names the page of the snippet: where its first match is, or where the text begins', async () => {
      await index.upsert([entry(1, { title: '图书馆笔记', content: PAGED, paged: true })]);
      expect((await index.search({ text: '城市图书馆' })).hits[0]).toMatchObject({ page: 1 });
      expect((await index.search({ text: '机器学习' })).hits[0]).toMatchObject({ page: 3 });
      expect((await index.search({ text: '方法' })).hits[0]).toMatchObject({ page: 4 });
      // the byte search misses a word in full-width letters: the match is found in the decoded text
      expect((await index.search({ text: 'python' })).hits[0]).toMatchObject({
        snippet: expect.stringContaining('<em>ｐｙｔｈｏｎ</em>'),
        page: 5,
      });
      // a character found only in the title: the text's beginning
      expect((await index.search({ text: '笔' })).hits[0]).toMatchObject({
        snippet: expect.stringMatching(/^第一页/u),
        page: 1,
      });
    });

    it('names the page holding the most distinct terms of a query, a word inside a longer one not counted', async () => {
      const pages = [
        `Pages often ${FILLER}`,
        `${FILLER.repeat(4)} one page here. ${FILLER.repeat(4)}`,
        `${FILLER.repeat(4)} page of notes. ${FILLER.repeat(4)}`,
        `${FILLER.repeat(4)} the last page of notes. ${FILLER.repeat(4)}`,
      ];
      await index.upsert([entry(1, { content: pages.join('\f'), paged: true })]);
      // Page 1 holds "of" and "page" only inside longer words; pages 3 and 4 both words, the first of them wins.
      expect((await index.search({ text: 'page of' })).hits[0]).toMatchObject({
        snippet: expect.stringContaining('<em>page</em> <em>of</em> notes'),
        page: 3,
      });
    });

    it('names no page for a snippet from the description, nor for a text that is not paged', async () => {
      await index.upsert([
        entry(1, { description: '一份关于星系的介绍', content: PAGED, paged: true }),
        entry(2, { content: PAGED }),
      ]);
      expect((await index.search({ text: '星系' })).hits[0]).toMatchObject({ id: 1, page: 0 });
      expect((await index.search({ text: '方法' })).hits.map((hit) => [hit.id, hit.page]).sort()).toEqual([
        [1, 4],
        [2, 0],
      ]);
    });

    it('keeps its pages through a rebuild of the tokens after a tokenizer change', async () => {
      await index.upsert([entry(1, { content: PAGED, paged: true })]);
      await store.setTokenizerVersion(0);
      expect(await store.needsRebuild(index)).toBe(true);
      await index.rebuild();
      expect((await index.search({ text: '方法' })).hits[0]).toMatchObject({ id: 1, page: 4 });
    });
  });

  describe('a text whose snippets may show its first pages only (shownPages, a free preview)', () => {
    // Three free pages, then two paid ones; no character of the paid pages is on a free one.
    const FREE = ['第一页：星图的目录。', `第二页：${FILLER}星图的末尾`, '第三页：星图与鸾鸟。'];
    const PAID = ['肆：麒麟踏雪，寻梅问鹤。', '伍：星图之上，青鸾衔枝，麒麟回首。'];
    const book = (fields: Parameters<typeof entry>[1] = {}) =>
      entry(1, {
        description: '一份星图笔记',
        content: [...FREE, ...PAID].join('\f'),
        paged: true,
        shownPages: 3,
        ...fields,
      });
    const freeCharacters = new Set([...FREE.join(''), ...'一份星图笔记']);
    const paidCharacters = new Set([...PAID.join('')].filter((char) => !freeCharacters.has(char)));
    const paidIn = (snippet: string) => [...snippet].filter((char) => paidCharacters.has(char));

    it('finds a word of a paid page, shows the description with none of its text, and names its page', async () => {
      await index.upsert([book()]);
      for (const text of ['麒麟', '寻梅问鹤', '青鸾衔枝']) {
        const [hit] = (await index.search({ text })).hits;
        expect(hit).toMatchObject({ id: 1, snippet: '一份星图笔记', page: 0 });
        expect(paidIn(hit!.snippet)).toEqual([]);
      }
      expect((await index.search({ text: '麒麟' })).hits[0]!.matchPage).toBe(4);
      expect((await index.search({ text: '青鸾衔枝' })).hits[0]!.matchPage).toBe(5);
      // without a description, the beginning of the free pages
      await index.upsert([book({ description: '' })]);
      const [bare] = (await index.search({ text: '寻梅' })).hits;
      expect(bare).toMatchObject({ snippet: expect.stringMatching(/^第一页：星图的目录。/u), page: 1, matchPage: 4 });
      expect(paidIn(bare!.snippet)).toEqual([]);
    });

    it("names the query's words that the matching paid page holds, as the query holds them, not as the page spells them", async () => {
      await index.upsert([
        book(),
        entry(2, { content: '第一页：目录。\f贰：The QUILLWORT grows here.', paged: true, shownPages: 1 }),
      ]);
      // Page 4 holds 麒麟 and not 青鸾: the word for the reader's find there is the second one asked for.
      expect((await index.search({ text: '青鸾 麒麟' })).hits[0]).toMatchObject({
        id: 1,
        matchPage: 4,
        matchWords: ['麒麟'],
      });
      expect((await index.search({ text: '麒麟 星图' })).hits[0]).toMatchObject({ matchPage: 0, matchWords: [] });
      expect((await index.search({ text: '麒麟 回首' })).hits[0]).toMatchObject({ matchPage: 4, matchWords: ['麒麟'] });
      expect((await index.search({ text: '回首 青鸾' })).hits[0]).toMatchObject({
        matchPage: 5,
        matchWords: ['回首', '青鸾'],
      });
      expect((await index.search({ text: 'Quillwort' })).hits[0]).toMatchObject({
        id: 2,
        matchPage: 2,
        matchWords: ['quillwort'],
      });
    });

    it('ends a snippet of the last free page where that page ends', async () => {
      await index.upsert([book()]);
      const [hit] = (await index.search({ text: '鸾鸟' })).hits;
      expect(hit).toMatchObject({ page: 3, matchPage: 0 });
      expect(hit!.snippet).toMatch(/<em>鸾鸟<\/em>。 ?…$/u);
      expect(paidIn(hit!.snippet)).toEqual([]);
    });

    it('cuts the snippet from the free page that matches best, even where a paid page matches better', async () => {
      await index.upsert([book()]);
      // Page 5 holds both words, the free pages 星图 alone (page 3 鸾 too, not 青鸾): the earliest of them.
      const [hit] = (await index.search({ text: '星图 青鸾' })).hits;
      expect(hit).toMatchObject({ page: 1, matchPage: 0 });
      expect(hit!.snippet).toContain('<em>星图</em>');
      expect(paidIn(hit!.snippet)).toEqual([]);
    });

    it('shows none of a text that is not paged when told to show none of it', async () => {
      await index.upsert([entry(2, { description: '旧的转换', content: PAID.join('\n'), shownPages: 0 })]);
      const [hit] = (await index.search({ text: '麒麟' })).hits;
      expect(hit).toMatchObject({ id: 2, snippet: '旧的转换', page: 0, matchPage: 0 });
    });

    it('shows no text of an entry of an index made before it kept what may be shown, until it is stored again', async () => {
      await index.upsert([book()]);
      expect(await index.needsRefill()).toBe(false);
      await store.dropShownColumn();
      const reopened = store.open('document');
      expect(await reopened.needsRefill()).toBe(true);
      expect((await reopened.search({ text: '星图' })).hits[0]).toMatchObject({
        snippet: '一份<em>星图</em>笔记',
        page: 0,
      });
      await reopened.upsert([book()]);
      expect(await reopened.needsRefill()).toBe(false);
      expect((await reopened.search({ text: '星图' })).hits[0]).toMatchObject({ page: 1 });
    });
  });

  it('says when its tokens come from another tokenizer version, and rebuilds them from its stored texts', async () => {
    await index.upsert([entry(1, { title: '旧版', content: '分词规则变了。' }), entry(2, { content: '规则之外。' })]);
    await store.setTokenizerVersion(0);
    await store.dropAllColumnTokens();
    expect(await store.needsRebuild(index)).toBe(true);
    expect(await ids('规则')).toEqual([]);
    await index.rebuild();
    expect(await store.needsRebuild(index)).toBe(false);
    expect((await ids('规则')).sort()).toEqual([1, 2]);
    expect(await ids('旧')).toEqual([1]);
  });

  describe('an index made before the dictionary words', () => {
    // Texts that hold the words, or only look as if they do.
    const TEXTS = [
      '游客在天安门广场上。',
      '天安门 广场',
      '天安\n门广场',
      '天安⻔广场',
      '在ＸＹ天安门广场',
      '天安门广场和天安门广场',
      '第十届全国人民代表大会',
      '门广场',
      '人民代表大',
    ];
    const WORDS = ['天安门广场', '天安门', '人民代表大会', '代表大会', '安门广场'];
    const found = async (engine: TestIndex, text: string) =>
      (await engine.search({ text, size: 100 })).hits.map((hit) => hit.id).sort((a, b) => a - b);

    it('finds a word exactly where its phrase is', async () => {
      await index.upsert(TEXTS.map((content, i) => entry(i + 1, { content })));
      await store.setTokenizerVersion(1);
      const phrases = store.open('document');
      expect(await store.needsRebuild(phrases)).toBe(true);
      for (const word of WORDS) expect(await found(index, word), word).toEqual(await found(phrases, word));
      expect(await found(index, '天安门广场')).toEqual([1, 3, 4, 5, 6]);
      expect(await found(index, '代表大会')).toEqual([7]);
      expect((await index.search({ text: '天安门广场' })).hits.find((hit) => hit.id === 6)!.snippet).toBe(
        '<em>天安门广场</em>和<em>天安门广场</em>',
      );
    });

    it('matches words as phrases until upgrade() has given every entry its words', async () => {
      await index.upsert([
        entry(1, { content: TEXTS[0] }),
        entry(2, { title: '天安门广场', content: FILLER }),
        entry(3, { content: FILLER }),
      ]);
      await store.writeVersionOneTokens(2, { title: '天安门广场', content: FILLER });
      await store.setTokenizerVersion(1);
      // The engine of a running site that did not know: the entry without its word is missed.
      expect(await found(index, '天安门广场')).toEqual([1]);
      const upgrading = store.open('document');
      expect(await found(upgrading, '天安门广场')).toEqual([1, 2]);

      expect(await upgrading.upgrade({ stopped: () => true })).toBe(false);
      expect(await store.needsRebuild(upgrading)).toBe(true);
      expect(await upgrading.upgrade({ batch: 2 })).toBe(true);
      expect(await store.needsRebuild(upgrading)).toBe(false);
      expect(await store.titleMatches('天安门广场')).toEqual([2]);
      expect(await found(upgrading, '天安门广场')).toEqual([1, 2]);
      expect((await upgrading.search({ text: '天安门广场' })).hits[0]!.id).toBe(2);
      expect(await upgrading.upgrade()).toBe(true);
    });
  });

  describe('an index made before the signs', () => {
    it('reads the signs of a query as separators until upgrade() has given every entry its signs', async () => {
      await index.upsert([
        entry(1, { title: 'C++ 入门', content: FILLER }),
        entry(2, { title: 'C 语言', content: FILLER }),
      ]);
      await store.setTokenizerVersion(2);
      const upgrading = store.open('document');
      const found = async (text: string) =>
        (await upgrading.search({ text })).hits.map((hit) => hit.id).sort((a, b) => a - b);
      // Version 2's tokens had no signs: `C++` was the letter, looked for in titles.
      expect(await found('C++')).toEqual([1, 2]);
      expect(await upgrading.upgrade()).toBe(true);
      expect(await found('C++')).toEqual([1]);
      expect(await found('C')).toEqual([1, 2]);
    });

    it('keeps reading them while an index of version 3 gets the parts of its words (version 4)', async () => {
      await index.upsert([
        entry(1, { title: 'C++ 入门', content: FILLER }),
        entry(2, { title: 'C 语言', content: `${FILLER}Python3` }),
      ]);
      await store.setTokenizerVersion(3);
      const upgrading = store.open('document');
      expect(await store.needsRebuild(upgrading)).toBe(true);
      expect((await upgrading.search({ text: 'C++' })).hits.map((hit) => hit.id)).toEqual([1]);
      expect(await upgrading.upgrade()).toBe(true);
      expect((await upgrading.search({ text: 'python' })).hits.map((hit) => hit.id)).toEqual([2]);
    });
  });

  it('answers an empty result for a query with nothing searchable in it', async () => {
    await index.upsert([entry(1)]);
    expect(await index.search({ text: '' })).toMatchObject({ total: 0, hits: [] });
    expect(await index.search({ text: '，。！？' })).toMatchObject({ total: 0, hits: [] });
  });

  it('keeps every character of a text, a NUL too, and writes an id given twice once, as given last', async () => {
    await index.upsert([
      entry(1, { title: 'a\u0000b 标题', content: '正文\u0000内容' }),
      entry(2, { content: '旧的文字' }),
      entry(2, { content: '新的内容' }),
    ]);
    expect(await index.count()).toBe(2);
    expect(await ids('旧的')).toEqual([]);
    expect(await ids({ text: '内容', sort: 'newest' })).toEqual([2, 1]);
    const hit = (await index.search({ text: '内容' })).hits.find((h) => h.id === 1)!;
    expect(hit).toMatchObject({ titleHighlight: 'a\u0000b 标题', snippet: '正文\u0000<em>内容</em>' });
  });
});

describe.skipIf(!inject('postgresUrl'))('PostgresSearchIndex', () => {
  it('makes its tables once when several processes start at the same time', async () => {
    const url = await createDatabase(inject('postgresUrl'));
    const databases = Array.from({ length: 4 }, () => postgresKysely(url));
    try {
      const indexes = databases.map((db) => new PostgresSearchIndex(db, 'document'));
      expect(await Promise.all(indexes.map((engine) => engine.count()))).toEqual([0, 0, 0, 0]);
      await indexes[0]!.upsert([entry(1, { content: '区块链。' })]);
      expect((await indexes[3]!.search({ text: '区块链' })).hits.map((hit) => hit.id)).toEqual([1]);
    } finally {
      for (const db of databases) await db.destroy();
      await dropDatabase(url);
    }
  });

  it('starts beside a process that empties the index, without locking a table of it', async () => {
    const url = await createDatabase(inject('postgresUrl'));
    const [first, second] = [postgresKysely(url), postgresKysely(url)];
    const emptying = new pg.Client(url);
    await emptying.connect();
    try {
      await new PostgresSearchIndex(first, 'document').upsert([entry(1, { content: '区块链。' })]);
      // The other process's TRUNCATE under way: it holds the tables it has come to so far.
      await emptying.query('BEGIN');
      await emptying.query('LOCK TABLE search_document_category IN ACCESS EXCLUSIVE MODE');
      let watching = true;
      const waitsForLock = async () => {
        while (watching) {
          if ((await lockWaiters(emptying)) > 0) return 'waits for a lock';
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return 'stopped watching';
      };
      const counted = new PostgresSearchIndex(second, 'document').count();
      const watched = waitsForLock();
      const answer = await Promise.race([counted, watched]);
      watching = false;
      await watched;
      await emptying.query('ROLLBACK');
      expect(answer).toBe(1);
      await counted;
    } finally {
      await emptying.end();
      await Promise.all([first.destroy(), second.destroy()]);
      await dropDatabase(url);
    }
  });
});

describe('tsvectors of long texts', () => {
  /** A part's tokens in the order of their positions. */
  const tokensOf = (part: string) =>
    [...part.matchAll(/'((?:[^']|'')+)':([\dA-D,]+)/g)]
      .flatMap(([, token, positions]) =>
        positions!.split(',').map((position) => [Number.parseInt(position, 10), token!.replaceAll("''", "'")] as const),
      )
      .sort((a, b) => a[0] - b[0]);

  it("are cut into parts within a tsvector's limits, only where no phrase runs on", () => {
    const terms = indexTerms('机器学习的原理，'.repeat(3000));
    const parts = tsvectorParts([{ terms, weight: 'D' }]);
    expect(parts.length).toBeGreaterThan(10);
    const rejoined: string[] = [];
    for (const [index, part] of parts.entries()) {
      const tokens = tokensOf(part);
      expect(tokens.at(-1)![0]).toBeLessThanOrEqual(16_383);
      const counts = new Map<string, number>();
      for (const [, token] of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
      expect(Math.max(...counts.values())).toBeLessThanOrEqual(256);
      // Every position holds one token (the text has no column gaps): the part is a run of the text.
      expect(tokens.map(([position]) => position)).toEqual(tokens.map((_, i) => i + 1));
      const last = tokens.at(-1)![1];
      // A part of bigrams ends with a run's last character, never between two bigrams.
      if (index < parts.length - 1 && Array.from(last).length === 2)
        throw new Error(`part ${index} ends inside a run: ${last}`);
      rejoined.push(...tokens.map(([, token]) => token));
    }
    expect(rejoined).toEqual(terms);
  });

  it('keep a phrase whole across the parts, found at the end of a long text', async () => {
    const terms = indexTerms(`${'前言部分讲述了历史背景。'.repeat(2000)}量子纠缠实验`);
    const parts = tsvectorParts([{ terms, weight: 'D' }]);
    const last = tokensOf(parts.find((part) => part.includes("'量子'"))!).map(([, token]) => token);
    expect(last.join(' ')).toContain('量子 子纠 纠缠 缠实 实验 验');
  });
});

describe('the pages of a paged text', () => {
  it('finds the page of a byte offset, empty pages starting where the next one does', () => {
    const { text, starts } = normalizePages(PAGED);
    const byteOf = (word: string) => Buffer.byteLength(text.slice(0, text.indexOf(word)));
    expect(pageAt(starts, 0)).toBe(1);
    expect(pageAt(starts, byteOf('机器'))).toBe(3);
    expect(pageAt(starts, byteOf('习的方法'))).toBe(4);
    expect(pageAt(starts, Buffer.byteLength(text))).toBe(5);
    expect(pageAt(null, 10)).toBe(0);
    expect(pageAt(normalizePages('\f\f正文').starts, 0)).toBe(3);
  });
});

describe('SqliteSearchIndex', () => {
  let dataDir: string;
  let opened: OpenedDatabase;
  let index: SqliteSearchIndex;

  beforeEach(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-search-'));
    opened = await openMigratedSqlite(dataDir);
    index = new SqliteSearchIndex(opened.sqlite, 'document');
  });

  afterEach(async () => {
    await opened.db.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const ids = async (text: string) => (await index.search({ text })).hits.map((hit) => hit.id);

  it('keeps a bounded number of prepared statements whatever the page sizes and depths', async () => {
    await index.upsert(Array.from({ length: 30 }, (_, i) => entry(i + 1, { content: '云计算平台的架构。' })));
    // Each size, page and total cap is its own SQL (the LIMIT is written into it).
    for (let size = 1; size <= 30; size++) {
      for (let page = 1; page <= 30; page++)
        await index.search({ text: '云计算', sort: 'newest', size, page, maxTotal: 100 + size * 30 + page });
    }
    expect((index as unknown as { statements: Map<string, unknown> }).statements.size).toBeLessThanOrEqual(500);
  });

  it('reads whole texts for the best pages of one page of hits up to its budget, the rest keeping their first match', async () => {
    const pages = [`page ${FILLER}`, `${FILLER.repeat(4)} page of notes. ${FILLER.repeat(4)}`].join('\f');
    const size = Buffer.byteLength(pages);
    index = new SqliteSearchIndex(opened.sqlite, 'document', { bestPageBytes: Math.floor(size * 2.5) });
    await index.upsert([1, 2, 3].map((id) => entry(id, { content: pages, paged: true })));
    // Two texts fit the budget, the third names the page of its first match.
    const named = (await index.search({ text: 'page of', sort: 'newest' })).hits.map((hit) => hit.page).sort();
    expect(named).toEqual([1, 2, 2]);
  });

  it('gets the heads of long texts when the index was made before heads were kept', async () => {
    const long = `${FILLER.repeat(10)}开篇提到的词。${FILLER.repeat(1000)}`;
    await index.upsert([entry(1, { content: long }), entry(2)]);
    opened.sqlite.exec('DROP TABLE search_document_text_head');
    index = new SqliteSearchIndex(opened.sqlite, 'document');
    expect(opened.sqlite.prepare('SELECT id, size FROM search_document_text_head ORDER BY id').all()).toEqual([
      { id: 1, size: Buffer.byteLength(long) },
    ]);
    expect((await index.search({ text: '开篇提到' })).hits[0]!.snippet).toContain('<em>开篇提到</em>');
  });

  it('gets its pages once upserted again into an index made before pages were kept', async () => {
    await index.upsert([entry(1, { content: PAGED, paged: true })]);
    opened.sqlite.exec('ALTER TABLE search_document_text DROP COLUMN page_starts');
    index = new SqliteSearchIndex(opened.sqlite, 'document');
    expect((await index.search({ text: '方法' })).hits[0]).toMatchObject({ id: 1, page: 0 });
    await index.upsert([entry(1, { content: PAGED, paged: true })]);
    expect((await index.search({ text: '方法' })).hits[0]).toMatchObject({ id: 1, page: 4 });
  });

  it("gives an index made before the prefix index one, every entry's tokens again from its stored texts", async () => {
    opened.sqlite.exec('DROP TABLE search_document_fts');
    opened.sqlite.exec(`CREATE VIRTUAL TABLE search_document_fts USING fts5(title, keywords, description, content,
      content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`);
    await index.upsert([entry(1, { content: `${FILLER}麒麟` }), entry(2, { title: '麒麟' })]);
    index = new SqliteSearchIndex(opened.sqlite, 'document');
    const { sql } = opened.sqlite.prepare("SELECT sql FROM sqlite_master WHERE name = 'search_document_fts'").get() as {
      sql: string;
    };
    expect(sql).toContain("prefix='1'");
    expect(await ids('麒')).toEqual([2, 1]);
    expect((await ids('公园')).sort()).toEqual([1, 2]);
  });

  it('fills the tier tables of an index made before they existed, from its stored texts', async () => {
    await index.upsert([
      entry(1, { title: '边缘计算', content: FILLER }),
      entry(2, { description: '边缘计算的介绍', content: FILLER }),
      entry(3, { content: '边缘计算。' }),
    ]);
    for (const table of ['search_document_head_fts', 'search_document_summary_fts'])
      opened.sqlite.exec(`DROP TABLE ${table}`);
    index = new SqliteSearchIndex(opened.sqlite, 'document');
    const matching = (table: string) =>
      opened.sqlite.prepare(`SELECT rowid AS id FROM ${table} WHERE ${table} MATCH '"边缘 缘计 计算"'`).all();
    expect(matching('search_document_head_fts')).toEqual([{ id: 1 }]);
    expect(matching('search_document_summary_fts')).toEqual([{ id: 2 }]);
    expect(await ids('边缘计算')).toEqual([1, 2, 3]);
  });
});
