// `npm run db:copy -- --to "$DATABASE_URL" [--from DATA_DIR/moredoc.db]`: moves a site's
// tables from SQLite into an empty PostgreSQL database. The target's schema is made by the
// backend's own migrations; then every table of the source is copied in one transaction, in
// the order of the foreign keys, in batches of multi-row INSERTs, and each identity sequence
// is set past the largest id. The source is read in one read transaction (a consistent
// snapshot; the site may keep running, though what it writes meanwhile is not copied) and
// must be at the same migration as this version. A target that already holds a site (a
// user, or the settings a first start writes) is refused. The SQLite search index is not
// copied: it is derived from the tables and rebuilt by the PostgreSQL search engine.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import type pg from 'pg';
import { ConfigError, parseDatabaseUrl } from '../backend/config';
import { DatabaseStartError, openPostgres, type Database } from '../backend/db';
import { postgresPool } from '../backend/db/postgres';
import { commandName, commandOptions } from './command-options';

const MIGRATION_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);
/** Bind parameters of one INSERT at most (PostgreSQL's limit is 65,535). */
const MAX_PARAMETERS = 30_000;
/** Rows of one INSERT at most. */
const MAX_BATCH_ROWS = 1000;

export interface TableProgress {
  table: string;
  /** 1-based position of the table in the copy order, and how many there are. */
  index: number;
  tables: number;
  copied: number;
  rows: number;
  /** True once, when every row of the table is in (its last report). */
  done: boolean;
}

export interface CopyResult {
  tables: { table: string; rows: number }[];
  /** Source tables with no counterpart on PostgreSQL (the SQLite search index). */
  skipped: string[];
}

export class CopyRefusedError extends Error {
  override name = 'CopyRefusedError';
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The tables in an order where each comes after the tables its foreign keys point to. */
async function copyOrder(client: pg.PoolClient, tables: readonly string[]): Promise<string[]> {
  const { rows } = await client.query<{ child: string; parent: string }>(`
    SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k
    JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE k.contype = 'f' AND n.nspname = current_schema()`);
  const parents = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const { child, parent } of rows) if (child !== parent && parents.has(parent)) parents.get(child)?.add(parent);
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const next = tables.filter((t) => !placed.has(t) && [...parents.get(t)!].every((p) => placed.has(p)));
    if (next.length === 0)
      throw new Error(`foreign keys in a cycle among ${tables.filter((t) => !placed.has(t)).join(', ')}`);
    for (const t of next) {
      ordered.push(t);
      placed.add(t);
    }
  }
  return ordered;
}

async function targetColumns(client: pg.PoolClient): Promise<Map<string, string[]>> {
  const { rows } = await client.query<{ table_name: string; column_name: string }>(`
    SELECT table_name, column_name FROM information_schema.columns
    WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`);
  const columns = new Map<string, string[]>();
  for (const row of rows) columns.set(row.table_name, [...(columns.get(row.table_name) ?? []), row.column_name]);
  return columns;
}

/**
 * Refuses a target that holds a site already: the migrations insert no user and no setting, a site's first start does.
 */
async function assertEmpty(db: Database): Promise<void> {
  const { rows } = await sql<{ users: number; settings: number }>`
    SELECT (SELECT count(*) FROM "user") AS users, (SELECT count(*) FROM config) AS settings`.execute(db);
  const { users, settings } = rows[0]!;
  if (Number(users) > 0 || Number(settings) > 0) {
    throw new CopyRefusedError(
      `the target database is not empty (${users} users, ${settings} settings): copy into a new, empty database`,
    );
  }
}

/** Checks that the source ran exactly the migrations this version has. */
function assertSourceMigrations(source: SQLite.Database, expected: readonly string[]): void {
  const ran = (source.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[]).map(
    (r) => r.name,
  );
  const missing = expected.filter((name) => !ran.includes(name));
  const unknown = ran.filter((name) => !expected.includes(name));
  if (missing.length > 0 || unknown.length > 0) {
    throw new CopyRefusedError(
      missing.length > 0
        ? `the SQLite database lacks migrations ${missing.join(', ')}: start the site once with this version, stop it, then copy`
        : `the SQLite database has migrations this version does not know (${unknown.join(', ')}): copy with the version that made it`,
    );
  }
}

