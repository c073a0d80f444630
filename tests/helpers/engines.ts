// Which engines the suites run on. `npm test` runs every engine: SQLite and PostgreSQL, files in
// DATA_DIR and in S3. `npm run test:quick` (scripts/test.ts) sets TEST_ENGINES=default: the suites
// run on the default engines only (SQLite, files in DATA_DIR), and their PostgreSQL and S3 halves,
// which start servers of their own, are left to `npm test`.

/** Only the default engines: no PostgreSQL cluster, no S3 server. */
export const DEFAULT_ENGINES_ONLY = process.env.TEST_ENGINES === 'default';

/** The S3 variants of a suite's cases, or none in the quick tier. */
export function onS3<T>(...cases: T[]): T[] {
  return DEFAULT_ENGINES_ONLY ? [] : cases;
}
