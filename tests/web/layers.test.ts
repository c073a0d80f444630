// The web layers' one rule ESLint's import patterns cannot state: features may import other
// features, but never in a circle (the folders' own import patterns are in eslint.config.js).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

// vitest runs from the repository root (happy-dom gives import.meta.url no file scheme)
const FEATURES = join(process.cwd(), 'web/src/features');
const IMPORT = /(?:from\s+|import\s*\(\s*)'(\.{1,2}\/[^']+)'/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const featureOf = (path: string): string | undefined => {
  const inside = relative(FEATURES, path);
  return inside.startsWith('..') ? undefined : inside.split(sep)[0];
};

/** feature → the other features its files import. */
function featureGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(FEATURES)) {
    const from = featureOf(file) as string;
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const to = featureOf(resolve(dirname(file), specifier as string));
      if (to && to !== from) edges.add(to);
    }
  }
  return graph;
}

/** Every circle of imports, as the features on it (empty when there is none). */
function cycles(graph: Map<string, Set<string>>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: string, path: string[]) => {
    state.set(node, 'open');
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next, [...path, next]);
    }
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node, [node]);
  return found;
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

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c', 'a']]);
  });
});
