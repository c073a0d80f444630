import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql, type LogEvent, type Migration, type SqliteDatabase } from 'kysely';
import type { PostgresOptions } from './postgres';
import { isUnreachableCode } from './socket-errors';
import { DatabaseStartError } from './start-error';
import type { DB } from './schema';
import * as m001 from './migrations/001_initial';
import * as m002 from './migrations/002_content';
import * as m003 from './migrations/003_oauth';
import * as m004 from './migrations/004_jobs';
import * as m006 from './migrations/006_documents';
import * as m007 from './migrations/007_articles';
import * as m008 from './migrations/008_vip';
import * as m009 from './migrations/009_sms';
import * as m010 from './migrations/010_document_access';
import * as m011 from './migrations/011_ads';
import * as m012 from './migrations/012_job_rerun';
import * as m013 from './migrations/013_user_comment_count';
import * as m014 from './migrations/014_download_price';
import * as m015 from './migrations/015_document_text_pages';
import * as m016 from './migrations/016_reader_resume_position';
import * as m017 from './migrations/017_shared_state';
import * as m020 from './migrations/020_hot_documents';
import * as m021 from './migrations/021_initial_password';
import * as m022 from './migrations/022_visible_doc_count';
import * as m023 from './migrations/023_message';
import * as m024 from './migrations/024_listed_category_count';
import * as m025 from './migrations/025_published_article_count';
import * as m026 from './migrations/026_vip_end_cap';
import * as m027 from './migrations/027_unverified_notifications';
import * as m028 from './migrations/028_notification_order_no';
import * as m029 from './migrations/029_job_fair_key';
import * as m030 from './migrations/030_user_sessions_from';
import * as m031 from './migrations/031_dynamic_title_escaped';
import * as m032 from './migrations/032_email_code_attempts';
import * as m033 from './migrations/033_email_code_ip';
import * as m034 from './migrations/034_dynamic_reward_escaped';
import * as m035 from './migrations/035_document_live_order';
import * as m036 from './migrations/036_document_user_order';
import * as m037 from './migrations/037_download_reason';
import * as m038 from './migrations/038_document_text_bigrams';
import * as m039 from './migrations/039_comment_told';
import * as m040 from './migrations/040_message_comment';
import * as m041 from './migrations/041_article_table_summaries';
import * as m042 from './migrations/042_remote_avatars_cleared';
import * as m043 from './migrations/043_oauth_avatar_source';
import * as m044 from './migrations/044_one_pending_order';
import * as m045 from './migrations/045_document_own_copy';
import * as m046 from './migrations/046_view_seen';

// Migrations are imported (not read from disk) so that the bundled server carries them.
// Append new ones here; never edit a migration that has shipped.
const migrations: Record<string, Migration> = {
  '001_initial': m001,
  '002_content': m002,
  '003_oauth': m003,
  '004_jobs': m004,
  '006_documents': m006,
  '007_articles': m007,
  '008_vip': m008,
  '009_sms': m009,
  '010_document_access': m010,
  '011_ads': m011,
  '012_job_rerun': m012,
  '013_user_comment_count': m013,
  '014_download_price': m014,
  '015_document_text_pages': m015,
  '016_reader_resume_position': m016,
  '017_shared_state': m017,
  '020_hot_documents': m020,
  '021_initial_password': m021,
  '022_visible_doc_count': m022,
  '023_message': m023,
  '024_listed_category_count': m024,
  '025_published_article_count': m025,
  '026_vip_end_cap': m026,
  '027_unverified_notifications': m027,
  '028_notification_order_no': m028,
  '029_job_fair_key': m029,
  '030_user_sessions_from': m030,
  '031_dynamic_title_escaped': m031,
  '032_email_code_attempts': m032,
  '033_email_code_ip': m033,
  '034_dynamic_reward_escaped': m034,
  '035_document_live_order': m035,
  '036_document_user_order': m036,
  '037_download_reason': m037,
  '038_document_text_bigrams': m038,
  '039_comment_told': m039,
  '040_message_comment': m040,
  '041_article_table_summaries': m041,
  '042_remote_avatars_cleared': m042,
  '043_oauth_avatar_source': m043,
  '044_one_pending_order': m044,
  '045_document_own_copy': m045,
  '046_view_seen': m046,
};

export type Database = Kysely<DB>;

/** Told the SQL of every query the backend runs, and its parameters (tests count a request's queries, explain them). */
export type QueryListener = (sql: string, parameters: readonly unknown[]) => void;

/** Kysely's `log` option for a listener: every statement, run or failed. */
export function queryLog(onQuery: QueryListener | undefined): { log?: (event: LogEvent) => void } {
  return onQuery ? { log: (event) => onQuery(event.query.sql, event.query.parameters) } : {};
}

export { DatabaseStartError } from './start-error';
export type { PostgresOptions } from './postgres';
export { engineOf, type Engine } from './dialect';

/**
 * An insert or update that broke a UNIQUE constraint: SQLite says so in its message,
 * PostgreSQL with SQLSTATE 23505 (unique_violation).
 */
export function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if ((error as { code?: unknown }).code === '23505') return true;
  return /UNIQUE constraint failed/.test(error.message);
}

/**
 * Text PostgreSQL cannot take (a NUL character): SQLSTATE 22021 (character_not_in_repertoire).
 * SQLite stores and compares such text; on PostgreSQL the request is refused (400).
 */
export function isUnstorableText(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === '22021';
}

/**
 * No room left to write: SQLite's SQLITE_FULL ("database or disk is full"), PostgreSQL's disk_full
 * (53100), or a file write's ENOSPC or EDQUOT (the upload folder, the blob store's files). The
 * request is answered 503, and writes work again once room is made: nothing needs a restart.
 */
