// Part of `npm run build`: records the build for GetStats (backend/platform/build-info.ts) in
// <folder>/build-info.json, beside the server bundles (`tsx scripts/build-info.ts dist/server`).
// The commit is BUILD_HASH when set (the Docker build has no .git), else the one checked out here.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildTime, gitCommit, type BuildInfo } from '../backend/platform/build-info';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const file = resolve(ROOT, process.argv[2] ?? 'dist/server', 'build-info.json');
const info: BuildInfo = {
  hash: process.env.BUILD_HASH?.trim() || (await gitCommit(ROOT)),
  build_at: process.env.BUILD_AT?.trim() || buildTime(new Date()),
};
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, `${JSON.stringify(info, null, 2)}\n`);
process.stdout.write(`build ${info.hash || '(commit unknown)'} at ${info.build_at} → ${file}\n`);
