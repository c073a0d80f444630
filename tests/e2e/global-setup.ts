// Browser tests run against the production build of this work tree (the one the Docker test
// checks, made once per run and kept while the sources stay the same): the files see its
// web/dist as inject('webDist'). And they say which fonts their layout checks were made with.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { productionBuild } from '../helpers/production-build';

declare module 'vitest' {
  export interface ProvidedContext {
    webDist: string;
  }
}

/**
 * The fonts Chromium draws the site with on Debian (fontconfig's choice for the site's font
 * stack, whose first installed face is Arial's stand-in): the layout checks (widths, one-line
 * rows at 390 px) were made with them. Another face moves boxes by a fraction of a pixel,
 * which the checks allow, or more.
 */
export const EXPECTED_FONTS = [
  { pattern: 'Arial', family: 'Liberation Sans', text: 'Latin text', pkg: 'fonts-liberation' },
  { pattern: 'sans-serif:lang=zh-cn', family: 'Noto Sans CJK SC', text: 'Chinese text', pkg: 'fonts-noto-cjk' },
];

/** What differs from EXPECTED_FONTS here, one line each. */
export function fontDifferences(match: (pattern: string) => string | undefined = fcMatch): string[] {
  return EXPECTED_FONTS.flatMap(({ pattern, family, text, pkg }) => {
    const found = match(pattern);
    return found === family
      ? []
      : [`${text}: ${family} (Debian package ${pkg}) expected, fontconfig picks ${found ?? 'nothing (no fc-match)'}`];
  });
}

function fcMatch(pattern: string): string | undefined {
  try {
    return execFileSync('fc-match', ['-f', '%{family[0]}', pattern], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const fonts = fontDifferences();
  if (fonts.length)
    process.stdout.write(
      `e2e: not the fonts the layout checks were made with:\n${fonts.map((line) => `  ${line}\n`).join('')}`,
    );
  const build = await productionBuild((files) =>
    process.stdout.write(`e2e: building the site (npm run build on ${files} files of the build context)…\n`),
  );
  project.provide('webDist', join(build, 'web/dist'));
}
