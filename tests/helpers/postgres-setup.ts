// Vitest global setup of the projects that use PostgreSQL: one cluster for the whole run,
// its URL handed to the test files as `inject('postgresUrl')` ('' when PostgreSQL is missing
// here, or in the quick tier: the files then skip, naming the reason; .ci/run installs it, so
// CI never skips).
import type { TestProject } from 'vitest/node';
import { DEFAULT_ENGINES_ONLY } from './engines';
import { postgresMissing, startPostgresCluster } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (DEFAULT_ENGINES_ONLY) {
    process.stdout.write('postgres: left to npm test (TEST_ENGINES=default: the quick tier)\n');
    project.provide('postgresUrl', '');
    return async () => undefined;
  }
  const missing = postgresMissing();
  if (missing) {
    if (process.env.REQUIRE_POSTGRES) throw new Error(`REQUIRE_POSTGRES is set: ${missing}`);
    process.stdout.write(`postgres: skipped, ${missing}\n`);
    project.provide('postgresUrl', '');
    return async () => undefined;
  }
  const cluster = await startPostgresCluster();
  project.provide('postgresUrl', cluster.url);
  return () => cluster.stop();
}
