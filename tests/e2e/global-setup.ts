// Browser tests run against the built SPA: build web/dist once when it is missing or older
// than its sources (the same staleness rule as `npm start`).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { webBuildNeeded } from '../../scripts/start';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export default function setup(): void {
  const reason = webBuildNeeded(ROOT);
  if (!reason) return;
  process.stdout.write(`e2e: building web/dist (${reason})…\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
  const env = { ...process.env, NODE_ENV: 'production' };
  const build = spawnSync(npm, ['run', 'build:web'], { cwd: ROOT, stdio: 'inherit', env });
  if (build.status !== 0) throw new Error(`npm run build:web failed (exit ${build.status ?? 'signal'})`);
}
