import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { postgresPool } from '../../backend/db/postgres';
import { threadModule } from '../../backend/platform/thread-modules';
import { api, login, registerMember, startBackend, type Member, type StartedBackend } from '../helpers/backend';
import { insertDocument, type DocumentFixture } from '../helpers/document-fixtures';
import { createDatabase, dropDatabase } from '../helpers/postgres';

// `npm run db:copy`: a SQLite site with a row in every table is copied into an empty
// PostgreSQL database; every table then holds the same rows there, a backend started on it
// signs the same member in and shows the same document, new rows get new ids, and a second
// copy into the now non-empty database is refused. The copy runs as an esbuild bundle of
// scripts/db-copy.ts (made once, kept in .tmp/thread-modules/ while its sources stay the same;
// the build's dist/server/scripts/db-copy.mjs is made with the same options), not the source
// through tsx's loader: a start 0.2 cpu-s instead of 1.2-1.5. The npm script's own start from
// source is command-options.test.ts's.

const run = promisify(execFile);
const clusterUrl = inject('postgresUrl');
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The copy's main, bundled (beforeAll). */
let copyScript: string;

/** Tables of the SQLite search index and of the migrator: derived or bookkeeping, not copied as such. */
const NOT_COPIED = /^(kysely_migration|kysely_migration_lock|search_.*|.*_fts.*|sqlite_.*)$/;

/** Values for columns whose CHECK a placeholder would break. */
const CHECKED: Record<string, Record<string, unknown>> = {
  job: { state: 'done' },
  payment_notification: { outcome: 'paid' },
};

