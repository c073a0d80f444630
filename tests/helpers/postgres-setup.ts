// Vitest global setup of the projects that use PostgreSQL: one cluster for the whole run,
// its URL handed to the test files as `inject('postgresUrl')` ('' when PostgreSQL is missing
// here, or in the quick tier: the files then skip, naming the reason; .ci/run installs it, so
// CI never skips). With it, `inject('postgresMigrated')`: a database of that cluster the
// backend's migrations have run on, once for the run, which the backends of the test files
// start from as a copy (test-database.ts) instead of migrating an empty one each (0.3 s).
import crypto from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { openPostgres } from '../../backend/db/index';
import { DEFAULT_ENGINES_ONLY } from './engines';
import { createDatabase, databaseUrl, dropDatabase, postgresMissing, startPostgresCluster } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    /** the name of the migrated database to copy ('' without PostgreSQL) */
    postgresMigrated: string;
  }
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
