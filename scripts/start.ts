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

async function start(): Promise<void> {
  if (!process.env.WEB_DIST) {
    const reason = webBuildNeeded(ROOT);
    if (reason) {
      if (!existsSync(join(ROOT, 'web/index.html'))) {
        process.stderr.write('The SPA sources (web/) are missing: nothing to build.\n');
        process.exit(1);
      }
      process.stdout.write(`Building the SPA (${reason})…\n`);
      const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
      const build = spawnSync(npm, ['run', 'build:web'], { cwd: ROOT, stdio: 'inherit' });
      if (build.status !== 0) {
        process.stderr.write('The SPA build failed (see above).\n');
        process.exit(build.status ?? 1);
      }
    }
  }
  const { main } = await import('../gateway/server');
  await main();
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await start();
}
