// DATABASE_URL as an operator meets it, through the programs that start the backend: the
// standalone backend (`npm run backend`: tsx backend/server.ts; its production bundle,
// dist/server/backend/server.mjs) and the gateway with the embedded backend (`npm start`: tsx
// scripts/start.ts; `npm run start:prod`: the gateway's bundle of the run's production build,
// tests/helpers/build-setup.ts).
// A bad URL or a wrong password stop the start with one line that names DATABASE_URL, exit code
// 1, no stack trace, and never the password; a server that is not there is waited for, said so a try.
// Each case runs on both programs' bundles, the same main() as from source; a start through tsx's
// loader costs about 2 cpu-s more (0.4 for a bundle), so the sources run once each: `npm run
// backend` in the first test, `npm start` on a wrong password (their npm scripts' starts are
// npm-start.test.ts's).
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, dropDatabase } from '../helpers/postgres';
import { freePort } from '../helpers/ports';
import { runUntil, type Run } from '../helpers/processes';
import { useS3 } from '../helpers/s3';

const clusterUrl = inject('postgresUrl');
const REPO = fileURLToPath(new URL('../..', import.meta.url));
// One process through tsx's loader, not the tsx launcher, which kills a child slow to take the
// relayed SIGINT (exit 130 on a loaded machine).
const TSX = ['--import', 'tsx'];
const FIXTURE_DIST = path.join(REPO, 'tests/gateway/fixtures/web-dist');

const run = (command: string, args: string[], env: Record<string, string>, until: RegExp | null, untilError?: RegExp) =>
  runUntil(command, args, {
    env: { HOME: process.env.HOME ?? '', ...env },
    until,
    ...(untilError ? { untilError } : {}),
    cwd: REPO,
    killAfterMs: 30_000,
  });

const bundle = inject('serverBundles');
let dataDir: string;

/** The start commands, each with its DATA_DIR and the variables it needs besides DATABASE_URL. */
const commands: Record<
  string,
  (env: Record<string, string>, until: RegExp | null, untilError?: RegExp) => Promise<Run>
