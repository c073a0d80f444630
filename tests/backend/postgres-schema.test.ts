// One schema, one migration history, both engines: the migrations written for SQLite, run on
// PostgreSQL through backend/db/postgres-ddl.ts, end with the same tables, columns and
// indexes, and the values the stores read come back with the same JavaScript types.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DatabaseStartError, openDatabase, openPostgres, type Database } from '../../backend/db';
import { createDatabase, dropDatabase } from '../helpers/postgres';

const clusterUrl = inject('postgresUrl');

interface Column {
  name: string;
  type: 'integer' | 'text' | 'real';
  notNull: boolean;
  primaryKey: boolean;
  /** Case-insensitive text: COLLATE NOCASE on SQLite, citext on PostgreSQL. */
  noCase: boolean;
}

type Schema = Record<string, { columns: Column[]; indexes: string[] }>;

/** Tables that are not the backend's: the migrator's own, SQLite's, the search engines'. */
const notOurs = (table: string) => /^(kysely_|sqlite_|search_)/.test(table);

async function sqliteSchema(dataDir: string): Promise<Schema> {
  const opened = await openDatabase(dataDir);
  try {
    const { sqlite } = opened;
    const schema: Schema = {};
    const tables = sqlite.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as {
      name: string;
      sql: string;
    }[];
    for (const table of tables.filter((t) => !notOurs(t.name))) {
      const info = sqlite
        .prepare(`SELECT name, type, "notnull", pk FROM pragma_table_info(?) ORDER BY cid`)
        .all(table.name) as { name: string; type: string; notnull: number; pk: number }[];
      const columns = info.map((c): Column => ({
        name: c.name,
        type: ({ INTEGER: 'integer', TEXT: 'text', REAL: 'real' } as const)[c.type as 'INTEGER' | 'TEXT' | 'REAL'],
        // SQLite lets an INTEGER PRIMARY KEY be NULL in its catalogue; it never is.
        notNull: c.notnull === 1 || c.pk === 1,
        primaryKey: c.pk > 0,
        noCase: new RegExp(`\\b${c.name}\\b[^,]*COLLATE NOCASE`, 'i').test(table.sql),
      }));
      const indexes = (
        sqlite
          .prepare(
            `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name`,
          )
          .all(table.name) as { name: string }[]
      ).map((i) => i.name);
      schema[table.name] = { columns, indexes };
    }
    return schema;
  } finally {
    await opened.db.destroy();
  }
}

async function postgresSchema(db: Database): Promise<Schema> {
  const schema: Schema = {};
  const { rows } = await sql<{
    table_name: string;
    column_name: string;
    data_type: string;
    udt_name: string;
    is_nullable: string;
    primary_key: boolean;
  }>`
    SELECT c.table_name, c.column_name, c.data_type, c.udt_name, c.is_nullable,
      EXISTS (SELECT 1 FROM information_schema.table_constraints tc
        JOIN information_schema.key_column_usage k ON k.constraint_name = tc.constraint_name AND k.table_schema = tc.table_schema
        WHERE tc.table_schema = c.table_schema AND tc.table_name = c.table_name AND tc.constraint_type = 'PRIMARY KEY' AND k.column_name = c.column_name) AS primary_key
    FROM information_schema.columns c WHERE c.table_schema = current_schema() ORDER BY c.table_name, c.ordinal_position`.execute(
    db,
  );
  for (const row of rows.filter((r) => !notOurs(r.table_name))) {
    const type =
      row.udt_name === 'int8'
        ? 'integer'
        : row.udt_name === 'float8'
          ? 'real'
          : ['text', 'citext'].includes(row.udt_name)
            ? 'text'
            : row.udt_name;
    (schema[row.table_name] ??= { columns: [], indexes: [] }).columns.push({
      name: row.column_name,
      type: type as Column['type'],
      notNull: row.is_nullable === 'NO',
      primaryKey: row.primary_key,
      noCase: row.udt_name === 'citext',
    });
  }
  // Named indexes only: those of PRIMARY KEY and inline UNIQUE constraints are the engine's.
  const indexes = await sql<{ tablename: string; indexname: string }>`
    SELECT i.tablename, i.indexname FROM pg_indexes i WHERE i.schemaname = current_schema()
      AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conname = i.indexname)
    ORDER BY i.indexname`.execute(db);
  for (const row of indexes.rows) if (schema[row.tablename]) schema[row.tablename]!.indexes.push(row.indexname);
  return schema;
}

