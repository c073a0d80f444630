// The production build (`npm run build`) and the production dependencies (`npm ci
// --omit=dev`), each made once and shared: the browser tests serve the build's web/dist, the
// Docker test checks and starts both. The build is made as the Dockerfile's build stage makes
// it, in a copy of the build context (the files git knows that .dockerignore lets in). Both are
// kept in the system's temporary folder under a hash of what they are made from, so a run
// whose sources did not change since the last one reuses them.
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { cp, mkdir, readFile, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { isIgnored } from '../ops/docker-files';
import { kept, keyOf } from './kept';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** The Docker build context: the files git knows (tracked or new) that .dockerignore lets in. */
export async function buildContextFiles(): Promise<string[]> {
  const dockerignore = await readFile(join(REPO, '.dockerignore'), 'utf8');
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO,
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout
    .split('\0')
    .filter(
      (path) =>
        path !== '' &&
        !isIgnored(dockerignore, path) &&
        existsSync(join(REPO, path)) &&
        statSync(join(REPO, path)).isFile(),
    )
    .sort();
}

/** The key of what is made from `files` (their names and contents) and `parts`. */
async function keyOfFiles(files: readonly string[], parts: readonly string[] = []): Promise<string> {
  const contents: (string | Uint8Array)[] = [...parts];
  for (const file of files) contents.push(file, await readFile(join(REPO, file)));
  return keyOf(contents);
}

/**
 * The process environment without what vitest sets for its tests (NODE_ENV=test would make Vite bundle React's
 * development build).
 */
function buildEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_ENV;
  for (const name of Object.keys(env)) if (name.startsWith('VITEST')) delete env[name];
  return env;
}

/**
 * A kept build is whole while the node_modules it links is there. It links the work tree's that
 * made it, which may be another clone since removed (a CI clone): its server bundles would then
 * find no package (ERR_MODULE_NOT_FOUND for kysely).
 */
export const buildIsWhole = (dir: string): boolean => existsSync(join(dir, 'node_modules'));

let building: Promise<string> | undefined;

/**
 * The folder where `npm run build` ran on a copy of the build context, with this work tree's
 * node_modules: its web/dist and dist/server are the image's. `onBuild` hears when it has to be
 * made (not kept from an earlier run).
 */
export function productionBuild(onBuild: (files: number) => void = () => undefined): Promise<string> {
  building ??= (async () => {
    const files = await buildContextFiles();
    const installed = existsSync(join(REPO, 'node_modules/.package-lock.json'))
      ? ['node_modules/.package-lock.json']
      : [];
    return kept(
      'build',
      await keyOfFiles([...files, ...installed]),
      async (dir) => {
        onBuild(files.length);
        for (const file of files) {
          await mkdir(dirname(join(dir, file)), { recursive: true });
          await cp(join(REPO, file), join(dir, file));
        }
        await symlink(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
        await run('npm', ['run', 'build'], { cwd: dir, env: buildEnv(), maxBuffer: 64 * 1024 * 1024 });
      },
      buildIsWhole,
    );
  })();
  building.catch(() => (building = undefined));
  return building;
}

/**
 * A folder with `sources` (package.json, package-lock.json) and what `npm ci --omit=dev` installs
 * from them. The packages' install scripts do not run there: a package that has one takes what
 * its script made in this work tree's node_modules, where `npm ci` ran it on the same version
 * for the same Node (better-sqlite3's compile of its addon: about 60 cpu-s, prebuild-install
 * having no network to fetch a prebuilt one). A package this work tree has at another version,
 * or without what its script made, runs its scripts there (`npm rebuild`).
 */
export function productionDependencies(sources: readonly string[]): Promise<string> {
  return (async () => {
    const command = ['ci', '--omit=dev', '--no-audit', '--no-fund', '--ignore-scripts'];
    return kept('prod-deps', await keyOfFiles([...sources].sort(), command), async (dir) => {
      for (const source of sources) await cp(join(REPO, source), join(dir, source));
      await run('npm', command, { cwd: dir, env: buildEnv(), maxBuffer: 64 * 1024 * 1024 });
      const installed = await packagesWithInstallScripts(dir);
      const here = new Map((await packagesWithInstallScripts(REPO)).map((pkg) => [pkg.path, pkg.version]));
      for (const { path, version } of installed) {
        const built = join(REPO, path, BUILT);
        if (here.get(path) === version && existsSync(built))
          await cp(built, join(dir, path, BUILT), { recursive: true });
        else await run('npm', ['rebuild', path.replace(/^.*node_modules\//, '')], { cwd: dir, env: buildEnv() });
      }
    });
  })();
}

/** Where an install script (node-gyp, prebuild-install) puts a package's native addon. */
const BUILT = 'build';

/** The installed packages of `root` that have an install script, as its node_modules/.package-lock.json lists them. */
async function packagesWithInstallScripts(root: string): Promise<{ path: string; version: string }[]> {
  const lock = JSON.parse(await readFile(join(root, 'node_modules/.package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; hasInstallScript?: boolean }>;
  };
  return Object.entries(lock.packages)
    .filter(([, entry]) => entry.hasInstallScript)
    .map(([path, entry]) => ({ path, version: entry.version ?? '' }));
}
