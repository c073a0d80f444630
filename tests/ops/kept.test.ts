// The folders tests make once and keep between runs (tests/helpers/kept.ts): the production build is
// one, and links the node_modules of the work tree that made it. A CI clone that made it and was then
// removed left a build whose server bundles found no package; the next clone must make it again.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { kept, keptIfThere } from '../helpers/kept';
import { buildIsWhole } from '../helpers/production-build';

const name = `kept-test-${randomUUID().slice(0, 8)}`;
const removeAfter: string[] = [];

afterEach(async () => {
  for (const entry of await readdir(tmpdir()))
    if (entry.startsWith(`moredoc-${name}-`)) await rm(join(tmpdir(), entry), { recursive: true, force: true });
  for (const dir of removeAfter.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** Stands for a work tree's node_modules (a folder with a marker file), removed after the test. */
async function workTree(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'moredoc-kept-tree-'));
  removeAfter.push(dir);
  await writeFile(join(dir, 'marker'), dir);
  return dir;
}

describe('kept folders', () => {
  it('are made once and found again under the same key', async () => {
    let made = 0;
    const make = async (dir: string) => {
      made += 1;
      await writeFile(join(dir, 'out'), 'made');
    };
    const first = await kept(name, 'a', make);
    const second = await kept(name, 'a', make);
    expect(second).toBe(first);
    expect(made).toBe(1);
    expect(await keptIfThere(name, 'a')).toBe(first);
    expect(await keptIfThere(name, 'b')).toBeUndefined();
  });

  it('make a build again when the work tree whose node_modules it links was removed', async () => {
    const makeLinking = (tree: string) => async (dir: string) => {
      await symlink(tree, join(dir, 'node_modules'), 'dir');
    };
    const removedClone = await workTree();
    const first = await kept(name, 'build', makeLinking(removedClone), buildIsWhole);
    expect(existsSync(join(first, 'node_modules/marker'))).toBe(true);
    await rm(removedClone, { recursive: true, force: true });

    expect(await keptIfThere(name, 'build', buildIsWhole)).toBeUndefined();
    const clone = await workTree();
    const again = await kept(name, 'build', makeLinking(clone), buildIsWhole);
    expect(again).toBe(first);
    expect(existsSync(join(again, 'node_modules/marker'))).toBe(true);
    expect((await readdir(tmpdir())).filter((entry) => entry.startsWith(`moredoc-${name}-build.`))).toEqual([]);
  });
});
