// The npm scripts as an operator stops them: a signal to npm alone (a service manager, `kill` of
// the npm process) stops the process it started too, its requests in flight or its jobs
// finishing, instead of leaving it running without its npm (each script `exec`s: dash, npm's
// shell, would otherwise die of the signal and leave its child behind). A start also names the
// command for a lost admin password as it runs there: the npm script from source, node on the
// bundle from a build (the Docker image has no tsx).
import { spawn } from 'node:child_process';
import { copyFile, cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { gatewayProcessEnv } from '../gateway/helpers';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

interface Script {
  script: string;
  /** Where npm runs it (the production build's folder for start:prod). */
  cwd: () => string;
  env: Record<string, string>;
  /** Reads from the output what says the process runs: a URL that answers, or a process id. */
  started: RegExp;
  /** Whether the process it started still runs, from what `started` matched. */
  runs: (found: string) => Promise<boolean>;
  /** What its start says, once running, of a lost admin password: the command as it can be run there. */
  lostPassword?: string;
}

const byUrl = (path: string) => (port: string) => answers(`http://127.0.0.1:${port}${path}`);

const SCRIPTS: Script[] = [
  {
    script: 'start',
    cwd: () => ROOT,
    env: {},
    started: /running at http:\/\/localhost:(\d+)/,
    runs: byUrl('/healthz'),
    lostPassword: 'lost it? npm run admin:password gives the admin a new one',
  },
  {
    script: 'start:prod',
    cwd: () => join(inject('serverBundles'), '../..'),
    env: {},
    started: /running at http:\/\/localhost:(\d+)/,
    runs: byUrl('/healthz'),
    // The build's bundle, as the Docker image runs it (no tsx there).
    lostPassword: 'lost it? node dist/server/scripts/admin-password.mjs gives the admin a new one',
  },
  {
    script: 'backend',
    cwd: () => ROOT,
    env: { BACKEND_PORT: '0' },
    started: /listening on http:\/\/127\.0\.0\.1:(\d+)/,
    runs: byUrl('/readyz'),
  },
  {
    script: 'worker',
    cwd: () => ROOT,
    env: {},
    started: /worker running jobs \(pid (\d+)/,
    runs: async (pid) => alive(+pid),
  },
];

describe.each(SCRIPTS)('npm run $script', ({ script, cwd, env, started, runs, lostPassword }) => {
  it('stops what it started when npm is sent SIGTERM', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'npm-start-'));
    const npm = spawn('npm', ['run', script], {
      cwd: cwd(),
      env: gatewayProcessEnv({ DATA_DIR: dataDir, ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    npm.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    npm.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const exited = new Promise<void>((resolve) => npm.on('exit', () => resolve()));
    try {
      const deadline = Date.now() + 60_000;
      let found: string | undefined;
      while (!(found = started.exec(out)?.[1]) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(found, out).toBeDefined();
      expect(await runs(found!)).toBe(true);
      if (lostPassword !== undefined) expect(out).toContain(lostPassword);

      npm.kill('SIGTERM');
      await exited;
      const stopBy = Date.now() + 15_000;
      while ((await runs(found!)) && Date.now() < stopBy) await new Promise((r) => setTimeout(r, 200));
      expect(await runs(found!), `${script} still runs after npm stopped`).toBe(false);
    } finally {
      if (npm.exitCode === null) npm.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe.each([
  ['start:prod', 'dist/server/gateway/server.mjs', 'npm start'],
  ['start:worker', 'dist/server/backend/worker.mjs', 'npm run worker'],
])('npm run %s where nothing was built', (script, bundle, fromSource) => {
  it("says in one line that the build is missing and what to run, instead of node's stack trace", async () => {
    // A clone where `npm run build` has not run: the package and its scripts, no dist/.
    const folder = await mkdtemp(join(tmpdir(), 'npm-start-unbuilt-'));
    try {
      await copyFile(join(ROOT, 'package.json'), join(folder, 'package.json'));
      await cp(join(ROOT, 'scripts'), join(folder, 'scripts'), { recursive: true });
      // Without --silent, as an operator runs it: npm echoes the script's line, which holds no check of its own.
      const npm = spawn('npm', ['run', script], { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      npm.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
      npm.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
      const code = await new Promise<number | null>((resolve) => npm.on('exit', (c) => resolve(c)));
      expect(code).toBe(1);
      const missing = `No build here (${bundle} is missing): run npm run build first, or ${fromSource} to run from the sources\n`;
      expect(err).toBe(missing);
      expect(out).not.toContain('No build here');
      expect(out).not.toContain('test -f');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 30_000);
});
