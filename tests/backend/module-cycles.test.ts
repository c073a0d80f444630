// The backend layers' one rule ESLint's import patterns cannot state: a module may import other
// modules' service.ts and messages.ts (eslint.config.js), but never in a circle, so that each
// module can be read, tested and changed with only the ones below it in mind.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, folderGraph } from '../helpers/folder-graph';

const moduleGraph = () => folderGraph(join(process.cwd(), 'backend/modules'), /\.ts$/);

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