export function isStorageFull(error: unknown): boolean {
  if (error instanceof AggregateError) return error.errors.some(isStorageFull);
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_FULL' || code === '53100' || code === 'ENOSPC' || code === 'EDQUOT';
}

/** pg's own words for a connection it lost or could not get in time (no code of their own). */
const LOST_CONNECTION =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection terminated unexpectedly)/;

/**
 * PostgreSQL cannot be reached or is shutting down: SQLSTATE class 08 (connection exception),
 * 57P01–57P03 (admin/crash shutdown, cannot connect now), any error the server sends as FATAL
 * or PANIC (it ends the session: a connection refused at its start because the server has no
 * connection left, 53300, or the database takes none, 55000), a refused or cut socket, pg's
 * "Connection terminated" and its pool's connection timeout. The request is answered 503 and
 * the pool connects again by itself when the server is back.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnavailable);
  if (!(error instanceof Error)) return false;
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  if (
    typeof code === 'string' &&
    (code.startsWith('08') || ['57P01', '57P02', '57P03'].includes(code) || isUnreachableCode(code))
  ) {
    return true;
  }
  if (severity === 'FATAL' || severity === 'PANIC') return true;
  return LOST_CONNECTION.test(error.message);
}

/** SQLite in DATA_DIR, with its connection (the search engine's FTS5 tables live beside the others). */
export interface OpenedDatabase {
  engine: 'sqlite';
  db: Database;
  sqlite: SQLite.Database;
}

/** The database the backend runs on: SQLite, or PostgreSQL (DATABASE_URL). */
export type BackendDatabase = OpenedDatabase | { engine: 'postgres'; db: Database };

/**
 * The database holds password hashes: only the owner may read it. SQLite creates the -wal
 * and -shm files with the database file's mode, so creating that file 0600 covers them; files
 * of an older install are narrowed too.
 */
function keepPrivate(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  for (const name of [file, `${file}-wal`, `${file}-shm`]) {
    if (fs.existsSync(name)) fs.chmodSync(name, 0o600);
  }
}

/** How many prepared statements are kept (the most recently used); the backend has a few hundred queries. */
const STATEMENT_CACHE_SIZE = 1000;

/** What Kysely runs for a ROLLBACK when SQLite already rolled the transaction back. */
const ROLLED_BACK = {
  reader: false,
  all: () => [],
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
  iterate: () => [][Symbol.iterator](),
};

/**
 * The database as Kysely's SQLite driver sees it, with each query's statement prepared once
 * and reused: the driver prepares on every call, and preparing cost more than running the
 * query for the page routes' lookups (docs/performance.md §1.2). Reuse is safe because
 * the driver runs one query at a time and reads every row at once (`all`); the backend never
 * streams rows (`iterate`), which would keep a statement busy.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      // SQLite ends a transaction itself on some errors (SQLITE_FULL, SQLITE_IOERR): Kysely's ROLLBACK after
      // it would fail with "cannot rollback - no transaction is active" and hide the error that ended it.
      if (sql === 'rollback' && !sqlite.inTransaction) return ROLLED_BACK;
      let statement = statements.get(sql);
      if (statement) {
        // Most recently used last, so the first one is the one to drop.
        statements.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value as string);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}

/** Brings the schema up to date: the same migrations, in the same order, on both engines. */
async function migrate(db: Database): Promise<void> {
  // Migrations of separate features touch separate tables, and they land in main in whatever
  // order their work finishes: a database that already ran 009 still takes a later-landed 006.
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    allowUnorderedMigrations: true,
  });
  // A database a newer version migrated (a site taken back to this version without the backup
  // of its upgrade) has migrations this version lacks: say so, rather than Kysely's "corrupted".
  const known = new Set(Object.keys(migrations));
  const executed = await sql<{ name: string }>`SELECT name FROM kysely_migration`
    .execute(db)
    .then((result) => result.rows.map((row) => row.name))
    .catch(() => [] as string[]);
  const unknown = executed.filter((name) => !known.has(name)).sort();
  if (unknown.length > 0) {
    await db.destroy();
    throw new DatabaseStartError(
      `the database was brought up to date by a newer version of the site (migration ${unknown.join(', ')}, which this version does not have); migrations only go forward: run that version again, or restore the backup taken before the upgrade (docs/operations.md, "Upgrading")`,
    );
  }
  const { error } = await migrator.migrateToLatest();
  if (error) {
    await db.destroy();
    throw error instanceof Error ? error : new Error(String(error));
  }
}

/** SQLite: `DATA_DIR/moredoc.db`, created on first use. */
export async function openDatabase(dataDir: string, onQuery?: QueryListener): Promise<OpenedDatabase> {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'moredoc.db');
  keepPrivate(file);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely<DB>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
    ...queryLog(onQuery),
  });
  await migrate(db);
  return { engine: 'sqlite', db, sqlite };
}

/**
 * PostgreSQL (DATABASE_URL): a pool of `poolSize` connections. Throws DatabaseStartError
 * when no connection can be made. Kysely's migrator takes an advisory lock and runs the
 * migrations in one transaction, so two processes starting at once migrate once.
 */
export async function openPostgres(
  options: PostgresOptions,
): Promise<Extract<BackendDatabase, { engine: 'postgres' }>> {
  // pg loads here, not with the backend (postgres.ts).
  const { connectPostgres } = await import('./postgres');
  const db = await connectPostgres(options);
  await migrate(db);
  return { engine: 'postgres', db };
}
