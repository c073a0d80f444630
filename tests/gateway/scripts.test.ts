import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { compressAssets } from '../../scripts/compress-assets';
import { webBuildNeeded } from '../../scripts/start';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gateway-scripts-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function touch(path: string, secondsAgo: number, content = 'x') {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, content);
  const when = new Date(Date.now() - secondsAgo * 1000);
  await utimes(path, when, when);
}

describe('npm start: is the SPA build stale?', () => {
  it('builds when web/dist is missing', async () => {
    await touch(join(dir, 'web/src/main.tsx'), 100);
    expect(webBuildNeeded(dir)).toBe('web/dist is missing');
  });

  it('builds when web/dist has no first-screen build (one made before it existed)', async () => {
    await touch(join(dir, 'web/src/main.tsx'), 100);
    await touch(join(dir, 'web/dist/index.html'), 10);
    expect(webBuildNeeded(dir)).toBe('web/dist has no first-screen build (.ssr)');
  });

  it('builds when a web or shared source is newer than web/dist', async () => {
    await touch(join(dir, 'web/dist/index.html'), 50);
    await touch(join(dir, 'web/dist/.ssr/entry-server.js'), 50);
    await touch(join(dir, 'web/src/pages/Home.tsx'), 100);
    expect(webBuildNeeded(dir)).toBeUndefined();
    await touch(join(dir, 'shared/access.ts'), 10);
    expect(webBuildNeeded(dir)).toBe('shared changed since the last build');
  });

  it('does not build when web/dist is newer than every source', async () => {
    await touch(join(dir, 'web/index.html'), 100);
    await touch(join(dir, 'web/src/app/App.tsx'), 100);
    await touch(join(dir, 'web/dist/index.html'), 10);
    await touch(join(dir, 'web/dist/.ssr/entry-server.js'), 10);
    expect(webBuildNeeded(dir)).toBeUndefined();
  });
});

describe('compress-assets', () => {
  it('writes .br and .gz beside each compressible asset, skipping images and tiny files', async () => {
    const js = 'export const x = "文库";\n'.repeat(200);
    await touch(join(dir, 'assets/index-abc.js'), 0, js);
    await touch(join(dir, 'assets/nested/style-def.css'), 0, 'body { color: red; }\n'.repeat(100));
    await touch(join(dir, 'assets/logo-123.png'), 0, 'p'.repeat(5000));
    await touch(join(dir, 'assets/tiny-1.js'), 0, 'x');

    const results = await compressAssets(join(dir, 'assets'));

    expect(results.map((r) => r.file.slice(dir.length)).sort()).toEqual(['/assets/index-abc.js', '/assets/nested/style-def.css']);
    expect(brotliDecompressSync(await readFile(join(dir, 'assets/index-abc.js.br'))).toString()).toBe(js);
    expect(gunzipSync(await readFile(join(dir, 'assets/index-abc.js.gz'))).toString()).toBe(js);
    expect(existsSync(join(dir, 'assets/nested/style-def.css.br'))).toBe(true);
    expect(existsSync(join(dir, 'assets/logo-123.png.br'))).toBe(false);
    expect(existsSync(join(dir, 'assets/tiny-1.js.gz'))).toBe(false);
  });
});