async function copy(from: string, to: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [copyScript, '--from', from, '--to', to], {
      cwd: repo,
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

interface ColumnInfo {
  name: string;
  type: string;
  notnull: number;
  pk: number;
  dflt_value: string | null;
}

/** Tables of the site, parents before the tables whose foreign keys point at them. */
function tablesInOrder(db: SQLite.Database): string[] {
  const tables = (
    db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[]
  )
    .map((t) => t.name)
    .filter((name) => !NOT_COPIED.test(name) && !isShadowTable(db, name));
  const parents = new Map(
    tables.map((t) => [
      t,
      (db.prepare('SELECT "table" FROM pragma_foreign_key_list(?)').all(t) as { table: string }[])
        .map((f) => f.table)
        .filter((p) => p !== t),
    ]),
  );
  const ordered: string[] = [];
  while (ordered.length < tables.length) {
    for (const t of tables)
      if (!ordered.includes(t) && parents.get(t)!.every((p) => ordered.includes(p))) ordered.push(t);
  }
  return ordered;
}

/** The tables an FTS5 table keeps its index in (`<name>_data`, …), and the FTS5 tables themselves. */
function isShadowTable(db: SQLite.Database, name: string): boolean {
  const virtual = (
    db.prepare(`SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL TABLE%'`).all() as { name: string }[]
  ).map((v) => v.name);
  return virtual.some((v) => name === v || name.startsWith(`${v}_`));
}

/**
 * Gives every table still empty one row: the columns that point at another table get its
 * first row's key, the others a value of their type (distinct text per column).
 */
function fillEmptyTables(db: SQLite.Database): string[] {
  const filled: string[] = [];
  for (const table of tablesInOrder(db)) {
    if ((db.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n > 0) continue;
    const columns = db
      .prepare('SELECT name, type, "notnull", pk, dflt_value FROM pragma_table_info(?)')
      .all(table) as ColumnInfo[];
    const keys = db.prepare('SELECT "from", "table", "to" FROM pragma_foreign_key_list(?)').all(table) as {
      from: string;
      table: string;
      to: string | null;
    }[];
    const values: Record<string, unknown> = {};
    for (const column of columns) {
      const key = keys.find((k) => k.from === column.name);
      if (key) {
        values[column.name] = (
          db.prepare(`SELECT "${key.to ?? 'id'}" AS v FROM "${key.table}" LIMIT 1`).get() as { v: unknown }
        ).v;
      } else if (CHECKED[table]?.[column.name] !== undefined) {
        values[column.name] = CHECKED[table][column.name];
      } else if (column.pk === 1 && column.type === 'INTEGER' && columns.filter((c) => c.pk > 0).length === 1) {
        continue;
      } else if (column.type === 'INTEGER') {
        values[column.name] = 1;
      } else if (column.type === 'REAL') {
        values[column.name] = 1.5;
      } else {
        values[column.name] = column.name.endsWith('_at') ? '2026-01-02T03:04:05.000Z' : `${table}.${column.name} 数据`;
      }
    }
    const names = Object.keys(values);
    db.prepare(
      `INSERT INTO "${table}" (${names.map((n) => `"${n}"`).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
    ).run(...names.map((n) => values[n]));
    filled.push(table);
  }
  return filled;
}

/** Every row of `table` on each engine, in a comparable form (columns in one order, rows sorted). */
function sqliteRows(db: SQLite.Database, table: string, columns: string[]): string[] {
  return (
    db
      .prepare(`SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM "${table}"`)
      .raw(true)
      .all() as unknown[][]
  )
    .map((r) => JSON.stringify(r))
    .sort();
}

describe.skipIf(!clusterUrl)('npm run db:copy', () => {
  let source: StartedBackend;
  let target: StartedBackend | undefined;
  let url: string;
  let member: Member;
  let doc: DocumentFixture;
  let sqliteFile: string;
  let tables: string[];

  beforeAll(async () => {
    copyScript = fileURLToPath(await threadModule(new URL('../../scripts/db-copy.ts', import.meta.url)));
    source = await startBackend({ env: { DATABASE_URL: '' } });
    member = await registerMember(source.url);
    doc = await insertDocument(source.dataDir, { title: '迁移的文档', userId: member.user.id });
    const admin = await login(source.url, 'admin', source.adminPassword);
    expect(
      (
        await api(source.url, 'POST', '/api/v1/comment', {
          token: member.token,
          body: { document_id: doc.id, content: '好文档' },
        })
      ).status,
    ).toBeLessThan(500);
    expect(
      (await api(source.url, 'POST', '/api/v1/favorite', { token: member.token, body: { document_id: doc.id } }))
        .status,
    ).toBeLessThan(500);
    expect(admin).toBeTruthy();
    await source.close({ keepData: true });
    sqliteFile = path.join(source.dataDir, 'moredoc.db');
    const db = new SQLite(sqliteFile);
    try {
      fillEmptyTables(db);
      tables = tablesInOrder(db);
      const empty = tables.filter(
        (t) => (db.prepare(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n === 0,
      );
      expect(empty, 'every table of the site holds a row').toEqual([]);
    } finally {
      db.close();
    }
    url = await createDatabase(clusterUrl);
  }, 120_000);

  afterAll(async () => {
    await target?.close();
    if (url) await dropDatabase(url);
  });

  it('copies every table, row for row, into an empty database, with a line per table saying its rows', async () => {
    const started = Date.now();
    const result = await copy(sqliteFile, url);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^db:copy: done: \d+ tables, \d+ rows in [\d.]+ s/m);
    process.stdout.write(`db:copy of ${tables.length} tables: ${Date.now() - started} ms\n`);

    const db = new SQLite(sqliteFile, { readonly: true });
    const pool = postgresPool({ url, label: '', poolSize: 1 });
    try {
      // A log (no terminal) gets each table once, when its rows are in: never a "0/N" that reads as nothing copied.
      const lines = result.stdout.split('\n').filter((line) => line.startsWith('db:copy: table '));
      expect(lines.filter((line) => /\d+\/\d+ rows/.test(line))).toEqual([]);
      for (const table of tables) {
        const { n } = db.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number };
        expect(
          lines.filter((line) => new RegExp(`^db:copy: table \\d+/\\d+ ${table}: ${n} rows$`).test(line)),
        ).toHaveLength(1);
      }
      for (const table of tables) {
        const columns = (db.prepare('SELECT name FROM pragma_table_info(?)').all(table) as { name: string }[]).map(
          (c) => c.name,
        );
        const { rows } = await pool.query({
          text: `SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM "${table}"`,
          rowMode: 'array',
        });
        expect((rows as unknown[][]).map((r) => JSON.stringify(r)).sort(), table).toEqual(
          sqliteRows(db, table, columns),
        );
      }
    } finally {
      db.close();
      await pool.end();
    }
  }, 180_000);

  it('gives a site on PostgreSQL the same members and documents, and new rows new ids', async () => {
    target = await startBackend({ dataDir: source.dataDir, env: { DATABASE_URL: url } });
    const token = await login(target.url, member.user.username, member.password);
    const me = await api(target.url, 'GET', '/api/v1/user', { token });
    expect(me.body).toMatchObject({ id: member.user.id, username: member.user.username });
    // A token of the SQLite site stays valid: the signing key came along.
    expect((await api(target.url, 'GET', '/api/v1/user', { token: member.token })).status).toBe(200);
    const got = await api(target.url, 'GET', '/api/v1/document', { query: { id: doc.id } });
    expect(got.body).toMatchObject({ id: doc.id, title: '迁移的文档' });
    const another = await registerMember(target.url);
    expect(another.user.id).toBeGreaterThan(member.user.id);
  }, 60_000);

  it('names a SQLite file that is not there in one line, its folder missing too', async () => {
    const missing = path.join(sqliteFile, 'no-such-folder', 'moredoc.db');
    const result = await copy(missing, url);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `db:copy: no SQLite database at ${missing} (--from names it; default DATA_DIR/moredoc.db)\n`,
    );
  }, 120_000);

  it('names --to, not DATABASE_URL, when the target cannot be used', async () => {
    const missing = new URL(url);
    missing.pathname = '/db_copy_no_such_database';
    const absent = await copy(sqliteFile, missing.href);
    expect(absent.code).toBe(1);
    expect(absent.stderr).toMatch(
      /^db:copy: --to: cannot connect to PostgreSQL \(postgres:\/\/[^)]*\/db_copy_no_such_database\): database "db_copy_no_such_database" does not exist\n$/,
    );
    missing.pathname = '/';
    const unnamed = await copy(sqliteFile, missing.href);
    expect(unnamed.code).toBe(1);
    expect(unnamed.stderr).toMatch(/^db:copy: --to names no database, e\.g\. postgres:\/\/\S+, got "[^"]+"\n$/);
  }, 120_000);

  it('refuses a target that holds a site', async () => {
    const again = await copy(sqliteFile, url);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^db:copy: the target database is not empty \(\d+ users, \d+ settings\)/);
  }, 120_000);
});
