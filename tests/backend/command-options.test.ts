// The operator's commands (`npm run admin:password`, `db:copy`, `blobs:copy`) refuse an option they
// do not take, naming it, and answer `--help` with their usage, before they do anything: a mistyped
// option is not ignored while the command goes on with its defaults (the admin's password changed,
// another database copied, the files sent to the bucket).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { loginAttempt, startBackend, type StartedBackend } from '../helpers/backend';
import { databaseEnv } from '../helpers/test-database';

const run = promisify(execFile);
const repo = join(import.meta.dirname, '../..');
const bundles = inject('serverBundles');

/**
 * Runs the production bundle of `scripts/<script>.ts` (`node dist/server/scripts/<script>.mjs`, as
 * the image does) with only `env` and PATH. The options are parsed by the same code as under tsx
 * (`npm run`), which costs a start through tsx's loader (about 1.5 cpu-s a command) for nothing more.
 */
async function command(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(bundles, `scripts/${script}.mjs`), ...args], {
      cwd: join(bundles, '../..'),
      env: { PATH: process.env.PATH ?? '', ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

let site: StartedBackend | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

describe("the operator's commands", { timeout: 60_000 }, () => {
  it('admin:password answers --help with its usage and refuses --reset, the password left as it was', async () => {
    site = await startBackend();
    const env = { ...(await databaseEnv(site.dataDir)), DATA_DIR: site.dataDir };
    const help = await command('admin-password', ['--help'], env);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    // As the bundle is run (the Docker image has no tsx, so no npm script that works).
    expect(help.stdout).toMatch(/^usage: node dist\/server\/scripts\/admin-password\.mjs {2}\(DATA_DIR/);
    const mistyped = await command('admin-password', ['--reset'], env);
    expect(mistyped.code).toBe(1);
    expect(mistyped.stdout).toBe('');
    expect(mistyped.stderr).toContain("Unknown option '--reset'");
    expect((await loginAttempt(site.url, 'admin', site.adminPassword)).status).toBe(200);
  });

  it('names each command, from source, as its npm script', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/db-copy.ts', '--help'], {
      cwd: repo,
      timeout: 60_000,
    });
    expect(stdout).toBe('usage: npm run db:copy -- --to "postgres://…" [--from DATA_DIR/moredoc.db]\n');
  });

  it('db:copy refuses --form for --from, naming it', async () => {
    const refused = await command(
      'db-copy',
      ['--to', 'postgres://moredoc:secret@127.0.0.1:9/moredoc', '--form', '/backup/moredoc.db'],
      { DATA_DIR: repo },
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("db:copy: Unknown option '--form'");
    expect(refused.stderr).toContain('usage: node dist/server/scripts/db-copy.mjs --to "postgres://…"');
  });

  it('blobs:copy refuses --evry for --every, naming it, and answers --help', async () => {
    const env = {
      DATA_DIR: repo,
      S3_BUCKET: 'moredoc',
      S3_ENDPOINT: 'http://127.0.0.1:9',
      S3_FORCE_PATH_STYLE: 'true',
    };
    const refused = await command('blobs-copy', ['--evry', '5'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("Unknown option '--evry'");
    const help = await command('blobs-copy', ['--help'], env);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^usage: node dist\/server\/scripts\/blobs-copy\.mjs \[--every N\]/);
  });
});