export async function copySqliteToPostgres(options: {
  from: string;
  to: string;
  onProgress?: (progress: TableProgress) => void;
}): Promise<CopyResult> {
  const source = new SQLite(options.from, { readonly: true, fileMustExist: true });
  const target = await openPostgres({ url: options.to, label: parseDatabaseUrl(options.to).label, poolSize: 2 });
  const pool = postgresPool({ url: options.to, label: '', poolSize: 1 });
  try {
    await assertEmpty(target.db);
    const migrations = (
      await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(target.db)
    ).rows.map((r) => r.name);
    source.exec('BEGIN');
    assertSourceMigrations(source, migrations);
    const sourceTables = (
      source
        .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
        .all() as { name: string }[]
    )
      .map((r) => r.name)
      .filter((name) => !MIGRATION_TABLES.has(name));
    const client = await pool.connect();
    try {
      const columns = await targetColumns(client);
      const skipped = sourceTables.filter((t) => !columns.has(t));
      const order = await copyOrder(
        client,
        sourceTables.filter((t) => columns.has(t)),
      );
      const result: CopyResult = { tables: [], skipped };
      await client.query('BEGIN');
      try {
        // What the migrations seeded (the change counter) is the source's to say.
        for (const table of [...order].reverse()) await client.query(`DELETE FROM ${quote(table)}`);
        for (const [i, table] of order.entries()) {
          const sourceColumns = (
            source.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]
          ).map((c) => c.name);
          const wanted = columns.get(table)!;
          const extra = sourceColumns.filter((c) => !wanted.includes(c));
          if (extra.length > 0)
            throw new CopyRefusedError(`table ${table}: columns ${extra.join(', ')} have no place on PostgreSQL`);
          const names = wanted.filter((c) => sourceColumns.includes(c));
          const rows = (source.prepare(`SELECT count(*) AS n FROM ${quote(table)}`).get() as { n: number }).n;
          const progress: TableProgress = {
            table,
            index: i + 1,
            tables: order.length,
            copied: 0,
            rows,
            done: false,
          };
          options.onProgress?.(progress);
          const perBatch = Math.max(1, Math.min(MAX_BATCH_ROWS, Math.floor(MAX_PARAMETERS / names.length)));
          const select = source
            .prepare(`SELECT ${names.map(quote).join(', ')} FROM ${quote(table)} ORDER BY rowid`)
            .raw(true);
          let batch: unknown[][] = [];
          const flush = async () => {
            if (batch.length === 0) return;
            const values = batch.map((_, r) => `(${names.map((__, c) => `$${r * names.length + c + 1}`).join(', ')})`);
            await client.query(
              `INSERT INTO ${quote(table)} (${names.map(quote).join(', ')}) VALUES ${values.join(', ')}`,
              batch.flat(),
            );
            progress.copied += batch.length;
            batch = [];
            options.onProgress?.(progress);
          };
          for (const row of select.iterate() as Iterable<unknown[]>) {
            batch.push(row);
            if (batch.length >= perBatch) await flush();
          }
          await flush();
          progress.done = true;
          options.onProgress?.(progress);
          result.tables.push({ table, rows: progress.copied });
        }
        // Identity columns continue after the largest id copied.
        const { rows: identities } = await client.query<{ table_name: string; column_name: string }>(`
          SELECT table_name, column_name FROM information_schema.columns
          WHERE table_schema = current_schema() AND is_identity = 'YES'`);
        for (const { table_name: table, column_name: column } of identities) {
          if (!order.includes(table)) continue;
          await client.query(
            `SELECT setval(pg_get_serial_sequence($1, $2), COALESCE(max(${quote(column)}), 0) + 1, false) FROM ${quote(table)}`,
            [quote(table), column],
          );
        }
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
      return result;
    } finally {
      client.release();
    }
  } finally {
    if (source.inTransaction) source.exec('ROLLBACK');
    source.close();
    await pool.end();
    await target.db.destroy();
  }
}

/**
 * The target's URL is checked and opened as the backend's DATABASE_URL is, whose messages name that
 * variable: here the operator gave --to (and may have a DATABASE_URL of their own, which is not read).
 */
function targetMessage(message: string): string {
  return message.replace(/^DATABASE_URL\b/, '--to');
}

const USAGE = `${commandName('db:copy', import.meta.url, true)} --to "postgres://…" [--from DATA_DIR/moredoc.db]`;

export async function main(env: Record<string, string | undefined>, argv: readonly string[]): Promise<number> {
  let from: string;
  let to: string;
  try {
    const options = commandOptions(argv, { to: { type: 'string' }, from: { type: 'string' } }, USAGE);
    if (!options) return 0;
    const given = options.to;
    if (!given)
      throw new ConfigError(
        '--to must name the PostgreSQL database to copy into, e.g. --to "postgres://moredoc:…@db:5432/moredoc"',
      );
    parseDatabaseUrl(given);
    to = given;
    from = path.resolve(options.from ?? path.join(env.DATA_DIR?.trim() || './data', 'moredoc.db'));
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`db:copy: ${targetMessage(error.message)}\n`);
      return 1;
    }
    throw error;
  }
  const terminal = process.stdout.isTTY === true;
  const started = Date.now();
  try {
    const result = await copySqliteToPostgres({
      from,
      to,
      // A table's line says the rows copied so far out of its total while it copies (on a terminal,
      // rewritten in place), and its rows once they are all in: one line per table in a log.
      onProgress: (p) => {
        const head = `db:copy: table ${p.index}/${p.tables} ${p.table}:`;
        if (p.done) process.stdout.write(`${terminal ? '\r\x1b[2K' : ''}${head} ${p.copied} rows\n`);
        else if (terminal) process.stdout.write(`\r\x1b[2K${head} ${p.copied}/${p.rows} rows copied`);
      },
    });
    const rows = result.tables.reduce((sum, t) => sum + t.rows, 0);
    process.stdout.write(
      `db:copy: done: ${result.tables.length} tables, ${rows} rows in ${((Date.now() - started) / 1000).toFixed(1)} s` +
        `${result.skipped.length > 0 ? `; not copied (the SQLite search index, rebuilt on PostgreSQL): ${result.skipped.join(', ')}` : ''}\n`,
    );
    return 0;
  } catch (error) {
    if (terminal) process.stdout.write('\n');
    if (error instanceof CopyRefusedError || error instanceof DatabaseStartError || error instanceof ConfigError) {
      process.stderr.write(`db:copy: ${targetMessage(error.message)}\n`);
      return 1;
    }
    // better-sqlite3 throws a bare TypeError when the file's folder is missing, SQLITE_CANTOPEN otherwise.
    if ((error as NodeJS.ErrnoException).code === 'SQLITE_CANTOPEN' || !existsSync(from)) {
      process.stderr.write(`db:copy: no SQLite database at ${from} (--from names it; default DATA_DIR/moredoc.db)\n`);
      return 1;
    }
    throw error;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.env, process.argv.slice(2));
}
