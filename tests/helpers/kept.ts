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

/** The kept folder `moredoc-<name>-<key>`, when it is there (and marked as used). */
export async function keptIfThere(name: string, key: string): Promise<string | undefined> {
  const dir = join(tmpdir(), `moredoc-${name}-${key}`);
  if (!existsSync(dir)) return undefined;
  const now = new Date();
  await utimes(dir, now, now);
  return dir;
}

/**
 * The kept folder `moredoc-<name>-<key>`, made by `make` unless it is there. It is made under
 * another name and renamed once complete, so a folder by that name is always whole (of two
 * runs making it at once, the first rename wins and the other uses it).
 */
export async function kept(name: string, key: string, make: (dir: string) => Promise<void>): Promise<string> {
  const there = await keptIfThere(name, key);
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
