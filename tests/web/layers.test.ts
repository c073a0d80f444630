// The web layers' one rule ESLint's import patterns cannot state: features may import other
// features, but never in a circle (the folders' own import patterns are in eslint.config.js).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, folderGraph } from '../helpers/folder-graph';

// vitest runs from the repository root (happy-dom gives import.meta.url no file scheme)
const featureGraph = () => folderGraph(join(process.cwd(), 'web/src/features'), /\.tsx?$/);

describe('web layers', () => {
  it('reads the imports between features, static and lazy', () => {
    const graph = featureGraph();
    expect([...(graph.get('punishment') ?? [])]).toContain('user');
    expect([...(graph.get('session') ?? [])]).toContain('user');
  });

  it('has features import one another without cycles', () => {
    expect(cycles(featureGraph())).toEqual([]);
  });

  // That cycles() finds a cycle when there is one: tests/backend/module-cycles.test.ts.
});
