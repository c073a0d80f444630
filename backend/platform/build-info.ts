// The program's build as GetStats reports it (构建哈希 and 构建时间 on the admin dashboard).
// MOREDOC compiles its git hash and build time into the binary. Ours come from, first found:
//   1. BUILD_HASH and BUILD_AT in the environment (each on its own; backend/config.ts);
//   2. build-info.json beside the server bundle (dist/server/), which `npm run build` writes
//      (scripts/build-info.ts) and the Docker image carries;
//   3. a run from the sources of a git checkout (`npm start`): the commit checked out, and the
//      time the process started, when tsx compiled the sources.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { formatDate } from '../../shared/format';

export interface BuildInfo {
  /** the git commit built, '' when unknown */
  hash: string;
  /** when it was built, "YYYY-MM-DD HH:mm:ss" in China time (as every date the site shows), '' when unknown */
  build_at: string;
}

/** Beside the bundle: dist/server/build-info.json from dist/server/{gateway,backend}/server.mjs. */
export const BUNDLED_BUILD_INFO = fileURLToPath(new URL('../build-info.json', import.meta.url));

export function buildTime(at: Date): string {
  return formatDate(at, 'YYYY-MM-DD HH:mm:ss');
}

/** The commit checked out where `cwd` is, or '' (no git, not a checkout: the Docker image). */
export async function gitCommit(cwd: string): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)('git', ['rev-parse', 'HEAD'], { cwd, timeout: 3000 });
    const hash = stdout.trim();
    return /^[0-9a-f]{40,64}$/.test(hash) ? hash : '';
  } catch {
    return '';
  }
}

async function readBundled(file: string): Promise<BuildInfo | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined; // a run from the sources
  }
  try {
    const parsed = JSON.parse(text) as Partial<BuildInfo>;
    return { hash: String(parsed.hash ?? ''), build_at: String(parsed.build_at ?? '') };
  } catch {
    return { hash: '', build_at: '' }; // damaged: unknown, rather than a guess from elsewhere
  }
}

/** The build of the running program, found as the comment at the top of this file says. */
export async function loadBuildInfo(
  options: {
    /** BUILD_HASH / BUILD_AT */
    given?: Partial<BuildInfo>;
    bundled?: string;
    startedAt?: Date;
  } = {},
): Promise<BuildInfo> {
  const found = (await readBundled(options.bundled ?? BUNDLED_BUILD_INFO)) ?? {
    hash: await gitCommit(dirname(fileURLToPath(import.meta.url))),
    build_at: buildTime(options.startedAt ?? new Date()),
  };
  return { ...found, ...options.given };
}
