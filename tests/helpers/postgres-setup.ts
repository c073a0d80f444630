// Vitest global setup of the projects that use PostgreSQL: one cluster for the whole run,
// its URL handed to the test files as `inject('postgresUrl')` ('' when PostgreSQL is missing
// here, or in the quick tier: the files then skip, naming the reason; .ci/run installs it, so
// CI never skips). With it, `inject('postgresMigrated')`: a database of that cluster the
// backend's migrations have run on, once for the run, which the backends of the test files
// start from as a copy (test-database.ts) instead of migrating an empty one each (0.3 s). And
// `inject('sqliteMigrated')`: a SQLite file the migrations ran on, copied the same way.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase, openPostgres } from '../../backend/db/index';
import { DEFAULT_ENGINES_ONLY } from './engines';
import { createDatabase, databaseUrl, dropDatabase, postgresMissing, startPostgresCluster } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    /** the name of the migrated database to copy ('' without PostgreSQL) */
    postgresMigrated: string;
    /** a SQLite file the migrations ran on, to copy (test-database.ts openMigratedSqlite) */
    sqliteMigrated: string;
  }
}

/** A SQLite file in a folder of its own that the migrations ran on: its folder. */
async function migratedSqlite(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-migrated-'));
  const opened = await openDatabase(dir);
  // all in the file itself: its write-ahead log is not copied
  opened.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  await opened.db.destroy();
  return dir;
}

/** A database of the cluster with the backend's migrations run: its name. */
async function migratedDatabase(clusterUrl: string): Promise<string> {
  const name = `migrated_${crypto.randomBytes(6).toString('hex')}`;
  const url = await createDatabase(clusterUrl, name);
  const { db } = await openPostgres({ url, label: name, poolSize: 1 });
  await db.destroy();
  return name;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const sqliteDir = await migratedSqlite();
  project.provide('sqliteMigrated', path.join(sqliteDir, 'moredoc.db'));
  const teardown = await setupPostgres(project);
  return async () => {
    fs.rmSync(sqliteDir, { recursive: true, force: true });
    await teardown();
  };
}

async function setupPostgres(project: TestProject): Promise<() => Promise<void>> {
  if (DEFAULT_ENGINES_ONLY) {
    process.stdout.write('postgres: left to npm test (TEST_ENGINES=default: the quick tier)\n');
    project.provide('postgresUrl', '');
    project.provide('postgresMigrated', '');
    return async () => undefined;
  }
  const missing = postgresMissing();
  if (missing) {
    if (process.env.REQUIRE_POSTGRES) throw new Error(`REQUIRE_POSTGRES is set: ${missing}`);
    process.stdout.write(`postgres: skipped, ${missing}\n`);
    project.provide('postgresUrl', '');
    project.provide('postgresMigrated', '');
    return async () => undefined;
  }
  const cluster = await startPostgresCluster();
  try {
    const migrated = await migratedDatabase(cluster.url);
    project.provide('postgresUrl', cluster.url);
    project.provide('postgresMigrated', migrated);
    return async () => {
      // a cluster of TEST_POSTGRES_URL outlives the run: the copy source goes with it
      await dropDatabase(databaseUrl(cluster.url, migrated)).catch(() => undefined);
      await cluster.stop();
    };
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}
