import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { compressAssets } from '../../scripts/compress-assets';
import { buildWeb, webBuildNeeded } from '../../scripts/start';
import { runPlan, TIERS, type Step } from '../../scripts/test';
import vitestConfig from '../../vitest.config';

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

describe('npm start: the SPA build in one line', () => {
  const build = (script: string) => {
    const printed = { out: '', err: '' };
    const ok = buildWeb(
      dir,
      'web/dist is missing',
      {
        out: (t) => {
          printed.out += t;
        },
        err: (t) => {
          printed.err += t;
        },
      },
      [process.execPath, ['-e', script]],
    );
    return { ok, ...printed };
  };
  const noisy = "for (let i = 0; i < 200; i++) console.log('vite: chunk ' + i); console.error('a warning');";

  it('prints one line for a build that succeeds, none of its own output', () => {
    const run = build(noisy);
    expect(run.ok).toBe(true);
    expect(run.out).toMatch(/^Building the SPA \(web\/dist is missing\)… done in \d+ s\n$/);
    expect(run.err).toBe('');
  });

  it("shows the build's whole output when it fails, and says so", () => {
    const run = build(`${noisy} process.exit(3);`);
    expect(run.ok).toBe(false);
    expect(run.out).toBe('Building the SPA (web/dist is missing)… failed\n');
    expect(run.err).toContain('vite: chunk 0\n');
    expect(run.err).toContain('vite: chunk 199\n');
    expect(run.err).toContain('a warning');
    expect(run.err).toContain('The SPA build failed (exit 3)');
  });

  it('says so when the build command cannot be started', () => {
    let err = '';
    expect(
      buildWeb(
        dir,
        'web/dist is missing',
        {
          out: () => {},
          err: (t) => {
            err += t;
          },
        },
        ['/nonexistent/npm', []],
      ),
    ).toBe(false);
    expect(err).toContain('ENOENT');
    expect(err).toContain('The SPA build failed');
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

    expect(results.map((r) => r.file.slice(dir.length)).sort()).toEqual([
      '/assets/index-abc.js',
      '/assets/nested/style-def.css',
    ]);
    expect(brotliDecompressSync(await readFile(join(dir, 'assets/index-abc.js.br'))).toString()).toBe(js);
    expect(gunzipSync(await readFile(join(dir, 'assets/index-abc.js.gz'))).toString()).toBe(js);
    expect(existsSync(join(dir, 'assets/nested/style-def.css.br'))).toBe(true);
    expect(existsSync(join(dir, 'assets/logo-123.png.br'))).toBe(false);
    expect(existsSync(join(dir, 'assets/tiny-1.js.gz'))).toBe(false);
  });
});

describe('npm test and npm run test:quick (scripts/test.ts)', () => {
  const projectsOf = (steps: readonly Step[]) =>
    steps.flatMap((step) => step.args.flatMap((arg, i) => (step.args[i - 1] === '--project' ? [arg] : [])));
  const node = (name: string, script: string): Step => ({ name, command: process.execPath, args: ['-e', script] });

  it('runs every project of vitest.config.ts in the full tier, with lint and the coverage gate; the quick one leaves out the slow and browser tests', () => {
    const projects = (vitestConfig.test?.projects ?? []).map(
      (project) => (project as { test: { name: string } }).test.name,
    );
    // server-postgres is one of them only where PostgreSQL is installed: the tier names it always.
    expect(projectsOf(TIERS.full.tests).sort()).toEqual([...new Set([...projects, 'server-postgres'])].sort());
    expect(TIERS.full.tests.some((step) => step.args.includes('--coverage'))).toBe(true);
    expect(TIERS.full.beside.map((step) => step.name)).toEqual(['typecheck', 'lint']);
    expect(projectsOf(TIERS.quick.tests).sort()).toEqual(['server', 'shared', 'web']);
    expect(TIERS.quick.beside.map((step) => step.name)).toEqual(['typecheck']);
    // The quick tier on the default engines only (tests/helpers/engines.ts); the full one on every engine.
    expect(TIERS.quick.tests.map((step) => step.env)).toEqual([{ TEST_ENGINES: 'default' }]);
    expect(TIERS.full.tests.every((step) => step.env === undefined)).toBe(true);
  });

  it('gives a step the environment it names, beside the one it inherits', async () => {
    const sees = node(
      'tests',
      `process.exit(process.env.STEP_MARK === 'named' && process.env.PATH === ${JSON.stringify(process.env.PATH)} ? 0 : 4)`,
    );
    expect(await runPlan({ beside: [], tests: [{ ...sees, env: { STEP_MARK: 'named' } }] }, dir, () => undefined)).toBe(
      0,
    );
    expect(await runPlan({ beside: [], tests: [sees] }, dir, () => undefined)).toBe(1);
  });

  it('runs the steps beside the tests at the same time, and passes when all pass', async () => {
    const flag = join(dir, 'flag');
    const shown: string[] = [];
    // The step beside waits for a file that the test step writes: run one after the other, they would never end.
    const waits = node(
      'typecheck',
      `const fs = require('fs'); const t = setInterval(() => { if (fs.existsSync(${JSON.stringify(flag)})) { clearInterval(t); console.log('types ok'); } }, 10); setTimeout(() => process.exit(9), 20000).unref();`,
    );
    const writes = node('tests', `require('fs').writeFileSync(${JSON.stringify(flag)}, '')`);
    expect(await runPlan({ beside: [waits], tests: [writes] }, dir, (text) => shown.push(text))).toBe(0);
    const text = shown.join('');
    expect(text).toContain('typecheck:\ntypes ok');
    expect(text).toMatch(/typecheck: passed in \d+ s\ntests: passed in \d+ s/);
  });

  it("fails when any step fails, showing the failed step's output", async () => {
    const shown: string[] = [];
    const failing = node('lint', `console.error('2 problems'); process.exit(3)`);
    expect(await runPlan({ beside: [failing], tests: [node('tests', '')] }, dir, (text) => shown.push(text))).toBe(1);
    expect(shown.join('')).toContain('lint failed (exit 3):\n2 problems');
    expect(shown.join('')).toContain('lint: FAILED (exit 3)');
    expect(
      await runPlan(
        { beside: [], tests: [node('tests', 'process.exit(1)'), node('more tests', '')] },
        dir,
        () => undefined,
      ),
    ).toBe(1);
  });
});
