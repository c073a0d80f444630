import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isBuiltin } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversionResult } from '../../backend/platform/convert/converter';
import { PACKAGES_OUTSIDE } from '../../backend/platform/thread-modules';
import { indexTerms } from '../../backend/platform/search/bigrams';
import { fixture } from '../helpers/documents';

// The conversion worker (and the gateway's first-screen worker) is a file that piscina loads by
// path. In production the pool is created inside dist/server/{gateway,backend}/server.mjs, so
// `npm run build:server` bundles the worker next to both (backend/platform/thread-modules.ts).
// This runs that script (into a temporary directory instead of dist/server), bundles a probe
// with it, and converts a PDF with the bundled code.

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../..', import.meta.url));

let out: string;
beforeAll(async () => {
  // Inside the repository, so that the bundles find node_modules as dist/server does.
  await mkdir(join(REPO, '.tmp'), { recursive: true });
  out = await mkdtemp(join(REPO, '.tmp', 'bundle-'));
  const scripts = (
    JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts;
  const probe =
    'gateway/convert-probe=tests/ops/convert-probe.ts backend/convert-probe=tests/ops/convert-probe.ts gateway/first-screen-probe=tests/ops/first-screen-probe.ts backend/build-info-probe=tests/ops/build-info-probe.ts gateway/search-probe=tests/ops/search-probe.ts backend/search-probe=tests/ops/search-probe.ts scripts/search-probe=tests/ops/search-probe.ts';
  const command = `${scripts['build:server']!.replaceAll('dist/server', out)} ${probe}`;
  await run('sh', ['-c', command], {
    cwd: REPO,
    env: { ...process.env, PATH: `${join(REPO, 'node_modules/.bin')}:${process.env.PATH}` },
  });
}, 120_000);
afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

describe('npm run build:server and the conversion worker', () => {
  it('bundles the job worker that `npm run start:worker` runs', async () => {
    const scripts = (
      JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    // Through the check that the build is there (tests/ops/npm-start.test.ts).
    expect(scripts['start:worker']).toBe('exec node scripts/start-build.mjs dist/server/backend/worker.mjs');
    expect(existsSync(join(out, 'backend', 'worker.mjs'))).toBe(true);
  });

  it('puts the worker beside both server bundles', () => {
    for (const program of ['gateway', 'backend']) {
      expect(existsSync(join(out, program, 'server.mjs')), program).toBe(true);
      expect(existsSync(join(out, program, 'convert-worker.mjs')), program).toBe(true);
    }
  });

  it.each(['gateway', 'backend'])(
    "gives the bundled worker in dist/server/%s MuPDF's structured-text accessors (mupdf-handle runs before mupdf)",
    async (program) => {
      const worker = pathToFileURL(join(out, program, 'convert-worker.mjs')).href;
      const { stdout } = await run(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `await import(${JSON.stringify(worker)}); process.stdout.write(typeof globalThis.$libmupdf_wasm_Module?._wasm_stext_char_get_quad);`,
        ],
        { cwd: REPO },
      );
      expect(stdout).toBe('function');
    },
    60_000,
  );

  it.each(['gateway', 'backend'])(
    'converts a PDF with code bundled into dist/server/%s',
    async (program) => {
      const pages = join(out, `${program}-pages`);
      const { stdout } = await run(
        process.execPath,
        [join(out, program, 'convert-probe.mjs'), fixture('chinese.pdf'), pages],
        { cwd: REPO },
      );
      const result = JSON.parse(stdout) as ConversionResult;
      expect(result).toMatchObject({ pages: 3, converter: 'mupdf' });
      for (const page of result.pageFiles) expect(existsSync(join(pages, page.file))).toBe(true);
    },
    60_000,
  );
});

describe("npm run build:server and the first screen's worker", () => {
  it('renders a first screen with code bundled into dist/server/gateway, through the worker beside it', async () => {
    // A web build whose first-screen module stands in for web/dist/.ssr/entry-server.js.
    const web = join(out, 'web-dist');
    await mkdir(join(web, '.ssr'), { recursive: true });
    await mkdir(join(web, '.vite'), { recursive: true });
    await writeFile(join(web, '.vite/manifest.json'), '{}');
    await writeFile(
      join(web, '.ssr/entry-server.js'),
      'export async function renderFirstScreen(url, start) { return { html: `<p>${start.settings.system.sitename} ${new URL(url).pathname}</p>`, files: [] }; }\n',
    );
    expect(existsSync(join(out, 'gateway', 'first-screen-worker.mjs'))).toBe(true);
    const { stdout } = await run(process.execPath, [join(out, 'gateway', 'first-screen-probe.mjs'), web], {
      cwd: REPO,
    });
    expect(JSON.parse(stdout)).toEqual({ html: '<p>测试文库 /library</p>', head: '' });
  }, 60_000);
});

describe("npm run build:server and the search index's word list", () => {
  it.each(['gateway', 'backend', 'scripts'])(
    'gives the same index terms with code bundled into dist/server/%s, dictionary words included',
    async (program) => {
      const text = '我们在天安门广场见面';
      const expected = indexTerms(text);
      expect(expected).toEqual(expect.arrayContaining(['天安门', '天安门广场']));
      const { stdout } = await run(process.execPath, [join(out, program, 'search-probe.mjs'), text], { cwd: REPO });
      expect(JSON.parse(stdout)).toEqual(expected);
    },
    60_000,
  );
});

describe('npm run build:server and the build it records', () => {
  it('writes the commit and the time beside the bundles, and the bundled backend reports them (BUILD_HASH wins)', async () => {
    const head = (await run('git', ['rev-parse', 'HEAD'], { cwd: REPO })).stdout.trim();
    const recorded = JSON.parse(await readFile(join(out, 'build-info.json'), 'utf8')) as {
      hash: string;
      build_at: string;
    };
    expect(recorded).toEqual({ hash: head, build_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) });
    const probe = join(out, 'backend', 'build-info-probe.mjs');
    const env = { ...process.env, BUILD_HASH: '', BUILD_AT: '' };
    expect(JSON.parse((await run(process.execPath, [probe], { cwd: REPO, env })).stdout)).toEqual(recorded);
    const tagged = await run(process.execPath, [probe], { cwd: REPO, env: { ...env, BUILD_HASH: 'abc1234' } });
    expect(JSON.parse(tagged.stdout)).toEqual({ ...recorded, hash: 'abc1234' });
  }, 60_000);
});

