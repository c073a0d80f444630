// The repository stands alone: every Markdown file its code, docs and configuration cite, every
// numbered section of docs/ they cite and every relative link of its Markdown files is in the
// repository. What the project relies on from elsewhere (MOREDOC's wire contract, the product's
// rules) is written in its own docs/.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

/** Folders that are not the project's own text: installed packages, builds, caches, test inputs. */
const SKIPPED = new Set(['node_modules', '.git', 'dist', '.tmp', 'coverage', 'fixtures']);
const TEXT = /\.(ts|tsx|mjs|js|md|ya?ml|sh)$|^(Dockerfile|run)$/;

async function textFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await textFiles(path)));
    else if (TEXT.test(entry.name)) files.push(path);
  }
  return files;
}

/** The Markdown files a text names: `docs/api.md`, `../README.md`, `endpoints.md`. */
function citedMarkdown(text: string): string[] {
  return [...text.matchAll(/(?<![\w./-])((?:\.\.?\/)*[\w.-]+(?:\/[\w.-]+)*\.md)(?![\w/-])/g)].map((m) => m[1]!);
}

/** The relative targets of a Markdown text's links, without their `#fragment`. */
function linkTargets(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!.split('#')[0]!)
    .filter((target) => target !== '' && !/^[a-z][a-z+.-]*:/i.test(target));
}

/** The sections `docs/<name>.md §N` or `§N.M` a text cites, as `[file, section]`. */
function citedSections(text: string): [string, string][] {
  return [...text.matchAll(/(docs\/[\w.-]+\.md)`? §(\d+(?:\.\d+)?)/g)].map((m) => [m[1]!, m[2]!]);
}

/** Whether the Markdown text has a heading numbered `section` (`## 12. Messages`, `### 13.1 Bodies`). */
function hasSection(markdown: string, section: string): boolean {
  return new RegExp(`^#{2,4} ${section.replace('.', '\\.')}(?:\\.(?!\\d)| )`, 'm').test(markdown);
}

/**
 * Whether `cited`, named in `file`, is in the repository: beside the file, from the root, or from
 * the file's top folder (`platform/README.md` in backend/ is backend/platform/README.md).
 */
function citationFound(file: string, cited: string): boolean {
  const top = relative(root, file).split('/')[0]!;
  return [join(dirname(file), cited), join(root, cited), join(root, top, cited)].some((path) => existsSync(path));
}

// Each file's text, read once. This file's own examples name files that do not exist.
const texts = new Map(
  await Promise.all(
    (await textFiles(root))
      .filter((file) => file !== import.meta.filename)
      .map(async (file) => [file, await readFile(file, 'utf8')] as const),
  ),
);

describe('what the repository cites', () => {
  it('reads the names of Markdown files and the targets of links as they are written', () => {
    expect(citedMarkdown('contract: endpoints.md §5.13; see docs/api.md §7 and ../README.md.')).toEqual([
      'endpoints.md',
      'docs/api.md',
      '../README.md',
    ]);
    expect(citedMarkdown('a key.mdx, an address http://x/a.md.gz, note.md5')).toEqual([]);
    expect(linkTargets('[a](docs/api.md#4-signing-in) [b](https://example.com/x.md) [c](#top) [d](../x.md)')).toEqual([
      'docs/api.md',
      '../x.md',
    ]);
    expect(citedSections('(docs/moredoc.md §12; `docs/api.md` §13.1, §4)')).toEqual([
      ['docs/moredoc.md', '12'],
      ['docs/api.md', '13.1'],
    ]);
    expect(hasSection('# T\n\n## 12. Messages\n### 13.1 Bodies\n', '12')).toBe(true);
    expect(hasSection('# T\n\n## 12. Messages\n### 13.1 Bodies\n', '13.1')).toBe(true);
    expect(hasSection('# T\n\n## 12. Messages\n### 13.1 Bodies\n', '1')).toBe(false);
    expect(hasSection('# T\n\n## 12. Messages\n### 13.1 Bodies\n', '13')).toBe(false);
    expect(citationFound(join(root, 'backend/seed.ts'), 'endpoints.md')).toBe(false);
    expect(citationFound(join(root, 'backend/seed.ts'), 'platform/README.md')).toBe(true);
  });

  it('cites only Markdown files that are in the repository', () => {
    expect(texts.size).toBeGreaterThan(500);
    const missing: string[] = [];
    for (const [file, text] of texts) {
      for (const cited of citedMarkdown(text))
        if (!citationFound(file, cited)) missing.push(`${relative(root, file)}: ${cited}`);
    }
    expect(missing).toEqual([]);
  });

  it('cites only sections of docs/ that exist, by their number', () => {
    const cited: string[] = [];
    const missing: string[] = [];
    for (const [file, text] of texts) {
      for (const [doc, section] of citedSections(text)) {
        cited.push(doc);
        const target = texts.get(join(root, doc));
        if (target === undefined || !hasSection(target, section))
          missing.push(`${relative(root, file)}: ${doc} §${section}`);
      }
    }
    expect(cited.length).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });

  it("links from its Markdown files only to files in the repository, each relative to the linking file's folder", () => {
    const markdown = [...texts].filter(([file]) => file.endsWith('.md'));
    expect(markdown.length).toBeGreaterThan(20);
    const broken: string[] = [];
    for (const [file, text] of markdown) {
      for (const target of linkTargets(text))
        if (!existsSync(join(dirname(file), target))) broken.push(`${relative(root, file)}: ${target}`);
    }
    expect(broken).toEqual([]);
  });
});
