import { defineConfig } from 'vitest/config';

// One runner, four projects: pure shared code, the Node servers, the SPA's components
// (happy-dom) and the real-browser end-to-end tests (system Chromium).
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
