import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { underConstructionRoutes } from '../../web/src/app/router';

// vitest runs from the repository root (happy-dom gives import.meta.url no file scheme)
const readme = readFileSync(join(process.cwd(), 'README.md'), 'utf8');

describe('README', () => {
  it('lists every route that still shows 建设中, and no other', () => {
    const section = readme.slice(readme.indexOf('Screens still showing 建设中'), readme.indexOf('## Design notes'));
    const listed = [...section.matchAll(/`(\/[^`]*)`/g)].map((m) => m[1]).sort();
    expect(listed).toEqual(underConstructionRoutes.map((r) => r.path).sort());
  });
});
