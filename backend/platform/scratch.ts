import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Scratch folders of the jobs that convert: an original copied from the store, the engine's
// outputs before they move into it. A job removes its own when it ends; a process killed
// mid-job cannot, so each folder carries its process id, and a process that starts running
// jobs removes those whose process is gone (on the same machine: the same temporary folder).

/** The folder of the conversion engine's own scratch folders (platform/convert). */
export const CONVERTER_WORK_DIR = 'moredoc-convert';

/** Where the folders of each kind live, and how their names begin (the pid follows). */
const SCRATCH_NAMES: readonly { folder: string | null; pattern: RegExp }[] = [
  { folder: null, pattern: /^moredoc-(?:document|positions)-(\d+)-/ },
  { folder: CONVERTER_WORK_DIR, pattern: /^(?:job|positions|profiles)-(\d+)-/ },
];

/** Where the scratch folders go: the system's temporary folder (TMPDIR), not DATA_DIR. */
export function scratchRoot(): string {
  return tmpdir();
}

/** A fresh folder `<parent>/<prefix>-<pid>-XXXXXX`; `parent` defaults to the scratch root. */
export function scratchFolder(prefix: string, parent = scratchRoot()): Promise<string> {
  return mkdtemp(join(parent, `${prefix}-${process.pid}-`));
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Removes the scratch folders of processes that no longer run; answers how many went. */
export async function removeAbandonedScratch(root = scratchRoot()): Promise<number> {
  let removed = 0;
  for (const { folder, pattern } of SCRATCH_NAMES) {
    const dir = folder ? join(root, folder) : root;
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      const pid = pattern.exec(name)?.[1];
      if (pid === undefined || processAlive(Number(pid))) continue;
      await rm(join(dir, name), { recursive: true, force: true });
      removed += 1;
    }
  }
  return removed;
}
