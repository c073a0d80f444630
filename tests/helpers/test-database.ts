// The database engine the backend suites run on. The `server` project runs them on SQLite in
// each backend's DATA_DIR; the `server-postgres` project sets TEST_DATABASE=postgres and runs
// the same files with a fresh PostgreSQL database per backend (on the cluster of
// postgres-setup.ts, a copy of its migrated database), which belongs with its DATA_DIR: a
// restart on the same DATA_DIR finds the same database, and removing the DATA_DIR drops it.
import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import { inject } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../backend/db';
import { postgresPool } from '../../backend/db/postgres';
import type { DB } from '../../backend/db/schema';
import { dropDatabase, freshDatabase } from './postgres';

export type TestEngine = 'sqlite' | 'postgres';

export const TEST_ENGINE: TestEngine = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';

const databases = new Map<string, string>();

/** The PostgreSQL database of this DATA_DIR, or undefined (SQLite, or nothing started on it). */
export function databaseOf(dataDir: string): string | undefined {
  return databases.get(dataDir);
}

/**
 * A new database on this run's cluster, a copy of the one the backend's migrations ran on once
 * (postgres-setup.ts), made ahead (freshDatabase): its URL. Migrating an empty one instead costs
 * about 0.3 s.
 */
export async function migratedDatabase(): Promise<string> {
  const cluster = inject('postgresUrl');
  if (!cluster) throw new Error('this run has no PostgreSQL (tests/helpers/postgres-setup.ts)');
  return freshDatabase(cluster, inject('postgresMigrated') || undefined);
}

/** What a backend on `dataDir` is given besides DATA_DIR: DATABASE_URL on PostgreSQL, its own database. */
export async function databaseEnv(dataDir: string): Promise<Record<string, string>> {
  if (TEST_ENGINE === 'sqlite') return {};
  let url = databases.get(dataDir);
  if (!url) {
    url = await migratedDatabase();
    databases.set(dataDir, url);
  }
  return { DATABASE_URL: url };
}

/** The helpers' own pools (withDatabase), by database URL. */
const helperPools = new Map<string, Kysely<DB>>();

/**
 * The tests' own way into this DATA_DIR's PostgreSQL database (backend.ts's withDatabase), or
 * undefined (SQLite): one pool kept until the database is dropped. A pool per call made a
 * connection per fixture, each a connection's start on the server (about 20 ms of its CPU).
 */
export function helperDatabaseOf(dataDir: string): Kysely<DB> | undefined {
  const url = databases.get(dataDir);
  if (!url) return undefined;
  let db = helperPools.get(url);
  if (!db) {
    db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: postgresPool({ url, label: 'test', poolSize: 4 }) }) });
    helperPools.set(url, db);
  }
  return db;
}

/** Drops the database of this DATA_DIR, if it has one. */
export async function dropDatabaseOf(dataDir: string): Promise<void> {
  const url = databases.get(dataDir);
  if (!url) return;
  databases.delete(dataDir);
  const helper = helperPools.get(url);
  helperPools.delete(url);
  await helper?.destroy();
  await dropDatabase(url);
}

/**
 * openDatabase on `dataDir` with a copy of the SQLite file the migrations ran on once for the run
 * (postgres-setup.ts) as its moredoc.db: the migrations then find nothing to do. 8 ms of CPU a
 * database against 33 for migrating an empty one. Where that setup did not run, an empty one.
 */
export async function openMigratedSqlite(dataDir: string): Promise<OpenedDatabase> {
  const migrated = inject('sqliteMigrated');
  fs.mkdirSync(dataDir, { recursive: true });
  if (migrated) fs.copyFileSync(migrated, path.join(dataDir, 'moredoc.db'));
  return openDatabase(dataDir);
}
