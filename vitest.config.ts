import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { postgresMissing } from './tests/helpers/postgres';

// The backend's suites that write, run a second time on PostgreSQL (TEST_DATABASE=postgres:
// tests/helpers/test-database.ts gives each backend a fresh database). Left out: suites of
// pure code, of the conversion engine, of SQLite's own files (operations.test.ts: the file
// modes of moredoc.db; restart.test.ts: reads moredoc.db; migrations and sms-migration), of
// the processes (server-process), and the engine-specific ones (postgres-*.test.ts run in
// `server` for both engines).
const POSTGRES_SUITES = [
  'advertisement',
  'article',
  'attachment-admin',
  'comment',
  'config-api',
  'document-access',
  'document-search',
  'download',
  'favorite',
  'group-permission',
  'job-queue',
  'navigation-category',
  'oauth',
  'payment',
  'permission-matrix',
  'report-feedback',
  'robustness',
  'search-record',
  'seed',
  'site-extras',
  'sitemap',
  'sms-providers',
  'sms',
  'uploads',
  'user-account',
  'session-end',
  'user-admin',
  'user-member',
  'vip-order',
  'wire',
  'documents/document-api',
  'documents/concurrent-writes',
  'documents/pages',
  'documents/query-count',
  'documents/query-plan',
  'documents/restart',
  'documents/upload',
  'names',
  'client-address',
  // the rows of a client's IPv6 prefix found by their text on each engine
  'ipv6-clients',
  'view-count',
  'library',
  'shared-state',
]
  .map((name) => `tests/backend/${name}.test.ts`)
  .concat([
    // the gateway's two ways to the backend, in process and over HTTP, compared
    'tests/gateway/in-process.test.ts',
  ]);

// Six projects: pure shared code, the Node servers through their APIs (and their suites again
// on PostgreSQL, where the server binaries are installed), what needs real conversions, child
// processes or the production build (`slow`), the SPA's components (happy-dom) and the
// real-browser end-to-end tests (system Chromium).

/**
 * Files of tests/{backend,gateway,ops} that convert for real, start processes or build: each runs in a fresh worker.
 */
const SLOW = [
  'tests/backend/convert/**/*.test.ts',
  'tests/backend/documents/{conversion,page-images,restart}.test.ts',
  'tests/backend/{server-process,worker-process,blobs-copy,heap,command-options}.test.ts',
  'tests/gateway/server-process.test.ts',
  'tests/ops/{convert-bundle,database-url,docker,npm-start,scale-faults}.test.ts',
];

/**
 * Node's options where a file may start s3rver (the tests' S3, tests/helpers/s3.ts): it seals a
 * listing's continuation token with single DES, which OpenSSL 3 keeps in its legacy provider, so
 * that without it a listing past 1,000 objects answers 500.
 */
const WITH_S3RVER = ['--openssl-legacy-provider'];

/**
 * How long expect.poll waits for what a job, a worker or another process does: its default, 1 s, is a clock a busy
 * machine misses (e2e reader-text's hit at load 21; search-record's purge at a restart, a job taken at the queue's
 * next look).
 */
const POLL_TIMEOUT_MS = 15_000;

export default defineConfig({
  test: {
    // Vitest's default leaves one core idle (cores - 1: a single worker on CI's two cores);
    // most files wait on sockets, timers and child processes, so every core runs one. One more than
    // the cores was tried (2026-12-04, 2 cores): 687 s and 1,343 cpu-s against 653 s and 1,168, each
    // worker loading the modules again and the browsers contending.
    maxWorkers: availableParallelism(),
    // Modules as transformed for the tests are kept on disk (node_modules/.experimental-vitest-cache)
    // under a hash of their content and the config: a later run skips the transform.
    experimental: { fsModuleCache: true },
    projects: [
      {
        test: { name: 'shared', include: ['tests/shared/**/*.test.ts'], environment: 'node', isolate: false },
      },
      {
        test: {
          name: 'server',
          execArgv: WITH_S3RVER,
          include: ['tests/backend/**/*.test.ts', 'tests/gateway/**/*.test.ts', 'tests/ops/**/*.test.ts'],
          exclude: SLOW,
          environment: 'node',
          // Each file starts its own servers on temporary folders: they share a worker's loaded modules.
          isolate: false,
          globalSetup: ['tests/helpers/postgres-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          expect: { poll: { timeout: POLL_TIMEOUT_MS } },
        },
      },
      ...(postgresMissing()
        ? []
        : [
            {
              test: {
                name: 'server-postgres',
                execArgv: WITH_S3RVER,
                include: POSTGRES_SUITES,
                environment: 'node',
                env: { TEST_DATABASE: 'postgres' },
                // as `server`: the backend's modules load once per worker, not once per file (a third of the
                // project's CPU)
                isolate: false,
                globalSetup: ['tests/helpers/postgres-setup.ts'],
                testTimeout: 30_000,
                hookTimeout: 60_000,
                expect: { poll: { timeout: POLL_TIMEOUT_MS } },
              },
            },
          ]),
      {
        test: {
          name: 'slow',
          execArgv: WITH_S3RVER,
          include: SLOW,
          environment: 'node',
          globalSetup: ['tests/helpers/postgres-setup.ts', 'tests/helpers/build-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          expect: { poll: { timeout: POLL_TIMEOUT_MS } },
        },
      },
      {
        test: {
          name: 'web',
          include: ['tests/web/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          // setup.ts cleans the DOM and the storage after every test; Semi and React load once per worker.
          isolate: false,
          setupFiles: ['tests/web/setup.ts'],
          // Only a hung test's end: a wait starts once its screen's code has come (tests/web/screen-code.ts), whose
          // first visit took up to 29 s of a test under load (2 cores, load average 18), then has setup.ts's 15 s. The
          // files set no shorter limit of their own.
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/global-setup.ts'],
          // The site's modules (gateway, backend) load once per worker, not once per file: each file still
          // starts its own site and browser.
          isolate: false,
          // two files at once, each with its Chromium, on two cores: a long test takes longer
          testTimeout: 120_000,
          expect: { poll: { timeout: POLL_TIMEOUT_MS } },
          hookTimeout: 180_000,
        },
      },
    ],
    // `npm test` runs the shared project with --coverage (scripts/test.ts): the shared module
    // must stay at least 95 % line-covered by its own tests.
    coverage: {
      provider: 'v8',
      include: ['shared/**/*.ts'],
      reporter: ['text-summary', 'text'],
      thresholds: { 'shared/**/*.ts': { lines: 95 } },
    },
  },
});