describe.skipIf(!clusterUrl)('the schema on PostgreSQL', () => {
  let dataDir: string;
  let databaseUrl: string;
  let db: Database;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-schema-'));
    databaseUrl = await createDatabase(clusterUrl);
    ({ db } = await openPostgres({ url: databaseUrl, label: 'test', poolSize: 2 }));
  });
  afterAll(async () => {
    await db?.destroy();
    if (databaseUrl) await dropDatabase(databaseUrl);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('has the same tables, columns and indexes as on SQLite, after the same migrations', async () => {
    const onSqlite = await sqliteSchema(dataDir);
    const onPostgres = await postgresSchema(db);
    expect(Object.keys(onSqlite).length).toBeGreaterThan(30);
    expect(onSqlite.user!.columns.find((c) => c.name === 'username')).toEqual({
      name: 'username',
      type: 'text',
      notNull: true,
      primaryKey: false,
      noCase: true,
    });
    expect(onSqlite.job!.indexes).toEqual(['job_claim', 'job_dedupe', 'job_lease']);
    // PostgreSQL's alone: the pairs of characters of the documents' text (migration 038), for the admin's 关键字.
    expect(onPostgres.document!.indexes).toContain('document_text_bigrams');
    onPostgres.document!.indexes = onPostgres.document!.indexes.filter((name) => name !== 'document_text_bigrams');
    expect(onPostgres).toEqual(onSqlite);
    const migrations = await db
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .orderBy('name' as never)
      .execute();
    const sqliteMigrations = await (async () => {
      const opened = await openDatabase(dataDir);
      try {
        return opened.sqlite.prepare('SELECT name FROM kysely_migration ORDER BY name').all();
      } finally {
        await opened.db.destroy();
      }
    })();
    expect(migrations).toEqual(sqliteMigrations);
  });

  it('reads ids, counts, sums and averages as numbers, and compares names case-insensitively', async () => {
    const ts = new Date().toISOString();
    const user = { password: '', created_at: ts, updated_at: ts };
    const first = await db
      .insertInto('user')
      .values({ ...user, username: 'Reader' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('user')
      .values({ ...user, username: 'writer', credit_count: 3 })
      .execute();
    expect(typeof first.id).toBe('number');
    const totals = await db
      .selectFrom('user')
      .select((eb) => [
        eb.fn.countAll<number>().as('n'),
        eb.fn.sum<number>('credit_count').as('credits'),
        eb.fn.avg<number>('credit_count').as('average'),
      ])
      .executeTakeFirstOrThrow();
    expect(totals).toEqual({ n: 2, credits: 3, average: 1.5 });
    expect(await db.selectFrom('user').select('id').where('username', '=', 'READER').execute()).toEqual([
      { id: first.id },
    ]);
    await expect(
      db
        .insertInto('user')
        .values({ ...user, username: 'WRITER' })
        .execute(),
    ).rejects.toMatchObject({ code: '23505' });
  });

  it('honours sslmode: require refuses a server without TLS, in one clear error', async () => {
    const started = openPostgres({ url: `${databaseUrl}?sslmode=require`, label: 'the test server', poolSize: 1 });
    await expect(started).rejects.toThrow(DatabaseStartError);
    await expect(started).rejects.toThrow(
      'DATABASE_URL: cannot connect to PostgreSQL (the test server): The server does not support SSL connections',
    );
  });
});
