// `npm start`: build the SPA when web/dist is missing or older than its sources, then run
// the gateway (which starts the embedded backend unless BACKEND_URL is set).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIRST_SCREEN_MODULE } from '../gateway/first-screen';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** What the SPA build is made from: a change to any of these makes web/dist stale. */
const WEB_SOURCES = ['web/index.html', 'web/vite.config.ts', 'web/src', 'web/public', 'shared', 'package-lock.json'];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** Why the SPA must be (re)built, or undefined when web/dist is up to date. */
export function webBuildNeeded(root: string): string | undefined {
  const index = join(root, 'web/dist/index.html');
  if (!existsSync(index)) return 'web/dist is missing';
  if (!existsSync(join(root, 'web/dist', FIRST_SCREEN_MODULE))) return 'web/dist has no first-screen build (.ssr)';
  const built = statSync(index).mtimeMs;
  for (const source of WEB_SOURCES) {
    if (newestMtime(join(root, source)) > built) return `${source} changed since the last build`;
  }
  return undefined;
}

/** What a quiet run printed, and how it ended. */
export interface QuietRun {
  ok: boolean;
  status: number;
  output: string;
  seconds: number;
}

/**
 * Runs a command with its output kept rather than shown: the start prints one line for the
 * build, and the build's own few hundred lines only when it fails, so that the address and
 * the admin password printed at the end of the start stay on the screen.
 */
export function runQuietly(command: string, args: string[], cwd: string): QuietRun {
  const began = Date.now();
  const run = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}${run.error ? `${run.error.message}\n` : ''}`;
  return { ok: run.status === 0, status: run.status ?? 1, output, seconds: (Date.now() - began) / 1000 };
}

/** Builds the SPA with one line of output, or the build's whole output when it fails. */
export function buildWeb(
  root: string,
  reason: string,
  write: { out: (text: string) => void; err: (text: string) => void },
  command: [string, string[]] = [process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build:web']],
): boolean {
  write.out(`Building the SPA (${reason})…`);
  const run = runQuietly(command[0], command[1], root);
  if (run.ok) {
    write.out(` done in ${run.seconds.toFixed(0)} s\n`);
    return true;
  }
  write.out(' failed\n');
  write.err(`${run.output}\nThe SPA build failed (exit ${run.status}): its output is above.\n`);
  return false;
}

async function start(): Promise<void> {
  if (!process.env.WEB_DIST) {
    const reason = webBuildNeeded(ROOT);
    if (reason) {
      if (!existsSync(join(ROOT, 'web/index.html'))) {
        process.stderr.write('The SPA sources (web/) are missing: nothing to build.\n');
        process.exit(1);
      }
      const written = buildWeb(ROOT, reason, {
        out: (t) => process.stdout.write(t),
        err: (t) => process.stderr.write(t),
      });
      if (!written) process.exit(1);
    }
  }
  const { main } = await import('../gateway/server');
  await main();
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await start();
}
