import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BuildOptions, Plugin } from 'esbuild';

// The modules that worker threads load by path (the conversion worker, the first screen's
// renderer) are TypeScript, and a thread has no TypeScript loader: on Node 20 a thread given tsx
// as `--import` cannot load mupdf's top-level-await graph, and tsx registered inside the thread
// starts threads of its own, which the thread-priority tests count. So a thread always loads an
// esbuild bundle of its module: `npm run build:server` writes it beside the server bundles
// (scripts/build-server.ts); run from source (tsx, vitest), it is bundled on first use into
// .tmp/thread-modules/, keyed by a hash of the sources it was made from.

/**
 * Modules kept in a file of their own beside the bundle, their import left in its place: a bundle
 * hoists every package import above its inlined code, and mupdf-handle must run before mupdf loads.
 */
const OWN_FILES = new Set(['mupdf-handle']);

/**
 * The packages a bundle leaves as imports, found in node_modules when it runs; it carries every
 * other package in itself, so that a process's start reads and compiles one file instead of some
 * hundreds (a backend's start to listening: 1.2–1.7 cpu-s with every package outside, 0.8–1.2 with
 * these only; docs/performance.md §10.2). Outside stay the native addons, the packages that load files of
 * their own by path, the SDKs the code loads on first use (a start does not need them), and esbuild
 * (it bundles these modules when run from source, and is not installed in production).
 */
export const PACKAGES_OUTSIDE = [
  // native addons
  'better-sqlite3',
  'sharp',
  '@napi-rs/nice',
  // their own files by path: MuPDF's WebAssembly, piscina's worker, svg-captcha's font
  'mupdf',
  'piscina',
  'svg-captcha',
  // loaded on first use (tests/ops/convert-bundle.test.ts)
  'alipay-sdk',
  'nodemailer',
  '@aws-sdk/*',
  'pg',
  // development only: it bundles these modules when run from source
  'esbuild',
];

/** How the server and its threads' modules are bundled (scripts/build-server.ts uses them too). */
export const BUNDLE_OPTIONS: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  external: PACKAGES_OUTSIDE,
  // The CommonJS packages inside an ES module call `require` (for Node's own modules).
  banner: {
    js: "import { createRequire as __bundleRequire } from 'node:module';\nconst require = __bundleRequire(import.meta.url);",
  },
  target: 'node20',
  outExtension: { '.js': '.mjs' },
  logLevel: 'warning',
};

const FROM_SOURCE = import.meta.url.endsWith('.ts');
const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const CACHE = join(ROOT, '.tmp', 'thread-modules');

/** The file a thread loads: `<name>.mjs`, the bundle of `<name>.ts`. */
const bundleName = (entry: string) => `${basename(entry, '.ts')}.mjs`;

/**
 * Bundles a thread's module (`entry`, a .ts file) into `outDir` as `<name>.mjs`, with the modules
 * of OWN_FILES it imports beside it; answers the source files it read (absolute paths).
 */
export async function bundleThreadModule(entry: string, outDir: string): Promise<string[]> {
  const { build } = await import('esbuild');
  const inputs = new Set<string>();
  const ownFiles = new Set<string>();
  const plugin: Plugin = {
    name: 'thread-module',
    setup(bundle) {
      bundle.onResolve({ filter: /^\.\.?\// }, (args) => {
        const path = resolve(args.resolveDir, args.path);
        if (!OWN_FILES.has(basename(path))) return undefined;
        ownFiles.add(`${path}.ts`);
        return { path: `./${basename(path)}.mjs`, external: true };
      });
      bundle.onLoad({ filter: /\.ts$/ }, (args) => {
        inputs.add(args.path);
        return undefined;
      });
    },
  };
  await build({ ...BUNDLE_OPTIONS, entryPoints: [entry], outdir: outDir, plugins: [plugin] });
  for (const file of ownFiles)
    await build({ ...BUNDLE_OPTIONS, entryPoints: [file], outdir: outDir, plugins: [plugin] });
  return [...inputs].sort();
}

/** What a bundle is made of: its entry, esbuild's version and options (this file), and every source file's content. */
async function keyOf(entry: string, inputs: readonly string[]): Promise<string> {
  const { version } = await import('esbuild');
  const hash = createHash('sha256').update(`${version}\n${relative(ROOT, entry)}\n`);
  hash.update(await readFile(fileURLToPath(import.meta.url)));
  for (const input of inputs) {
    hash.update(`${relative(ROOT, input)}\n`);
    hash.update(await readFile(input).catch(() => Buffer.from('(missing)')));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The bundle of `entry` in the cache, made when its sources changed. Several processes (test
 * files, `npm start` beside a test run) may make it at once: each builds into a folder of its
 * own and renames it into place; the loser's folder, the same files, is dropped.
 */
async function cachedBundle(entry: string, cache: string): Promise<string> {
  const slot = createHash('sha256').update(relative(ROOT, entry)).digest('hex').slice(0, 8);
  // The sources the last bundle of this entry read: their content now says whether it stands.
  const inputsFile = join(cache, `${basename(entry, '.ts')}-${slot}.inputs.json`);
  const known = await readFile(inputsFile, 'utf8').then(
    (text) => (JSON.parse(text) as string[]).map((input) => resolve(ROOT, input)),
    () => undefined,
  );
  if (known) {
    const file = join(cache, await keyOf(entry, known), bundleName(entry));
    if (existsSync(file)) return file;
  }
  await mkdir(cache, { recursive: true });
  const building = await mkdtemp(join(cache, 'building-'));
  try {
    const inputs = await bundleThreadModule(entry, building);
    const folder = join(cache, await keyOf(entry, inputs));
    await rename(building, folder).catch((error: NodeJS.ErrnoException) => {
      if (!existsSync(join(folder, bundleName(entry)))) throw error;
    });
    const temp = `${inputsFile}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    await writeFile(temp, JSON.stringify(inputs.map((input) => relative(ROOT, input))));
    await rename(temp, inputsFile);
    return join(folder, bundleName(entry));
  } finally {
    await rm(building, { recursive: true, force: true });
  }
}

/**
 * The file a worker thread is to load for the thread module `entry` (a .ts file's URL): from the
 * server bundle, `<name>.mjs` beside it (`npm run build:server` writes it); from source, its
 * bundle in .tmp/thread-modules/, made on first use and again whenever a source file it is made
 * of changes. `cache`: another folder for them (tests).
 */
export async function threadModule(entry: URL, cache = CACHE): Promise<URL> {
  if (!FROM_SOURCE) {
    const beside = new URL(`./${bundleName(fileURLToPath(entry))}`, import.meta.url);
    if (!existsSync(fileURLToPath(beside))) {
      throw new Error(
        `The thread module is missing: ${fileURLToPath(beside)} (npm run build:server writes it beside the server bundles)`,
      );
    }
    return beside;
  }
  return pathToFileURL(await cachedBundle(fileURLToPath(entry), cache));
}
