// What the benchmarks that drive Chromium share: the web build they serve (made when missing or
// older than its sources, as `npm start` does), Debian's Chromium, and a gateway in front of a
// backend started for the benchmark.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { webBuildNeeded } from '../../scripts/start';
import { REPO_ROOT, startNodeProcess, type Started } from './processes';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const WEB_DIST = join(REPO_ROOT, 'web/dist');

/** The web build the benchmarks serve: (re)built when missing or older than its sources. */
export function ensureWebBuild(): void {
  const reason =
    webBuildNeeded(REPO_ROOT) ?? (existsSync(join(WEB_DIST, '.vite/manifest.json')) ? undefined : 'no Vite manifest');
  if (!reason) return;
  console.error(`building web/dist first (${reason}): npm run build:web`);
  const build = spawnSync('npm', ['run', 'build:web'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) throw new Error('npm run build:web failed');
}

/** Headless Chromium, with `args` beside the usual ones. */
export function launchChromium(args: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', ...args],
  });
}

/** The gateway serving the web build in front of `backendUrl`. */
export function startGateway(backendUrl: string, dir: string): Promise<Started> {
  return startNodeProcess(
    'gateway',
    'gateway.ts',
    { LOG_LEVEL: 'warn', BACKEND_URL: backendUrl, BENCH_WEB_DIST: WEB_DIST },
    dir,
  );
}
