import { defineConfig } from 'vitest/config';
import { postgresMissing } from './tests/helpers/postgres';

// The backend's suites that write, run a second time on PostgreSQL (TEST_DATABASE=postgres:
// tests/helpers/test-database.ts gives each backend a fresh database). Left out: suites of
// pure code, of the conversion engine, of SQLite's own files (operations.test.ts: the file
// modes of moredoc.db; restart.test.ts: reads moredoc.db; migrations and sms-migration), of
// the processes (server-process), and the engine-specific ones (postgres-*.test.ts run in
// `server` for both engines).
const POSTGRES_SUITES = [
  'advertisement', 'article', 'attachment-admin', 'comment', 'config-api', 'document-access', 'document-search', 'download', 'favorite',
  'group-permission', 'job-queue', 'navigation-category', 'oauth', 'payment', 'permission-matrix', 'report-feedback', 'robustness',
  'search-record', 'site-extras', 'sitemap', 'sms-providers', 'sms', 'uploads', 'user-account', 'user-admin', 'user-member', 'vip-order',
  'wire', 'documents/document-api', 'documents/pages', 'documents/restart', 'documents/upload', 'names', 'client-address',
].map((name) => `tests/backend/${name}.test.ts`).concat([
  // the gateway's two ways to the backend, in process and over HTTP, compared
  'tests/gateway/in-process.test.ts',
]);

// One runner, five projects: pure shared code, the Node servers (and their suites again on
// PostgreSQL, where the server binaries are installed), the SPA's components (happy-dom) and
// the real-browser end-to-end tests (system Chromium).
export default defineConfig({
  test: {
    projects: [
      {
        test: { name: 'shared', include: ['tests/shared/**/*.test.ts'], environment: 'node' },
      },
      {
        test: {
          name: 'server',
          include: ['tests/backend/**/*.test.ts', 'tests/gateway/**/*.test.ts', 'tests/ops/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/helpers/postgres-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(postgresMissing() ? [] : [{
        test: {
          name: 'server-postgres',
          include: POSTGRES_SUITES,
          environment: 'node',
          env: { TEST_DATABASE: 'postgres' },
          globalSetup: ['tests/helpers/postgres-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      }]),
      {
        test: {
          name: 'web',
          include: ['tests/web/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['tests/web/setup.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
    // `npm test` runs with --coverage: the shared module must stay at least 95 % line-covered.
    coverage: {
      provider: 'v8',
      include: ['shared/**/*.ts'],
      reporter: ['text-summary', 'text'],
      thresholds: { 'shared/**/*.ts': { lines: 95 } },
    },
  },
});
