// The import graph between the folders right below a root (backend modules, SPA features),
// read from the source, and the cycles in it: the rule ESLint's import patterns cannot state.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

// Every relative specifier: `import … from`, `import type … from`, `export … from` and `import()`.
// Type imports count too: a folder that names another's types is written against it.
const IMPORT = /(?:from\s+|import\s*\(\s*)'(\.{1,2}\/[^']+)'/g;

function sourceFiles(dir: string, files: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path, files);
    return files.test(entry.name) ? [path] : [];
  });
}

/** folder → the other folders below `root` its files import (files right in `root` belong to none). */
export function folderGraph(root: string, files: RegExp): Map<string, Set<string>> {
  const folderOf = (path: string): string | undefined => {
    const inside = relative(root, path);
    return inside.startsWith('..') || !inside.includes(sep) ? undefined : inside.split(sep)[0];
  };
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(root, files)) {
    const from = folderOf(file);
    if (!from) continue;
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const to = folderOf(resolve(dirname(file), specifier as string));
      if (to && to !== from) edges.add(to);
    }
  }
  return graph;
}

/** Every circle of imports a depth-first walk meets, as the folders on it (empty when there is none). */
export function cycles(graph: Map<string, Set<string>>): string[][] {
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
