// The code checks of `npm test` as package.json runs them: the type check is TypeScript 7's native
// compiler (the `typescript7` alias; `typescript`, 5.9, stays for the tools that read its API, ESLint's
// parser among them) with the repository's compiler options, and Prettier reads the code through Oxc
// (@prettier/plugin-oxc) with the repository's layout (docs/decisions/045).
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as prettier from 'prettier';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const scripts = (JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
  .scripts;

let dir: string;
beforeAll(async () => {
  // inside the repository, so that the compiler finds node_modules' types as for the real check (.tmp/ is
  // not there yet on a fresh clone)
  await mkdir(join(root, '.tmp'), { recursive: true });
  dir = await mkdtemp(join(root, '.tmp/code-checks-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Run {
  code: number;
  output: string;
}

/** `npm run typecheck`'s command, run on a project of `source` alone under the repository's tsconfig.json. */
async function typecheck(source: string): Promise<Run> {
  await writeFile(join(dir, 'checked.ts'), source);
  await writeFile(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ extends: '../../tsconfig.json', files: ['checked.ts'], include: [] }),
  );
  const [command, ...args] = scripts.typecheck!.split(' ');
  const swap: Record<string, string> = {
    '-p': join(dir, 'tsconfig.json'),
    '--tsBuildInfoFile': join(dir, 'tsbuildinfo'),
  };
  const argv = args.map((arg, i) => swap[args[i - 1]!] ?? arg);
  expect(argv).toContain(join(dir, 'tsconfig.json'));
  try {
    const { stdout, stderr } = await promisify(execFile)(command!, argv, { cwd: root });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe('npm run typecheck', () => {
  it("is TypeScript 7's compiler", async () => {
    const [command, ...args] = scripts.typecheck!.split(' ');
    const { stdout } = await promisify(execFile)(command!, [args[0]!, '--version'], { cwd: root });
    expect(stdout).toMatch(/^Version 7\./);
  });

  it("fails on a type error that only the repository's options make one (noUncheckedIndexedAccess), and passes the same code fixed", async () => {
    const failed = await typecheck('const names: string[] = [];\nexport const first: string = names[0];\n');
    expect(failed.code).not.toBe(0);
    expect(failed.output).toMatch(/checked\.ts\(2,14\): error TS2322: Type 'string \| undefined' is not assignable/);
    const passed = await typecheck("const names: string[] = [];\nexport const first: string = names[0] ?? '';\n");
    expect(passed).toEqual({ code: 0, output: '' });
  });
});

describe("Prettier's check (npm run lint)", () => {
  it('reads TypeScript and TSX through Oxc', async () => {
    for (const file of ['backend/app.ts', 'web/src/main.tsx']) {
      expect((await prettier.getFileInfo(join(root, file), { resolveConfig: true })).inferredParser).toBe('oxc-ts');
    }
  });

  it('flags code laid out otherwise than the repository lays it out, and passes it laid out', async () => {
    const filepath = join(root, 'shared/checked.ts');
    const options = { ...(await prettier.resolveConfig(filepath)), filepath };
    const source = 'export const limits = {pageSize:20, "maxPages" : 50}\n';
    expect(await prettier.check(source, options)).toBe(false);
    const formatted = await prettier.format(source, options);
    expect(formatted).toBe('export const limits = { pageSize: 20, maxPages: 50 };\n');
    expect(await prettier.check(formatted, options)).toBe(true);
  });
});
