import { AsyncLocalStorage } from 'node:async_hooks';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, registerMember, useBackend, withDatabase } from '../../helpers/backend';
import { insertDocument } from '../../helpers/document-fixtures';
import { TEST_ENGINE } from '../../helpers/test-database';

// How the engine under test reads the pages of the document lists: a page asked for in the
// order of an index is read up to its end, one that is not sorts every matching row first, on
// each request (20,000 documents: 0.13–0.27 s a page of the admin's list on SQLite). The
// queries are the backend's own (`onQuery`), explained on a second connection; their
// parameters (limit, offset) are numbers, given as 20.

const calls = new AsyncLocalStorage<string[]>();
const backend = useBackend({ build: { onQuery: (statement) => calls.getStore()?.push(statement) } });

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
    const plan = await sql.raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${statement.replace(/\?/g, '20')}`).execute(db);
    return plan.rows.map((row) => row.detail).join('\n');
  });
}

const SORTS = TEST_ENGINE === 'postgres' ? /\bSort\b/ : /TEMP B-TREE FOR ORDER BY/;

beforeAll(async () => {
  const author = await registerMember(backend.url);
  for (let i = 0; i < 3; i += 1)
    await insertDocument(backend.dataDir, { userId: author.user.id, title: `排序文档${i}` });
  await insertDocument(backend.dataDir, { userId: author.user.id, title: '待审文档', status: 0 });
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
});
