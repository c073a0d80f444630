// tests/helpers/converters-installed.ts: a test of LibreOffice or calibre is skipped, naming
// the Debian packages to install, when a part it needs is missing, each part checked apart.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partsMissing } from '../helpers/converters-installed';

const FONTS = ['DejaVu Sans', 'Noto Sans CJK SC', 'Noto Serif CJK SC'];
let program: string;

beforeAll(async () => {
  // A LibreOffice of Writer and Impress, without Calc.
  program = join(await mkdtemp(join(tmpdir(), 'converters-installed-')), 'program');
  await mkdir(program);
  for (const library of ['soffice.bin', 'libswlo.so', 'libsdlo.so']) await writeFile(join(program, library), '');
});
afterAll(async () => {
  await rm(join(program, '..'), { recursive: true, force: true });
});

describe("the parts the converters' tests need", () => {
  it("finds Writer without Calc in LibreOffice's program folder", () => {
    const missing = partsMissing(
      { mupdf: { version: '1.28.1' }, libreoffice: { path: join(program, 'soffice.bin'), version: '7.4.7.2' } },
      FONTS,
    );
    expect(missing('writer', 'noto-cjk')).toBeUndefined();
    expect(missing('calc', 'noto-cjk')).toBe('skipped: not installed here (apt-get install libreoffice-calc-nogui)');
    expect(missing('calibre')).toBe('skipped: not installed here (apt-get install calibre)');
  });

  it('needs both Noto CJK families, and names every missing package', () => {
    const missing = partsMissing({ mupdf: { version: '1.28.1' } }, ['DejaVu Sans', 'Noto Sans CJK SC']);
    expect(missing('writer', 'calc', 'noto-cjk')).toBe(
      'skipped: not installed here (apt-get install libreoffice-writer-nogui libreoffice-calc-nogui fonts-noto-cjk)',
    );
    expect(missing()).toBeUndefined();
  });
});
