// Statements on PostgreSQL are prepared once per connection from their second run (planning
// cost more than running the API's queries: docs/performance.md §8), at most
// PREPARED_PER_CONNECTION per connection, and a connection whose statement went stale is replaced.
import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { connectPostgres, PREPARED_PER_CONNECTION } from '../../backend/db/postgres';
import type { DB } from '../../backend/db/schema';
import { createDatabase, dropDatabase } from '../helpers/postgres';

const clusterUrl = inject('postgresUrl');

/** A database of its own with one table, on a pool of one connection (what it prepared is visible). */
let url: string;
let db: Kysely<DB>;

/** The table of these tests, outside the backend's schema. */
const things = (d: Kysely<DB>) => d.withTables<{ thing: { id: number; name: string } }>();

const prepared = async () =>
  (await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`.execute(db)).rows.map(
    (r) => r.statement,
  );

describe.skipIf(!clusterUrl)('statements on PostgreSQL', () => {
  beforeEach(async () => {
    url = await createDatabase(clusterUrl);
    db = await connectPostgres({ url, label: 'test', poolSize: 1 });
    await sql`CREATE TABLE thing (id BIGINT PRIMARY KEY, name TEXT NOT NULL)`.execute(db);
    await things(db)
      .insertInto('thing')
      .values([
        { id: 1, name: '一' },
        { id: 2, name: '二' },
      ])
      .execute();
  });

  afterEach(async () => {
    await db.destroy();
    await dropDatabase(url);
  });

  it('prepares a statement with parameters at its second run and answers from it after', async () => {
    const byId = (id: number) => things(db).selectFrom('thing').selectAll().where('id', '=', id);
    const text = byId(0).compile().sql;
    expect(await byId(1).execute()).toEqual([{ id: 1, name: '一' }]);
    expect(await prepared()).not.toContain(text);
    expect(await byId(2).execute()).toEqual([{ id: 2, name: '二' }]);
    expect(await byId(1).execute()).toEqual([{ id: 1, name: '一' }]);
    expect((await prepared()).filter((s) => s === text)).toHaveLength(1);
  });

  it(`keeps at most ${PREPARED_PER_CONNECTION} statements prepared on a connection, and runs the others unnamed`, async () => {
    const nth = (n: number) =>
      things(db)
        .selectFrom('thing')
        .select(sql<number>`${n}::int`.as(`n${n}`));
    for (let n = 0; n < PREPARED_PER_CONNECTION + 20; n += 1)
      for (let run = 0; run < 2; run += 1) expect(await nth(n).execute()).toHaveLength(2);
    expect(await prepared()).toHaveLength(PREPARED_PER_CONNECTION);
  });

  it('replaces a connection whose prepared statement no longer fits its table', async () => {
    const first = () => things(db).selectFrom('thing').selectAll().where('id', '=', 1).execute();
    await first();
    await first();
    await sql`ALTER TABLE thing ADD COLUMN extra TEXT NOT NULL DEFAULT 'x'`.execute(db);
    // The statement prepared before the change fails once; the pool opens a fresh connection.
    await expect(first()).rejects.toMatchObject({ code: '0A000' });
    expect(await first()).toEqual([{ id: 1, name: '一', extra: 'x' }]);
    expect(await first()).toEqual([{ id: 1, name: '一', extra: 'x' }]);
  });
});
