// `npm run build:server`: the server bundles (the gateway, the standalone backend, the worker, the
// operator's commands: blob copy, database copy, admin password, which the Docker image runs
// with node as it has no tsx), with the bundles of the worker threads' modules beside the server
// bundles that start them (the threads load them by path at run time: backend/platform/thread-modules.ts, which
// bundles them the same way when run from source) and the data files the code reads beside its
// own module (`new URL(file, import.meta.url)`) beside every bundle.
// `tsx scripts/build-server.ts <outdir> [name=entry.ts …]`: more entries (tests bundle probes).
import { copyFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { BUNDLE_OPTIONS, bundleThreadModule } from '../backend/platform/thread-modules';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const OUT = resolve(ROOT, process.argv[2] ?? 'dist/server');

const ENTRY_POINTS: Record<string, string> = {
  'gateway/server': 'gateway/server.ts',
  'backend/server': 'backend/server.ts',
  'backend/worker': 'backend/worker.ts',
  'scripts/blobs-copy': 'scripts/blobs-copy.ts',
  'scripts/db-copy': 'scripts/db-copy.ts',
  'scripts/admin-password': 'scripts/admin-password.ts',
  ...Object.fromEntries(process.argv.slice(3).map((arg) => arg.split('=', 2) as [string, string])),
};

/** Which thread modules are bundled beside which bundle's folder. */
const THREADS_BY_FOLDER: Record<string, readonly string[]> = {
  gateway: ['backend/platform/convert/convert-worker.ts', 'gateway/first-screen-worker.ts'],
  backend: ['backend/platform/convert/convert-worker.ts'],
};

/** Data files read at run time beside the module that reads them: beside every bundle in the build. */
const DATA_FILES = ['backend/platform/search/zh-words.txt'];

await build({
  entryPoints: Object.fromEntries(Object.entries(ENTRY_POINTS).map(([name, entry]) => [name, resolve(ROOT, entry)])),
  outdir: OUT,
  ...BUNDLE_OPTIONS,
});
for (const [folder, entries] of Object.entries(THREADS_BY_FOLDER)) {
  for (const entry of entries) await bundleThreadModule(resolve(ROOT, entry), resolve(OUT, folder));
}
for (const folder of new Set(Object.keys(ENTRY_POINTS).map((name) => dirname(name)))) {
  for (const file of DATA_FILES) copyFileSync(resolve(ROOT, file), resolve(OUT, folder, basename(file)));
}
process.stdout.write(`server bundles → ${OUT}\n`);
