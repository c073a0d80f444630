import { sql } from 'kysely';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { api, login, registerMember, setConfig, startBackend, useBackend, withDatabase } from '../helpers/backend';
import { databaseNow } from '../../backend/db/dialect';
import {
  createDocument,
  uploader,
  waitForSearchable,
  waitForStatus,
  type CreatedDocument,
} from '../helpers/document-api';
import { indexDocuments, insertDocument, type DocumentFixture } from '../helpers/document-fixtures';
import { withClockOff } from '../helpers/clock';
import { linesPdf, textPdf } from '../helpers/documents';
import { recordedConversions } from '../helpers/recorded-conversions';
import type { SearchQuery } from '../../backend/platform/search/search-index';

// DocumentAPI.SearchDocument over the full-text index (platform/search): documents are put in
// the index here as the document module puts them after a conversion, so that every request
// field can be tried on known data; the whole way from an uploaded PDF is in
// document-access.test.ts. The page a hit names is tried on uploaded, converted documents.

/** What each search of the document index asked the engine, and the total it counted. */
const engineSearches: { query: SearchQuery; total: number }[] = [];

const backend = useBackend({
  build: {
    converter: recordedConversions,
    searchIndex: (index) =>
      new Proxy(index, {
        get(target, key) {
          if (key === 'search' && target.collection === 'document')
            return async (query: SearchQuery) => {
              const result = await target.search(query);
              engineSearches.push({ query, total: result.total });
              return result;
            };
          const value: unknown = Reflect.get(target, key);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }),
  },
});

const LIBRARY_TEXT =
  '清晨七点，城市图书馆的大门还没有打开。四楼的古籍修复室里，王老师最近修复的是一部清代刻本，书中有一幅麒麟图。' +
  '阅览区还开设了 Python入门教程 的公益讲座。';

let library: DocumentFixture;
let learning: DocumentFixture;
let disabled: DocumentFixture;
let recycled: DocumentFixture;
let failed: DocumentFixture;
const reports: DocumentFixture[] = [];

const search = (
  query: Record<string, string | number | (string | number)[]>,
  opts: { token?: string; headers?: Record<string, string> } = {},
) => api(backend.url, 'GET', '/api/v1/document/search', { query, ...opts });
const ids = (body: { document?: { id: number }[] }) => (body.document ?? []).map((d) => d.id);

beforeAll(async () => {
  library = await insertDocument(backend.dataDir, { userId: 1, title: '城市图书馆的一天' });
  learning = await insertDocument(backend.dataDir, { userId: 1, title: '机器学习导论', ext: '.docx' });
  disabled = await insertDocument(backend.dataDir, { userId: 1, title: '已禁用的文档', status: 4 });
  recycled = await insertDocument(backend.dataDir, {
    userId: 1,
    title: '回收站里的文档',
    deletedAt: new Date().toISOString(),
  });
  failed = await insertDocument(backend.dataDir, { userId: 1, title: '转换失败的文档', status: 3 });
  for (let i = 0; i < 12; i += 1)
    reports.push(await insertDocument(backend.dataDir, { userId: 1, title: `季度报告第${i + 1}期` }));
  await indexDocuments(backend.dataDir, [
    {
      id: library.id,
      title: library.title,
      content: LIBRARY_TEXT,
      categoryIds: [7],
      language: 'zh-CN',
      createdAt: '2024-03-01T00:00:00.000Z',
      viewCount: 5,
    },
    {
      id: learning.id,
      title: learning.title,
      content: '监督学习与无监督学习是机器学习的两大类方法。',
      ext: '.docx',
      categoryIds: [8],
      language: 'en',
      userId: 2,
      createdAt: '2025-06-01T00:00:00.000Z',
      viewCount: 50,
    },
    // Stale entries, as the index may hold for a moment after a document was disabled or recycled.
    { id: disabled.id, title: disabled.title, content: '这份文档里也有麒麟。' },
    { id: recycled.id, title: recycled.title, content: '回收站的文档同样提到麒麟。' },
    { id: failed.id, title: failed.title, content: '转换失败的文档也写到麒麟。' },
    ...reports.map((r, i) => ({
      id: r.id,
      title: r.title,
      content: `本期报告汇总了第${i + 1}季度的经营数据。`,
      createdAt: new Date(Date.UTC(2023, 0, i + 1)).toISOString(),
    })),
  ]);
});

describe('SearchDocument', () => {
  it('finds a document by a 2-character Chinese word of its body text, with a highlighted snippet', async () => {
    const res = await search({ wd: '麒麟' });
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([library.id]);
    expect(res.body.total).toBe(1);
    expect(res.body.spend).toMatch(/^\d+\.\d{3}$/);
    const [hit] = res.body.document;
    expect(hit.snippet).toContain('<em>麒麟</em>');
    expect(hit.title_highlight).toBe('城市图书馆的一天');
    expect(hit).toMatchObject({
      title: '城市图书馆的一天',
      ext: '.pdf',
      uuid: library.uuid,
      username: 'admin',
      attachment: { hash: library.hash },
      status: 2,
    });
    expect(hit.download_count).toBeUndefined();
    expect(hit.view_count).toBeUndefined();
  });

  it('shows visitors of a site open to members only no snippet nor description of the text (decision 097)', async () => {
    const member = await registerMember(backend.url);
    const description = '清晨七点，城市图书馆的大门还没有打开。';
    await withDatabase(backend.dataDir, (db) =>
      db.updateTable('document').set({ description }).where('id', '=', library.id).execute(),
    );
    await setConfig(backend.url, backend.adminToken, { 'security.login_required': 'true' });
    try {
      const visitor = await search({ wd: '麒麟' });
      expect(ids(visitor.body)).toEqual([library.id]);
      expect(visitor.body.document[0].title).toBe(library.title);
      expect(visitor.body.document[0].snippet ?? '').toBe('');
      expect(visitor.body.document[0].description).toBeUndefined();
      const signedIn = await search({ wd: '麒麟' }, { token: member.token });
      expect(signedIn.body.document[0].snippet).toContain('<em>麒麟</em>');
      expect(signedIn.body.document[0].description).toBe(description);
    } finally {
      await setConfig(backend.url, backend.adminToken, { 'security.login_required': 'false' });
    }
  });

  it('never returns documents strangers may not see, even while the index still holds them', async () => {
    const res = await search({ wd: '麒麟' });
    expect(ids(res.body)).not.toContain(disabled.id);
    expect(ids(res.body)).not.toContain(recycled.id);
    // Nor one whose conversion failed: there is nothing to read (its owner and admins see it in their lists).
    expect(ids(res.body)).not.toContain(failed.id);
  });

  it('matches mixed Chinese and Latin queries, every word required', async () => {
    expect(ids((await search({ wd: 'Python教程' })).body)).toEqual([library.id]);
    expect(ids((await search({ wd: '机器学习 监督' })).body)).toEqual([learning.id]);
    expect((await search({ wd: '机器学习 麒麟' })).body).toEqual({ spend: expect.any(String) });
  });

  it('finds a single character in titles and texts, with the character marked', async () => {
    const inTitle = await search({ wd: '馆' });
    expect(ids(inTitle.body)).toEqual([library.id]);
    expect(inTitle.body.document[0].title_highlight).toBe('城市图书<em>馆</em>的一天');
    const inText = await search({ wd: '麒' });
    expect(inText.status).toBe(200);
    expect(ids(inText.body)).toEqual([library.id]);
    expect(inText.body.total).toBe(1);
    expect(inText.body.document[0].snippet).toContain('一幅<em>麒</em>麟图');
    // Beside a word, a character is required too.
    expect(ids((await search({ wd: '图书馆 麟' })).body)).toEqual([library.id]);
    expect((await search({ wd: '图书馆 鹿' })).body).toEqual({ spend: expect.any(String) });
  });

  it('filters by category, type key, language, uploader and creation dates', async () => {
    expect(ids((await search({ wd: '学习', category_id: 8 })).body)).toEqual([learning.id]);
    expect(ids((await search({ wd: '学习', category_id: 7 })).body)).toEqual([]);
    expect(ids((await search({ wd: '学习', ext: 'doc' })).body)).toEqual([learning.id]);
    expect(ids((await search({ wd: '学习', ext: 'pdf' })).body)).toEqual([]);
    expect(ids((await search({ wd: '学习', ext: 'unknown-key' })).body)).toEqual([learning.id]);
    expect(ids((await search({ wd: '学习', language: 'en' })).body)).toEqual([learning.id]);
    expect(ids((await search({ wd: '学习', user_id: 1 })).body)).toEqual([]);
    expect(ids((await search({ wd: '学习', created_at: ['2025-01-01', '2025-12-31'] })).body)).toEqual([learning.id]);
    expect(ids((await search({ wd: '学习', created_at: ['2026-01-01'] })).body)).toEqual([]);
  });

  it("filters from a date up to the newest document, through a machine behind the database's clock too", async () => {
    const fresh = await insertDocument(backend.dataDir, { userId: 1, title: '天文观测手记' });
    await indexDocuments(backend.dataDir, [
      { id: fresh.id, title: fresh.title, content: '今晚的星空格外清楚。', createdAt: new Date().toISOString() },
    ]);
    const res = await withClockOff(-10 * 60_000, () => search({ wd: '天文观测', created_at: ['2000-01-01'] }));
    expect(ids(res.body)).toEqual([fresh.id]);
  });

  it('sorts by relevance, newest first (latest) or a counter column', async () => {
    const relevance = await search({ wd: '报告' });
    expect(relevance.body.total).toBe(12);
    const latest = await search({ wd: '报告', sort: 'latest' });
    expect(ids(latest.body)[0]).toBe(reports[11]!.id);
    const views = await search({ wd: '的', sort: 'view_count' });
    expect(ids(views.body).indexOf(learning.id)).toBeLessThan(ids(views.body).indexOf(library.id));
  });

  it('sorts by the views that reading moves (浏览最多)', async () => {
    const read = await api(backend.url, 'GET', '/api/v1/document', {
      query: { id: reports[2]!.id, with_author: 'true' },
    });
    expect(read.status).toBe(200);
    expect(ids((await search({ wd: '报告', sort: 'view_count' })).body)[0]).toBe(reports[2]!.id);
  });

  it('counts every one of the reads made at once in the index', async () => {
    const READS = 8;
    const [fewer, read, more] = [
      await insertDocument(backend.dataDir, { userId: 1, title: '候鸟迁徙记录（少）' }),
      await insertDocument(backend.dataDir, { userId: 1, title: '候鸟迁徙记录（读）' }),
      await insertDocument(backend.dataDir, { userId: 1, title: '候鸟迁徙记录（多）' }),
    ];
    // One view either side of READS: `read` sorts between them only when the index holds exactly READS
    // (a tie goes to the newer, so `fewer`, the newest, would pass it at READS - 1).
    const created = (day: number) => new Date(Date.UTC(2024, 4, day)).toISOString();
    await indexDocuments(backend.dataDir, [
      { id: fewer.id, title: fewer.title, content: '候鸟', viewCount: READS - 1, createdAt: created(3) },
      { id: read.id, title: read.title, content: '候鸟', viewCount: 0, createdAt: created(2) },
      { id: more.id, title: more.title, content: '候鸟', viewCount: READS + 1, createdAt: created(1) },
    ]);
    const reads = await Promise.all(
      // Each read from its own address: one address's reads count once a day (decision 119).
      Array.from({ length: READS }, (_, i) =>
        api(backend.url, 'GET', '/api/v1/document', {
          query: { id: read.id, with_author: 'true' },
          headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
        }),
      ),
    );
    expect(reads.map((r) => r.status)).toEqual(Array.from({ length: READS }, () => 200));
    expect(ids((await search({ wd: '候鸟迁徙', sort: 'view_count' })).body)).toEqual([more.id, read.id, fewer.id]);
  });

  it('sorts by the download and favourite counts that downloads and favourites move', async () => {
    const member = await registerMember(backend.url);
    const downloaded = await api(backend.url, 'GET', '/api/v1/document/download', {
      token: member.token,
      query: { id: reports[0]!.id },
    });
    expect(downloaded.status).toBe(200);
    expect(ids((await search({ wd: '报告', sort: 'download_count' })).body)[0]).toBe(reports[0]!.id);
    expect(
      (
        await api(backend.url, 'POST', '/api/v1/favorite', {
          token: member.token,
          body: { document_id: reports[1]!.id },
        })
      ).status,
    ).toBe(200);
    expect(ids((await search({ wd: '报告', sort: 'favorite_count' })).body)[0]).toBe(reports[1]!.id);
  });

  it('pages by 10 and caps the pages at display.max_search_pages', async () => {
    const first = await search({ wd: '报告', sort: 'latest', size: 50 });
    expect(first.body.document).toHaveLength(10);
    const second = await search({ wd: '报告', sort: 'latest', page: 2 });
    expect(ids(second.body)).toEqual([reports[1]!.id, reports[0]!.id]);
    await backend.setConfig({ 'display.max_search_pages': '1' });
    try {
      const capped = await search({ wd: '报告', sort: 'latest', page: 2 });
      expect(capped.body.total).toBe(10);
      expect(ids(capped.body)).toEqual(ids(first.body));
    } finally {
      await backend.setConfig({ 'display.max_search_pages': '100' });
    }
  });

  it('counts the matches no further than the capped total shows, and a page more for the hits it drops', async () => {
    // 28 entries hold the word; the newest 3 are of documents strangers may not see.
    const hidden = [
      await insertDocument(backend.dataDir, { userId: 1, title: '年鉴（禁用）', status: 4 }),
      await insertDocument(backend.dataDir, {
        userId: 1,
        title: '年鉴（回收站）',
        deletedAt: new Date().toISOString(),
      }),
      await insertDocument(backend.dataDir, { userId: 1, title: '年鉴（转换失败）', status: 3 }),
    ];
    const shown: DocumentFixture[] = [];
    for (let i = 0; i < 25; i += 1)
      shown.push(await insertDocument(backend.dataDir, { userId: 1, title: `地方年鉴${i + 1}` }));
    await indexDocuments(backend.dataDir, [
      ...hidden.map((d, i) => ({
        id: d.id,
        title: d.title,
        content: '',
        createdAt: `2022-02-0${i + 1}T00:00:00.000Z`,
      })),
      ...shown.map((d, i) => ({
        id: d.id,
        title: d.title,
        content: '',
        createdAt: new Date(Date.UTC(2021, 0, i + 1)).toISOString(),
      })),
    ]);
    await backend.setConfig({ 'display.max_search_pages': '1' });
    try {
      engineSearches.length = 0;
      const capped = await search({ wd: '年鉴', sort: 'latest' });
      // Ten at most are shown; the page's 3 hidden hits are dropped, and the 25 others still fill the total.
      expect(capped.body.total).toBe(10);
      expect(ids(capped.body)).toEqual(
        shown
          .slice(-7)
          .map((d) => d.id)
          .reverse(),
      );
      expect(engineSearches.map((s) => s.total)).toEqual([20]);
    } finally {
      await backend.setConfig({ 'display.max_search_pages': '100' });
    }
    // Under the cap every match is counted (the hidden ones too, off the page that would show them).
    engineSearches.length = 0;
    expect((await search({ wd: '年鉴', sort: 'latest', page: 2 })).body.total).toBe(28);
    expect(engineSearches.map((s) => s.total)).toEqual([28]);
  });

  it('answers {} to an empty query and records nothing for it', async () => {
    expect((await search({ wd: '  ' })).body).toEqual({});
    expect((await search({})).body).toEqual({});
  });
});

describe('SearchDocument with signs and emoji', () => {
  // Titles and texts that hold a name with its signs, and others that hold only its letters (decision 073).
  const texts = {
    cpp: { title: 'C++ 程序设计入门', content: '本书讲解 C++ 的类、模板与标准库。' },
    c: { title: 'C 语言程序设计', content: '指针、数组与结构体：C 语言的三件事。' },
    csharp: { title: 'C# 与 .NET 开发', content: '用 C# 写一个控制台程序，运行在 .NET 上。' },
    emoji: { title: '手账贴纸合集', content: '每一页都画着一颗 ❤️ 和一个 😀，送给朋友。' },
    aPlusB: { title: '算法题解合集', content: '第一题：输入两个整数，输出 A+B 的值。' },
    aAndB: { title: '对照实验记录', content: '样本分为 A 组与 B 组，分别记录温度。' },
    node: { title: 'Node.js 服务端实战', content: '用 Node.js 写 HTTP 服务，TCP/IP 协议和 Wi-Fi 设置另见附录。' },
    bare: { title: '零散词汇表', content: 'node 是节点，js 是脚本；tcp 与 ip；wi 和 fi；3 和 14。' },
    pi: { title: '圆周率手册', content: '圆周率约等于 3.14，C++教程 里也有例题。《红楼梦》人物表附后。' },
  };
  const docs = {} as Record<keyof typeof texts, DocumentFixture>;
  const names = (body: { document?: { id: number }[] }) =>
    ids(body).map((id) => Object.entries(docs).find(([, doc]) => doc.id === id)?.[0] ?? id);

  beforeAll(async () => {
    for (const [key, { title }] of Object.entries(texts))
      docs[key as keyof typeof texts] = await insertDocument(backend.dataDir, { userId: 1, title });
    await indexDocuments(
      backend.dataDir,
      Object.entries(texts).map(([key, text]) => ({ id: docs[key as keyof typeof texts].id, ...text })),
    );
  });

  it('finds C++ and C# by their signs, not every document that holds the letter C', async () => {
    const cpp = await search({ wd: 'C++' });
    expect(names(cpp.body)).toEqual(['cpp', 'pi']);
    expect(cpp.body.document[0].title_highlight).toBe('<em>C++</em> 程序设计入门');
    expect(cpp.body.document[1].snippet).toContain('3.14，<em>C++</em>教程 里');
    const csharp = await search({ wd: 'C#' });
    expect(names(csharp.body)).toEqual(['csharp']);
    expect(csharp.body.document[0].snippet).toBe('用 <em>C#</em> 写一个控制台程序，运行在 .NET 上。');
    expect(names((await search({ wd: 'C++程序' })).body)).toEqual(['cpp']);
    expect(names((await search({ wd: 'C++教程' })).body)).toEqual(['pi']);
    // The letter alone is still looked for in titles, as a whole word.
    expect(names((await search({ wd: 'C' })).body).sort()).toEqual(['c', 'cpp', 'csharp']);
  });

  it('finds an emoji or a sign searched alone, marked in the snippet', async () => {
    for (const wd of ['❤️', '❤']) {
      const heart = await search({ wd });
      expect(names(heart.body), wd).toEqual(['emoji']);
      expect(heart.body.document[0].snippet).toBe('每一页都画着一颗 <em>❤️</em> 和一个 😀，送给朋友。');
    }
    const smile = await search({ wd: '😀' });
    expect(names(smile.body)).toEqual(['emoji']);
    expect(smile.body.document[0].snippet).toBe('每一页都画着一颗 ❤️ 和一个 <em>😀</em>，送给朋友。');
    expect(names((await search({ wd: '+' })).body).sort()).toEqual(['aPlusB', 'cpp', 'pi']);
    expect(names((await search({ wd: 'A+B' })).body)).toEqual(['aPlusB']);
    expect((await search({ wd: '🐼' })).body).toEqual({ spend: expect.any(String) });
  });

  it('still reads dots, slashes, hyphens and book-title marks as the gaps of a phrase', async () => {
    expect(names((await search({ wd: 'Node.js' })).body)).toEqual(['node']);
    expect(names((await search({ wd: 'TCP/IP' })).body)).toEqual(['node']);
    expect(names((await search({ wd: 'Wi-Fi' })).body)).toEqual(['node']);
    expect(names((await search({ wd: '3.14' })).body)).toEqual(['pi']);
    expect(names((await search({ wd: '.NET' })).body)).toEqual(['csharp']);
    expect(names((await search({ wd: '《红楼梦》' })).body)).toEqual(['pi']);
  });
});

describe('search records', () => {
  const recordsFor = (keywords: string) =>
    withDatabase(backend.dataDir, (db) =>
      db
        .selectFrom('search_record')
        .select(['user_id', 'ip', 'total', 'page', 'user_agent', 'keywords', 'type', 'spend_time'])
        .where('keywords', '=', keywords)
        .execute(),
    );

  it('records who searched what, the hits, the page and the time taken', async () => {
    const member = await registerMember(backend.url);
    const res = await search(
      { wd: '季度报告', page: 2 },
      { token: member.token, headers: { 'user-agent': 'vitest-agent', 'x-forwarded-for': '10.20.30.40' } },
    );
    const [record] = await recordsFor('季度报告');
    expect(record).toMatchObject({
      user_id: member.user.id,
      ip: '10.20.30.40',
      total: res.body.total,
      page: 2,
      user_agent: 'vitest-agent',
      type: 0,
    });
    expect(record!.spend_time).toBeGreaterThanOrEqual(0);

    const listed = await backend.admin('GET', '/api/v1/searchrecord/list', { query: { keywords: '季度报告' } });
    expect(listed.body.search_record[0]).toMatchObject({
      keywords: '季度报告',
      username: member.username,
      total: 12,
      page: 2,
    });
  });

  it("stamps a record with the database's now, which the retention's cut-off counts from", async () => {
    const databaseMs = async () => (await withDatabase(backend.dataDir, (db) => databaseNow(db))).getTime();
    const before = await databaseMs();
    // This process's Date (the backend answers in it) 10 minutes ahead: a record stamped by it
    // would be purged 10 minutes late, or, written behind, early.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 10 * 60_000);
    try {
      expect((await search({ wd: '年度计划' })).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
    const after = await databaseMs();
    const [record] = await withDatabase(backend.dataDir, (db) =>
      db.selectFrom('search_record').select(['created_at', 'updated_at']).where('keywords', '=', '年度计划').execute(),
    );
    expect(Date.parse(record!.created_at)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(record!.created_at)).toBeLessThanOrEqual(after);
    expect(record!.updated_at).toBe(record!.created_at);
  });

  it('records SEARCH_RECORD_LIMIT searches of an address a minute, and answers the ones past them unrecorded', async () => {
    const LIMIT = 5;
    const limited = await startBackend({ env: { SEARCH_RECORD_LIMIT: String(LIMIT) } });
    try {
      const from = (path: string, address: string, page = 1) =>
        api(limited.url, 'GET', path, { query: { wd: '季度报告', page }, headers: { 'x-forwarded-for': address } });
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT + 5; i++)
        statuses.push((await from('/api/v1/document/search', '203.0.113.77', (i % 3) + 1)).status);
      expect(statuses).toEqual(Array(LIMIT + 5).fill(200));
      // An article search from there is not recorded either; another address is.
      expect((await from('/api/v1/article/search', '203.0.113.77')).status).toBe(200);
      expect((await from('/api/v1/document/search', '203.0.113.78')).status).toBe(200);
      const recorded = await withDatabase(limited.dataDir, (db) =>
        db.selectFrom('search_record').select(['ip', 'type']).where('keywords', '=', '季度报告').execute(),
      );
      expect(recorded.filter((r) => r.ip === '203.0.113.77')).toEqual(
        Array(LIMIT).fill({ ip: '203.0.113.77', type: 0 }),
      );
      expect(recorded.filter((r) => r.ip === '203.0.113.78')).toEqual([{ ip: '203.0.113.78', type: 0 }]);
    } finally {
      await limited.close();
    }
  });

  it('records nothing while the retention is 0', async () => {
    await backend.setConfig({ 'security.search_record_retention_days': '0' });
    try {
      await search({ wd: '图书馆' });
      expect(await recordsFor('图书馆')).toEqual([]);
    } finally {
      await backend.setConfig({ 'security.search_record_retention_days': '7' });
    }
  });
});

describe('the page a hit names', () => {
  /** A plain text MuPDF lays out on several pages: a word and a character of another alone on the first, both words on a later one. */
  const notes = Array.from({ length: 360 }, (_, i) =>
    i === 0
      ? '第1行：星图的一角画着一只鸾鸟。'
      : i === 320
        ? `第${i + 1}行：星图的背面写着青鸾二字。`
        : `第${i + 1}行：海边的灯塔在夜里亮着，渔船慢慢靠岸。`,
  );
  let pages: CreatedDocument;
  let zh: CreatedDocument;
  let zhPages: string[];

  beforeAll(async () => {
    // Every page free: the page a hit names may be any (the free preview's own rule is tried below).
    await setConfig(backend.url, backend.adminToken, { 'converter.max_preview': '0' });
    const author = await uploader(backend.url, backend.adminToken);
    pages = await createDocument(backend.url, author.token, textPdf(40), 'forty.pdf', { title: 'Forty pages' });
    zh = await createDocument(backend.url, author.token, Buffer.from(notes.join('\n')), '星图笔记.txt', {
      title: '笔记',
    });
    for (const doc of [pages, zh]) await waitForStatus(backend.url, author.token, doc.id, [2], 120_000);
    await waitForSearchable(backend.url, 'quick brown', pages.id);
    await waitForSearchable(backend.url, '渔船', zh.id);
    const read = await api(backend.url, 'GET', '/api/v1/document', {
      token: author.token,
      query: { id: zh.id, with_all_content: true },
    });
    zhPages = (read.body.content as string).split('\f');
  }, 180_000);

  const hitOf = async (wd: string, id: number) =>
    (await search({ wd })).body.document.find((doc: { id: number }) => doc.id === id);

  it('is the page holding the most words of the query, not the first one holding any', async () => {
    // Every page says "Page n of 40" and "Line three of page n": only page 35 holds "35".
    const hit = await hitOf('Line three of page 35', pages.id);
    expect(hit.snippet_page).toBe(35);
    expect(hit.snippet).toContain('<em>Line</em> <em>three</em> <em>of</em> <em>page</em> <em>35</em>.');
  });

  it('is the page holding every Chinese word, not one holding a character of one alone', async () => {
    const both = zhPages.findIndex((page) => page.includes('青鸾')) + 1;
    expect(both).toBeGreaterThan(1);
    expect(zhPages[0]).toContain('星图');
    expect(zhPages[0]).toContain('鸾');
    const hit = await hitOf('星图 青鸾', zh.id);
    expect(hit.snippet_page).toBe(both);
    expect(hit.snippet).toContain('<em>青鸾</em>');
  });

  it('is the earliest page among those holding as many words, the words typed together first', async () => {
    // Every page holds "three of" as typed: the first. Every page holds "page" and "40" ("Page n of 40"), page 40 alone "page 40".
    expect((await hitOf('three of', pages.id)).snippet_page).toBe(1);
    expect((await hitOf('page 40', pages.id)).snippet_page).toBe(40);
  });
});

describe('a hit of a document with paid pages (a free preview of 3 of 10)', () => {
  // Words only the paid pages hold, none of them on a free page: the walk that searched for the end of a snippet to read
  // 50 characters further would read them.
  const PAID_WORDS = ['Xylophonequartz', 'quivers', 'beyond', 'marshes'];
  const ledger = Array.from({ length: 10 }, (_, i) => {
    const n = i + 1;
    if (n === 1) return ['Harbour ledger', 'Cover page'];
    if (n === 2) return ['The lamp oil stock is counted here.'];
    if (n === 7) return ['The lamp room keeps the tide tables.'];
    if (n === 9) return ['Xylophonequartz quivers beyond the marshes.'];
    return [`Chapter ${n}`];
  });
  let doc: CreatedDocument;
  const plain = (html: string) => html.replace(/<\/?em>/g, '');
  const hitOf = async (wd: string) =>
    (await search({ wd })).body.document?.find((hit: { id: number }) => hit.id === doc.id);

  beforeAll(async () => {
    await setConfig(backend.url, backend.adminToken, { 'converter.max_preview': '3' });
    const author = await uploader(backend.url, backend.adminToken);
    doc = await createDocument(backend.url, author.token, linesPdf(ledger), 'ledger.pdf', {
      title: 'Harbour ledger',
      price: 5,
    });
    await waitForStatus(backend.url, author.token, doc.id, [2], 120_000);
    await waitForSearchable(backend.url, 'lamp oil', doc.id);
  }, 180_000);

  it('finds it by a word of a paid page, with none of that text and the page that holds it', async () => {
    const hit = await hitOf('Xylophonequartz');
    expect(hit).toBeDefined();
    expect(hit.match_page).toBe(9);
    // The word to find there, as the query holds it: none of the page's text.
    expect(hit.match_words).toEqual(['xylophonequartz']);
    expect(hit.snippet_page).toBeUndefined();
    // The description, made from the free pages.
    expect(plain(hit.snippet)).toMatch(/^Harbour ledger/u);
    for (const word of PAID_WORDS) expect(plain(hit.snippet)).not.toContain(word);
  });

  it('names the words of a paid page to no visitor of a site open to members only (decision 097)', async () => {
    const member = await registerMember(backend.url);
    await setConfig(backend.url, backend.adminToken, { 'security.login_required': 'true' });
    try {
      const visitor = (await search({ wd: 'Xylophonequartz' })).body.document?.find(
        (hit: { id: number }) => hit.id === doc.id,
      );
      expect(visitor).toMatchObject({ match_page: 9 });
      expect(visitor.match_words).toBeUndefined();
      const signedIn = (await search({ wd: 'Xylophonequartz' }, { token: member.token })).body.document?.find(
        (hit: { id: number }) => hit.id === doc.id,
      );
      expect(signedIn.match_words).toEqual(['xylophonequartz']);
    } finally {
      await setConfig(backend.url, backend.adminToken, { 'security.login_required': 'false' });
    }
  });

  it('gives no text of a paid page to a search for the words around a match there', async () => {
    for (const wd of ['quivers beyond', 'beyond marshes', 'marshes']) {
      const hit = await hitOf(wd);
      expect(hit, wd).toMatchObject({ match_page: 9, match_words: wd.split(' ') });
      for (const word of PAID_WORDS) expect(plain(hit.snippet), wd).not.toContain(word);
    }
  });

  it('cuts the snippet from the free page that matches best, though a paid page holds every word', async () => {
    const hit = await hitOf('lamp room');
    expect(hit.snippet_page).toBe(2);
    expect(hit.snippet).toContain('The <em>lamp</em> oil stock');
    expect(plain(hit.snippet)).not.toContain('tide');
    expect(hit.match_page).toBeUndefined();
  });
});

describe('an index made before it kept how much of a text snippets may show', () => {
  it('is filled again from the documents at the next start: its snippets show their text again', async () => {
    const first = await startBackend({ build: { converter: recordedConversions } });
    const { dataDir } = first;
    let running: Awaited<ReturnType<typeof startBackend>> | undefined = first;
    try {
      const admin = await login(first.url, 'admin', first.adminPassword);
      const logbook = await insertDocument(dataDir, { userId: 1, title: '灯塔日志' });
      await withDatabase(dataDir, async (db) => {
        const ts = new Date().toISOString();
        await db
          .insertInto('document_content')
          .values({ document_id: logbook.id, content: '守塔人记下了今夜的潮汐。', created_at: ts, updated_at: ts })
          .execute();
      });
      await api(first.url, 'POST', '/api/v1/category', { token: admin, body: { title: '日志' } });
      const category = (await api(first.url, 'GET', '/api/v1/category/list', { query: { wd: '日志' } })).body
        .category[0].id;
      // Filed: the document module puts it into the index (every page free: all of its text may be shown).
      const filed = await api(first.url, 'PUT', '/api/v1/document/category', {
        token: admin,
        body: { document_id: [logbook.id], category_id: [category] },
      });
      expect(filed.status, filed.text).toBe(200);
      const snippet = async (url: string) =>
        (await api(url, 'GET', '/api/v1/document/search', { query: { wd: '潮汐' } })).body.document?.[0]?.snippet;
      expect(await snippet(first.url)).toBe('守塔人记下了今夜的<em>潮汐</em>。');
      running = undefined;
      await first.close({ keepData: true });
      await withDatabase(dataDir, (db) => sql`ALTER TABLE search_document_text DROP COLUMN shown_bytes`.execute(db));

      running = await startBackend({ dataDir, build: { converter: recordedConversions } });
      const restarted = running.url;
      await vi.waitFor(async () => expect(await snippet(restarted)).toBe('守塔人记下了今夜的<em>潮汐</em>。'), {
        timeout: 60_000,
        interval: 200,
      });
      // Refilled in place: the index was not emptied first, so searches found its entries all along.
      const jobs = await withDatabase(dataDir, (db) =>
        db.selectFrom('job').select('payload').where('kind', '=', 'document.reindex').execute(),
      );
      expect(jobs.map((job) => JSON.parse(job.payload))).toEqual([{ refill: true }]);
    } finally {
      await running?.close();
    }
  }, 120_000);
});