> = {
  'npm run backend': (env, until, untilError) =>
    run(
      process.execPath,
      [...TSX, 'backend/server.ts'],
      { DATA_DIR: dataDir, BACKEND_PORT: '0', ...env },
      until,
      untilError,
    ),
  'node dist/server/backend/server.mjs': (env, until, untilError) =>
    run(
      process.execPath,
      [path.join(bundle, 'backend/server.mjs')],
      { DATA_DIR: dataDir, BACKEND_PORT: '0', ...env },
      until,
      untilError,
    ),
  'npm start': (env, until) =>
    run(
      process.execPath,
      [...TSX, 'scripts/start.ts'],
      { DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', WEB_DIST: FIXTURE_DIST, ...env },
      until,
    ),
  'npm run start:prod': (env, until) =>
    run(
      process.execPath,
      [path.join(bundle, 'gateway/server.mjs')],
      { DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', WEB_DIST: FIXTURE_DIST, ...env },
      until,
    ),
};

describe.skipIf(!clusterUrl)('DATABASE_URL at the start', () => {
  const bucket = useS3();
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'moredoc-database-url-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps every table in PostgreSQL, shows the URL without its password, and no DATA_DIR when S3 has the files', async () => {
    const url = await createDatabase(clusterUrl);
    const password = new URL(url).password;
    try {
      const withSsl = `${url}?sslmode=disable`;
      const first = await commands['npm run backend']!({ DATABASE_URL: withSsl }, /password "[^"]+"/);
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(
        /listening on http:\/\/127\.0\.0\.1:\d+ \(database postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/test_\w+\?sslmode=disable, files in /,
      );
      expect(first.stdout).toMatch(/username "admin", password "[\w-]{12,}"/);
      expect(first.stdout + first.stderr).not.toContain(password);
      expect(fs.existsSync(path.join(dataDir, 'moredoc.db'))).toBe(false);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query<{ username: string }>('SELECT username FROM "user"');
        expect(rows).toEqual([{ username: 'admin' }]);
      } finally {
        await client.end();
      }
      // With the files in S3 too, DATA_DIR holds nothing: the start frame does not send anyone there. (The gateway's
      // frame, from its bundle: a start through tsx costs 1.5 cpu-s more; `npm start` is met below.)
      const again = await commands['npm run start:prod']!(
        { DATABASE_URL: withSsl, ...bucket.s3.env, TMPDIR: os.tmpdir() },
        /running at/,
      );
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(
        /│ backend: embedded +│\n.*│ {3}database: postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/test_\w+\?sslmode=disable \(with the generated keys\) +│\n/,
      );
      expect(again.stdout).toContain(`│   files: bucket ${bucket.s3.bucket} `);
      expect(again.stdout).toContain(`│   scratch: ${os.tmpdir()} `);
      expect(again.stdout).not.toContain(dataDir);
      expect(again.stdout).not.toContain('admin account created');
      expect(again.stdout + again.stderr).not.toContain(password);
    } finally {
      await dropDatabase(url);
    }
  }, 60_000);

  /** Exit 1, one line on stderr that contains `expected`, no stack, no password. */
  const refused = (result: Run, expected: RegExp, password: string) => {
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(expected);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout + result.stderr).not.toContain(password);
  };

  /** A start on the cluster with a wrong password: refused as `refused` says. */
  const stopsOnWrongPassword = async (command: string) => {
    const url = new URL(clusterUrl);
    url.password = 'not-the-password-7f3a';
    refused(
      await commands[command]!({ DATABASE_URL: url.href }, null),
      /DATABASE_URL: cannot connect to PostgreSQL \(postgres:\/\/postgres:\*\*\*@.*\): password authentication failed for user "postgres"/,
      'not-the-password-7f3a',
    );
  };

  it('npm start (from source) stops on a wrong password', () => stopsOnWrongPassword('npm start'), 40_000);

  describe.each(['node dist/server/backend/server.mjs', 'npm run start:prod'])('%s', (command) => {
    const start = (env: Record<string, string>) => commands[command]!(env, null);

    it('stops on a wrong password', () => stopsOnWrongPassword(command), 40_000);

    it('waits while no server answers, saying so a try without the password, instead of exiting', async () => {
      const url = `postgres://moredoc:secret-4c1d@127.0.0.1:${await freePort()}/moredoc`;
      const reason =
        /DATABASE_URL: cannot connect to PostgreSQL \(postgres:\/\/moredoc:\*\*\*@127\.0\.0\.1:\d+\/moredoc\): connect ECONNREFUSED/;
      if (command === 'node dist/server/backend/server.mjs') {
        // Two tries said on stderr; the test's SIGINT ends it (no handler of its own before it listens).
        const result = await commands[command]!({ DATABASE_URL: url }, null, /trying again in[^]*trying again in/);
        expect(result.code).toBeNull();
        expect(result.stderr).toMatch(
          new RegExp(`Waiting for PostgreSQL: ${reason.source}[^\n]*; trying again in 1 s`),
        );
        expect(result.stdout + result.stderr).not.toContain('secret-4c1d');
        return;
      }
      // The site starts (its /readyz says 503 meanwhile) and the backend's log says why it waits.
      const result = await commands[command]!(
        { DATABASE_URL: url },
        /running at[^]*trying again in|trying again in[^]*running at/,
      );
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(reason);
      expect(result.stdout).toContain('waiting for its database or bucket');
      expect(result.stdout + result.stderr).not.toContain('secret-4c1d');
    }, 40_000);

    it('stops on a URL that is no PostgreSQL URL', async () => {
      refused(
        await start({ DATABASE_URL: 'mysql://root:secret-9e2b@db/moredoc' }),
        /DATABASE_URL must be a PostgreSQL URL/,
        'secret-9e2b',
      );
    }, 40_000);
  });
});
