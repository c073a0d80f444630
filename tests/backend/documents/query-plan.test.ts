import crypto from 'node:crypto';
import { AsyncLocalStorage } from 'node:async_hooks';
import { CompiledQuery, sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, registerMember, useBackend, withDatabase, type Member } from '../../helpers/backend';
import { insertDocument } from '../../helpers/document-fixtures';
import { TEST_ENGINE } from '../../helpers/test-database';

// How the engine under test reads the pages of the document lists: a page asked for in the
// order of an index is read up to its end, one that is not sorts every matching row first, on
// each request (20,000 documents: 0.13–0.27 s a page of the admin's list on SQLite). The
// queries are the backend's own (`onQuery`), explained on a second connection; their
// parameters (limit, offset) are numbers, given as 20. The names beside a page's rows (uploader, deleter) are looked up
// once the page is read, for its own rows: PostgreSQL ran them for every row an OFFSET passed over too (the admin's
// page 2,000: 40,000 lookups, 0.6 s).

const calls = new AsyncLocalStorage<string[]>();
/** The statements of the calls made inside `withParameters`, with their parameters. */
const statements = new AsyncLocalStorage<{ sql: string; parameters: readonly unknown[] }[]>();
const backend = useBackend({
  build: {
    onQuery: (statement, parameters) => {
      calls.getStore()?.push(statement);
      statements.getStore()?.push({ sql: statement, parameters });
    },
  },
});

/** The SQL of the query that reads the page of documents, as the backend ran it for this call. */
async function pageQueryOf(
  call: () => Promise<{ status: number; text: string; body: { total?: number } }>,
): Promise<string> {
  const queries: string[] = [];
  const res = await calls.run(queries, call);
  expect(res.status, res.text).toBe(200);
  expect(res.body.total).toBeGreaterThan(0);
  const page = queries.filter((q) => /^select\b.*\bfrom "document"/i.test(q) && /\border by\b/i.test(q));
  expect(page, queries.join('\n')).toHaveLength(1);
  return page[0]!;
}

/** The engine's plan for `statement`, one line a step. */
async function planOf(statement: string): Promise<string> {
  return withDatabase(backend.dataDir, async (db) => {
    if (TEST_ENGINE === 'postgres') {
      // A sort priced out, as on a table of thousands of rows: the plan keeps one only when no index gives the order.
      return db.connection().execute(async (conn) => {
        await sql`ANALYZE document`.execute(conn);
        await sql`SET enable_sort = off`.execute(conn);
        try {
          const plan = await sql
            .raw<{ 'QUERY PLAN': string }>(`EXPLAIN ${statement.replace(/\$\d+/g, '20')}`)
            .execute(conn);
          return plan.rows.map((row) => row['QUERY PLAN']).join('\n');
        } finally {
          await sql`RESET enable_sort`.execute(conn);
        }
      });
    }
    const plan = await sql
      .raw<{ id: number; parent: number; detail: string }>(`EXPLAIN QUERY PLAN ${statement.replace(/\?/g, '20')}`)
      .execute(db);
    // The page is read in a co-routine; the query around it sorts the page's own rows (at most `size`) again.
    const page = plan.rows.find((row) => row.detail.startsWith('CO-ROUTINE'));
    const under = (row: { parent: number }): boolean =>
      row.parent === page?.id || plan.rows.some((p) => p.id === row.parent && under(p));
    return plan.rows
      .filter((row) => !page || under(row))
      .map((row) => row.detail)
      .join('\n');
  });
}

