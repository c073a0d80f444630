// The repository stands alone: every Markdown file its code, docs and configuration cite, and every
// relative link of its Markdown files, is a file in the repository. What the project relies on from
// elsewhere (MOREDOC's wire contract, the product's rules) is written in its own docs/.
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

/**
 * Whether `cited`, named in `file`, is in the repository: beside the file, from the root, or from
 * the file's top folder (`platform/README.md` in backend/ is backend/platform/README.md).
 */
function citationFound(file: string, cited: string): boolean {
  const top = relative(root, file).split('/')[0]!;
  return [join(dirname(file), cited), join(root, cited), join(root, top, cited)].some((path) => existsSync(path));
}

// This file's own examples name files that do not exist.
const files = (await textFiles(root)).filter((file) => file !== import.meta.filename);

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
    expect(citationFound(join(root, 'backend/seed.ts'), 'endpoints.md')).toBe(false);
    expect(citationFound(join(root, 'backend/seed.ts'), 'platform/README.md')).toBe(true);
  });

  it('cites only Markdown files that are in the repository', async () => {
    expect(files.length).toBeGreaterThan(500);
    const missing: string[] = [];
    for (const file of files) {
      for (const cited of citedMarkdown(await readFile(file, 'utf8')))
        if (!citationFound(file, cited)) missing.push(`${relative(root, file)}: ${cited}`);
    }
    expect(missing).toEqual([]);
  });

  it("links from its Markdown files only to files in the repository, each relative to the linking file's folder", async () => {
    const markdown = files.filter((file) => file.endsWith('.md'));
    expect(markdown.length).toBeGreaterThan(20);
    const broken: string[] = [];
    for (const file of markdown) {
      for (const target of linkTargets(await readFile(file, 'utf8')))
        if (!existsSync(join(dirname(file), target))) broken.push(`${relative(root, file)}: ${target}`);
    }
    expect(broken).toEqual([]);
  });
});
