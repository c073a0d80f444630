import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routesWithoutScreen } from '../../web/src/app/router';

// vitest runs from the repository root (happy-dom gives import.meta.url no file scheme)
const readme = readFileSync(join(process.cwd(), 'README.md'), 'utf8');

describe('README', () => {
  it('says that every route has its screen, which the router holds', () => {
    expect(routesWithoutScreen.map((r) => r.name)).toEqual([]);
    expect(readme).toContain('Every route of SPEC has its screen');
  });
});
