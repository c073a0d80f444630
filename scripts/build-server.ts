// `npm run build:server`: the server bundles (the gateway, the standalone backend, the worker, the blob
// copy command), with the worker-thread modules beside the bundles that start them (the
// threads load them by path at run time, so they are copied, not bundled) and the data files
// the code reads beside its own module (`new URL(file, import.meta.url)`) beside every bundle.
// `tsx scripts/build-server.ts <outdir> [name=entry.ts …]`: more entries (tests bundle probes).
import { copyFileSync, mkdirSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const OUT = resolve(ROOT, process.argv[2] ?? 'dist/server');

const ENTRY_POINTS: Record<string, string> = {
  'gateway/server': 'gateway/server.ts',
  'backend/server': 'backend/server.ts',
  'backend/worker': 'backend/worker.ts',
  'scripts/blobs-copy': 'scripts/blobs-copy.ts',
  'scripts/db-copy': 'scripts/db-copy.ts',
  ...Object.fromEntries(process.argv.slice(3).map((arg) => arg.split('=', 2) as [string, string])),
};

/** The conversion engine's thread modules, next to every bundle that may convert. */
const CONVERT_THREADS = [
  'convert-worker.mjs',
  'image-threads.mjs',
  'scan-page.mjs',
  'svg-glyphs.mjs',
  'svg-images.mjs',
  'svg-pages.mjs',
  'text-positions.mjs',
  'mupdf-handle.mjs',
].map((name) => `backend/platform/convert/${name}`);

/** Which thread modules go beside which bundle's folder. */
const THREADS_BY_FOLDER: Record<string, readonly string[]> = {
  gateway: [...CONVERT_THREADS, 'gateway/first-screen-worker.mjs'],
  backend: CONVERT_THREADS,
};

/** Data files read at run time beside the module that reads them: beside every bundle in the build. */
const DATA_FILES = ['backend/platform/search/zh-words.txt'];

await build({
  entryPoints: Object.fromEntries(Object.entries(ENTRY_POINTS).map(([name, entry]) => [name, resolve(ROOT, entry)])),
  outdir: OUT,
  bundle: true,
  platform: 'node',
  format: 'esm',
  packages: 'external',
  target: 'node20',
  outExtension: { '.js': '.mjs' },
  logLevel: 'warning',
});
for (const [folder, files] of Object.entries(THREADS_BY_FOLDER)) {
  mkdirSync(resolve(OUT, folder), { recursive: true });
  for (const file of files) copyFileSync(resolve(ROOT, file), resolve(OUT, folder, basename(file)));
}
for (const folder of new Set(Object.keys(ENTRY_POINTS).map((name) => dirname(name)))) {
  for (const file of DATA_FILES) copyFileSync(resolve(ROOT, file), resolve(OUT, folder, basename(file)));
}
process.stdout.write(`server bundles → ${OUT}\n`);
