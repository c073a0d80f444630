// The web layers' rules ESLint's import patterns cannot state: features may import other
// features, but never in a circle (the folders' own import patterns are in eslint.config.js), and
// the admin's door to Semi stays out of what a member's dialog loads.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, folderGraph } from '../helpers/folder-graph';

// vitest runs from the repository root (happy-dom gives import.meta.url no file scheme)
const featureGraph = () => folderGraph(join(process.cwd(), 'web/src/features'), /\.tsx?$/);

/** The files of web/src that `file` loads with it: its static imports, transitively (lazy ones come apart). */
function staticClosure(file: string): Set<string> {
  const root = process.cwd();
  const seen = new Set<string>();
  const visit = (path: string) => {
    const name = relative(root, path);
    if (seen.has(name)) return;
    seen.add(name);
    for (const [, specifier] of readFileSync(path, 'utf8').matchAll(/\bfrom\s+'(\.{1,2}\/[^']+)'/g)) {
      const target = resolve(dirname(path), specifier as string);
      const found = ['.ts', '.tsx', '/index.ts', '/index.tsx'].map((ext) => target + ext).find((p) => existsSync(p));
      if (found) visit(found);
    }
  };
  visit(join(root, file));
  return seen;
}

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
  // tests, seconds more before the dialog shows, past the limit of a findBy on a busy machine.
  it("keeps the admin's door to Semi out of the member's sign-in-again dialog", () => {
    const dialog = staticClosure('web/src/features/auth/SignInAgainDialog.tsx');
    expect(dialog).toContain('web/src/ui/Modal.tsx');
    expect(dialog).not.toContain('web/src/ui/semi-admin.ts');
  });

  // That cycles() finds a cycle when there is one: tests/backend/module-cycles.test.ts.
});
