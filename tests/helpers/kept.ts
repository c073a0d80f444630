// Folders that tests make once and keep in the system's temporary folder for later runs,
// under a key that changes with what they are made from (a hash of it).
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Kept folders nobody used for this long are removed. */
const UNUSED_MS = 24 * 3600_000;

/** A short hash of `parts` (strings and file contents), with Node's version. */
export function keyOf(parts: readonly (string | Uint8Array)[]): string {
  const hash = createHash('sha256').update(process.version);
  for (const part of parts) hash.update('\0').update(part);
  return hash.digest('hex').slice(0, 16);
}

/**
 * Whether a kept folder can still be used. A folder that links outside itself (the production
 * build's node_modules, a link to the work tree that made it) is whole only while what it links
 * is there: that work tree may since have been removed.
 */
export type IsWhole = (dir: string) => boolean;

/**
 * The kept folder `moredoc-<name>-<key>`, when it is there and whole (and marked as used). One
 * that is there but not whole is moved aside and removed, for `kept` to make it again.
 */
export async function keptIfThere(
  name: string,
  key: string,
  isWhole: IsWhole = () => true,
): Promise<string | undefined> {
  const dir = join(tmpdir(), `moredoc-${name}-${key}`);
  if (!existsSync(dir)) return undefined;
  if (!isWhole(dir)) {
    // renamed first: of two runs that find it broken at once, one moves it and the other finds it gone
    const broken = `${dir}.${process.pid}.broken`;
    await rename(dir, broken).catch(() => undefined);
    await rm(broken, { recursive: true, force: true });
    return undefined;
  }
  const now = new Date();
  await utimes(dir, now, now);
  return dir;
}

/**
 * The kept folder `moredoc-<name>-<key>`, made by `make` unless it is there. It is made under
 * another name and renamed once complete, so a folder by that name is always whole (of two
 * runs making it at once, the first rename wins and the other uses it). One that is there but
 * not `isWhole` is made again.
 */
export async function kept(
  name: string,
  key: string,
  make: (dir: string) => Promise<void>,
  isWhole: IsWhole = () => true,
): Promise<string> {
  const there = await keptIfThere(name, key, isWhole);
  if (there) return there;
  const dir = join(tmpdir(), `moredoc-${name}-${key}`);
  const partial = `${dir}.${process.pid}.part`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  try {
    await make(partial);
    await rename(partial, dir);
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    if (!existsSync(dir)) throw error;
  }
  await pruneKept(name, dir);
  return dir;
}

/** Removes the other `moredoc-<name>-*` folders unused for a day. */
async function pruneKept(name: string, current: string): Promise<void> {
  const prefix = `moredoc-${name}-`;
  for (const entry of await readdir(tmpdir())) {
    const path = join(tmpdir(), entry);
    if (!entry.startsWith(prefix) || path === current) continue;
    const info = await stat(path).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs > UNUSED_MS) await rm(path, { recursive: true, force: true });
  }
}