/** The modules a bundle imports at its top (`import … from "x";`). */
const importsAtTop = (code: string) =>
  new Set([...code.matchAll(/^import\s(?:[^;]*?\sfrom\s*)?"([^"]+)";$/gm)].map((m) => m[1]!));

describe('npm run build:server and what a server loads at its start', () => {
  it.each(['gateway/server', 'backend/server', 'backend/worker', 'scripts/db-copy', 'scripts/blobs-copy'])(
    'dist/server/%s.mjs carries its packages in itself but for the native addons, those that find files of their own by path and those loaded on first use',
    async (bundle) => {
      const code = await readFile(join(out, `${bundle}.mjs`), 'utf8');
      const outside = (name: string) =>
        PACKAGES_OUTSIDE.some((kept) => (kept.endsWith('/*') ? name.startsWith(kept.slice(0, -1)) : name === kept));
      const fromNodeModules = [...importsAtTop(code)].filter((name) => !isBuiltin(name) && !name.startsWith('.'));
      expect(fromNodeModules.filter((name) => !outside(name))).toEqual([]);
      // the packages every server runs on are inside, imported nowhere
      if (bundle !== 'scripts/blobs-copy') expect(code).toContain('// node_modules/kysely/');
      if (!bundle.startsWith('scripts/')) {
        expect(code).toContain('// node_modules/fastify/');
        for (const name of ['fastify', 'kysely', 'jose', 'sanitize-html'])
          expect(code, name).not.toMatch(new RegExp(`(from |import\\()"${name}"`));
      }
    },
  );

  // Alipay's SDK (with urllib), nodemailer, sharp, the AWS SDK (S3) and pg cost a process's start
  // about 0.8 s of CPU that a start does not need: the code imports them with their first use (a
  // bundle hoists every other package import to its top, where it loads at the start, even one of
  // a module the source imports only when needed).
  const LOADED_ON_FIRST_USE = [
    'alipay-sdk',
    'nodemailer',
    'sharp',
    '@aws-sdk/client-s3',
    '@aws-sdk/s3-request-presigner',
    'pg',
  ];

  it.each(['gateway/server', 'backend/server', 'backend/worker'])(
    'dist/server/%s.mjs imports the payment SDK, the mailer, sharp, the S3 SDK and pg where they are used, not at its top',
    async (bundle) => {
      const code = await readFile(join(out, `${bundle}.mjs`), 'utf8');
      const atStart = importsAtTop(code);
      expect(atStart).toContain('better-sqlite3');
      for (const name of LOADED_ON_FIRST_USE) {
        expect(atStart, name).not.toContain(name);
        expect(code, name).toContain(`import("${name}")`);
      }
    },
  );
});