/** How many times PostgreSQL ran each subquery of `statement` (its parameters all `value`), by its plan's name. */
async function subqueryRuns(statement: string, value: number): Promise<Record<string, number>> {
  interface PlanNode {
    'Subplan Name'?: string;
    'Actual Loops': number;
    Plans?: PlanNode[];
  }
  const runs: Record<string, number> = {};
  const visit = (node: PlanNode) => {
    if (node['Subplan Name']) runs[node['Subplan Name']] = (runs[node['Subplan Name']] ?? 0) + node['Actual Loops'];
    for (const child of node.Plans ?? []) visit(child);
  };
  await withDatabase(backend.dataDir, async (db) => {
    const explained = await sql
      .raw<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${statement.replace(/\$\d+/g, String(value))}`,
      )
      .execute(db);
    visit(explained.rows[0]!['QUERY PLAN'][0].Plan);
  });
  return runs;
}

/**
 * PostgreSQL's plan for a statement as the backend ran it, with its parameters, where an index can serve at all: on
 * a table of 1,000 rows a scan is cheaper.
 */
async function indexedPlanOf(statement: { sql: string; parameters: readonly unknown[] }): Promise<string> {
  return withDatabase(backend.dataDir, (db) =>
    db.connection().execute(async (conn) => {
      await sql`SET enable_seqscan = off`.execute(conn);
      try {
        const explained = await conn.executeQuery<{ 'QUERY PLAN': string }>(
          CompiledQuery.raw(`EXPLAIN ${statement.sql}`, [...statement.parameters]),
        );
        return explained.rows.map((row) => row['QUERY PLAN']).join('\n');
      } finally {
        await sql`RESET enable_seqscan`.execute(conn);
      }
    }),
  );
}

const SORTS = TEST_ENGINE === 'postgres' ? /\bSort\b/ : /TEMP B-TREE FOR ORDER BY/;

let author: Member;

beforeAll(async () => {
  author = await registerMember(backend.url);
  for (let i = 0; i < 3; i += 1)
    await insertDocument(backend.dataDir, { userId: author.user.id, title: `排序文档${i}` });
  await insertDocument(backend.dataDir, { userId: author.user.id, title: '待审文档', status: 0 });
  // Newer documents of another uploader, many more than the author's: the table as a planner weighs a site's.
  const other = await registerMember(backend.url);
  await withDatabase(backend.dataDir, async (db) => {
    const ts = new Date().toISOString();
    await db
      .insertInto('document')
      .values(
        Array.from({ length: 1000 }, (_, i) => ({
          title: i === 0 ? 'Kafka 手册' : `他人文档${i}`,
          user_id: other.user.id,
          uuid: crypto.randomBytes(8).toString('hex'),
          ext: '.pdf',
          status: 2,
          pages: 1,
          hash: crypto.createHash('md5').update(`他人文档${i}`).digest('hex'),
          created_at: ts,
          updated_at: ts,
        })),
      )
      .execute();
  });
});

describe('the document lists read their pages in index order', () => {
  it("the admin's list of every status, newest first", async () => {
    const statement = await pageQueryOf(() =>
      backend.admin('GET', '/api/v1/document/list', { query: { page: 2, size: 2 } }),
    );
    const plan = await planOf(statement);
    expect(plan).not.toMatch(SORTS);
  });

  it("a visitor's list of the library, newest first", async () => {
    const statement = await pageQueryOf(() =>
      api(backend.url, 'GET', '/api/v1/document/list', { query: { page: 2, size: 2 } }),
    );
    expect(await planOf(statement)).not.toMatch(SORTS);
  });

  it("a member's own documents, newest first, found by their uploader", async () => {
    const statement = await pageQueryOf(() =>
      api(backend.url, 'GET', '/api/v1/document/list', {
        token: author.token,
        query: { user_id: author.user.id, page: 2, size: 2, order: 'id desc' },
      }),
    );
    const plan = await planOf(statement);
    expect(plan).not.toMatch(SORTS);
    // Not the whole table walked by id, each row's uploader compared.
    expect(plan).toMatch(TEST_ENGINE === 'postgres' ? /Index Cond: \(\(?user_id = / : /USING INDEX \S+ \(user_id=/);
  });

  it.runIf(TEST_ENGINE === 'postgres')(
    "the admin's keyword filter compares a Chinese word as SQLite does, without lowercasing every row's text",
    async () => {
      const chinese = await pageQueryOf(() =>
        backend.admin('GET', '/api/v1/document/list', { query: { page: 1, size: 10, wd: '排序' } }),
      );
      expect(chinese).toMatch(/"title" LIKE /);
      expect(chinese).not.toMatch(/ILIKE/);
      const found = await backend.admin('GET', '/api/v1/document/list', { query: { page: 1, size: 10, wd: '排序' } });
      expect(found.body.total).toBe(3);
      // A Latin letter folds its case, as SQLite's LIKE does.
      const latin = await pageQueryOf(() =>
        backend.admin('GET', '/api/v1/document/list', { query: { page: 1, size: 10, wd: 'kafka' } }),
      );
      expect(latin).toMatch(/"title" ILIKE /);
    },
  );

  it.runIf(TEST_ENGINE === 'postgres')(
    "the admin's keyword filter of a Chinese word reads the rows holding its pairs of characters, not every row",
    async () => {
      const queries: { sql: string; parameters: readonly unknown[] }[] = [];
      const res = await statements.run(queries, () =>
        backend.admin('GET', '/api/v1/document/list', { query: { page: 1, size: 10, wd: '文档99' } }),
      );
      expect(res.status, res.text).toBe(200);
      // 他人文档99, 他人文档990 … 999.
      expect(res.body.total).toBe(11);
      const count = queries.find((q) => /^select count\(\*\).* from "document"/i.test(q.sql));
      expect(count, queries.map((q) => q.sql).join('\n')).toBeDefined();
      expect(await indexedPlanOf(count!)).toMatch(/Bitmap Index Scan on document_text_bigrams/);
    },
  );

  it.runIf(TEST_ENGINE === 'postgres')(
    "a document's related documents, found by its keywords, read the rows holding their pairs of characters",
    async () => {
      const doc = await insertDocument(backend.dataDir, { userId: author.user.id, title: '相关文档' });
      await withDatabase(backend.dataDir, (db) =>
        db.updateTable('document').set({ keywords: '排序,手册' }).where('id', '=', doc.id).execute(),
      );
      const queries: { sql: string; parameters: readonly unknown[] }[] = [];
      const res = await statements.run(queries, () =>
        api(backend.url, 'GET', '/api/v1/document/related', { query: { id: doc.id } }),
      );
      expect(res.status, res.text).toBe(200);
      const titles: string[] = res.body.document.map((d: { title: string }) => d.title);
      // Those holding a keyword first (the fallbacks, by category and 热门文档, come after them).
      expect(titles.slice(0, 4).sort()).toEqual(['Kafka 手册', '排序文档0', '排序文档1', '排序文档2']);
      const matching = queries.find((q) => /from "document"/i.test(q.sql) && /"keywords" LIKE/.test(q.sql));
      expect(matching, queries.map((q) => q.sql).join('\n')).toBeDefined();
      expect(await indexedPlanOf(matching!)).toMatch(/Bitmap Index Scan on document_text_bigrams/);
    },
  );

  it.runIf(TEST_ENGINE === 'postgres')(
    "the admin's page past an offset looks up its rows' names only, not those of the rows it passes over",
    async () => {
      const statement = await pageQueryOf(() =>
        backend.admin('GET', '/api/v1/document/list', { query: { page: 2, size: 2 } }),
      );
      // Limit 2, offset 2: the third and fourth of the four documents.
      const runs = await subqueryRuns(statement, 2);
      expect(Object.keys(runs).length, JSON.stringify(runs)).toBeGreaterThan(0);
      for (const [name, count] of Object.entries(runs)) expect(count, name).toBeLessThanOrEqual(2);
    },
  );
});
