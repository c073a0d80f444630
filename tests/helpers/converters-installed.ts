// What the tests of LibreOffice and calibre need of the machine, each part checked on its
// own: Debian installs LibreOffice's programs one package each (a Writer without Calc is
// common) and the Chinese fonts apart. A test says what it needs; missing parts skip it
// with the packages to install.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ConverterReport } from '../../backend/platform/convert/detect';

export type ConverterPart = 'writer' | 'calc' | 'calibre' | 'noto-cjk';

const PACKAGES: Record<ConverterPart, string> = {
  writer: 'libreoffice-writer-nogui',
  calc: 'libreoffice-calc-nogui',
  calibre: 'calibre',
  'noto-cjk': 'fonts-noto-cjk',
};

function fontFamilies(): string[] {
  try {
    return execFileSync('fc-list', [':', 'family'], { encoding: 'utf8' })
      .split('\n')
      .flatMap((line) => line.split(','));
  } catch {
    return [];
  }
}

/**
 * From what detectConverters found (and fontconfig's font families): `(…parts) => reason`
 * gives, for a test needing `parts`, undefined when they are all here, else why it is skipped
 * (the packages that are missing).
 */
export function partsMissing(
  tools: ConverterReport,
  families: readonly string[] = fontFamilies(),
): (...parts: ConverterPart[]) => string | undefined {
  // LibreOffice's program folder holds a library per program: Writer's, Calc's.
  const program = tools.libreoffice ? dirname(tools.libreoffice.path) : undefined;
  const here: Record<ConverterPart, boolean> = {
    writer: program !== undefined && existsSync(join(program, 'libswlo.so')),
    calc: program !== undefined && existsSync(join(program, 'libsclo.so')),
    calibre: tools.calibre !== undefined,
    'noto-cjk': families.includes('Noto Sans CJK SC') && families.includes('Noto Serif CJK SC'),
  };
  return (...parts) => {
    const missing = parts.filter((part) => !here[part]);
    return missing.length
      ? `skipped: not installed here (apt-get install ${missing.map((part) => PACKAGES[part]).join(' ')})`
      : undefined;
  };
}
