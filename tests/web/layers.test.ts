// The web layers' rules ESLint's import patterns cannot state: features may import other
// features, but never in a circle (the folders' own import patterns are in eslint.config.js), and
// the admin's door to Semi stays out of what public and member screens load.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, folderGraph } from '../helpers/folder-graph';

// vitest runs from the repository root (happy-dom gives import.meta.url no file scheme)
const featureGraph = () => folderGraph(join(process.cwd(), 'web/src/features'), /\.tsx?$/);

/** The .ts and .tsx files below `dir`. */
const sourcesIn = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesIn(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });

/**
 * The files of web/src that the screens `roots` load, at once or later: their imports, static and
 * lazy (`import('…')`), transitively; each file with the one it was first reached from.
 */
function reachedFrom(roots: string[]): Map<string, string> {
  const root = process.cwd();
  const from = new Map<string, string>();
  const visit = (path: string, parent: string) => {
    const name = relative(root, path);
    if (from.has(name)) return;
    from.set(name, parent);
    for (const [, specifier] of readFileSync(path, 'utf8').matchAll(
      /(?:\bfrom\s+|\bimport\s*\(\s*)'(\.{1,2}\/[^']+)'/g,
    )) {
      const target = resolve(dirname(path), specifier as string);
      const found = ['', '.ts', '.tsx', '/index.ts', '/index.tsx']
        .map((ext) => target + ext)
        .find((p) => existsSync(p) && statSync(p).isFile());
      if (found) visit(found, name);
    }
  };
  for (const path of roots) visit(path, '');
  return from;
}

/** How `file` is reached: the chain of imports from its screen. */
const chainTo = (from: Map<string, string>, file: string): string[] => {
  const chain = [file];
  for (let parent = from.get(file); parent; parent = from.get(parent)) chain.unshift(parent);
  return chain;
};

describe('web layers', () => {
  it('reads the imports between features, static and lazy', () => {
    const graph = featureGraph();
    expect([...(graph.get('punishment') ?? [])]).toContain('user');
    expect([...(graph.get('session') ?? [])]).toContain('user');
  });

  it('has features import one another without cycles', () => {
    expect(cycles(featureGraph())).toEqual([]);
  });

  // ui/semi-admin.ts is the door to Semi's heavy components (Table, Tree, DatePicker…) for the admin's lazy
  // screens. The member's sign-in-again dialog took its Modal through it and so loaded them all: in the web
  // tests, seconds more before the dialog shows, past the limit of a findBy on a busy machine (in the
  // production build, chunks of their own). No public or member screen, nor the shell around every screen, nor
  // anything they load goes through it.
  it("keeps the admin's door to Semi out of every public and member screen and what they load", () => {
    const src = join(process.cwd(), 'web/src');
    const from = reachedFrom([
      join(src, 'app/RootShell.tsx'),
      ...sourcesIn(join(src, 'pages/public')),
      ...sourcesIn(join(src, 'pages/member')),
    ]);
    expect(from.has('web/src/features/auth/SignInAgainDialog.tsx')).toBe(true);
    expect(from.has('web/src/features/report/ReportDialog.tsx')).toBe(true);
    expect(from.has('web/src/ui/semi-admin.ts') ? chainTo(from, 'web/src/ui/semi-admin.ts') : []).toEqual([]);
  });

  // That cycles() finds a cycle when there is one: tests/backend/module-cycles.test.ts.
});
