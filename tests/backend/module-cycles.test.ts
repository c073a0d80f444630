// The backend layers' one rule ESLint's import patterns cannot state: a module may import other
// modules' service.ts and messages.ts (eslint.config.js), but never in a circle, so that each
// module can be read, tested and changed with only the ones below it in mind.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const MODULES = join(process.cwd(), 'backend/modules');
// Every relative specifier: `import … from`, `import type … from`, `export … from` and `import()`.
// Type imports count too: a module that names another's types is written against it.
const IMPORT = /(?:from\s+|import\s*\(\s*)'(\.{1,2}\/[^']+)'/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(entry.name) ? [path] : [];
  });
}

const moduleOf = (path: string): string | undefined => {
  const inside = relative(MODULES, path);
  return inside.startsWith('..') || !inside.includes(sep) ? undefined : inside.split(sep)[0];
};

/** module → the other modules its files import. */
function moduleGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(MODULES)) {
    const from = moduleOf(file) as string;
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const to = moduleOf(resolve(dirname(file), specifier as string));
      if (to && to !== from) edges.add(to);
    }
  }
  return graph;
}

/** Every circle of imports a depth-first walk meets, as the modules on it (empty when there is none). */
function cycles(graph: Map<string, Set<string>>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: string, path: string[]) => {
    state.set(node, 'open');
    for (const next of [...(graph.get(node) ?? [])].sort()) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next, [...path, next]);
    }
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node, [node]);
  return found;
}

describe('backend module layers', () => {
  it('reads the imports between modules, type imports included', () => {
    const graph = moduleGraph();
    expect([...(graph.get('order') ?? [])]).toContain('payment');
    expect([...(graph.get('document') ?? [])]).toContain('user');
  });

  it('has modules import one another without cycles', () => {
    expect(cycles(moduleGraph())).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c', 'a']]);
  });
});
