// The variables docs/operations.md and the README tell an operator to set are the ones the code
// reads, with the defaults the table says: each row of the Configuration table names a variable
// that changes what the gateway's or the backend's configuration loader makes (or that it refuses,
// naming it), a default written there is what the loaders take when the variable is unset, and
// every other variable the text names is one of that table or one that docker-compose.yml takes.
// A name the code does not read would be set and do nothing.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBackendConfig } from '../../backend/config';
import { loadGatewayConfig } from '../../gateway/config';

const root = join(import.meta.dirname, '../..');

const operations = await readFile(join(root, 'docs/operations.md'), 'utf8');
const readme = await readFile(join(root, 'README.md'), 'utf8');
const compose = await readFile(join(root, 'docker-compose.yml'), 'utf8');

/** The rows of the Configuration table: its variables, and their defaults when the cell is only backticked values. */
function configurationRows(): { names: string[]; defaults: string[] | null }[] {
  const start = operations.indexOf('## Configuration');
  const rows = operations.slice(start, operations.indexOf('\n\n', operations.indexOf('| variable |', start)));
  return rows
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [names = '', defaults = ''] = line.split(' | ').map((cell) => cell.replace(/^\| /, ''));
      return {
        names: [...names.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!),
        defaults: /^`[^`]*`(?:, `[^`]*`)*$/.test(defaults)
          ? [...defaults.matchAll(/`([^`]*)`/g)].map((m) => m[1]!)
          : null,
      };
    });
}

function configurationTable(): string[] {
  return configurationRows().flatMap((row) => row.names);
}

/**
 * A site on PostgreSQL and S3, so that the variables that only count there (`DATABASE_POOL_SIZE`,
 * the `S3_*` ones) are read too.
 */
const SITE = {
  DATABASE_URL: 'postgres://moredoc:secret@127.0.0.1:5432/moredoc',
  S3_BUCKET: 'moredoc',
  S3_ACCESS_KEY_ID: 'key',
  S3_SECRET_ACCESS_KEY: 'secret',
};

/**
 * What the gateway's and the backend's configuration loaders make of `SITE` with `env`, or what
 * they refuse.
 */
function loaded(env: Record<string, string>): string {
  env = { ...SITE, ...env };
  const attempt = (load: () => unknown) => {
    try {
      return JSON.stringify(load());
    } catch (error) {
      return `refused: ${(error as Error).message}`;
    }
  };
  return `${attempt(() => loadGatewayConfig(env))}\n${attempt(() => loadBackendConfig(env))}`;
}

/** The variables docker-compose.yml takes from the shell or `.env` (`${NAME}`, `${NAME:-…}`). */
const composeVariables = new Set([...compose.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]!));

describe('the variables of docs/operations.md', () => {
  it('has a Configuration table', () => {
    expect(configurationTable()).toEqual(expect.arrayContaining(['PORT', 'DATA_DIR', 'DATABASE_URL', 'S3_BUCKET']));
  });

  it("are each read by the gateway's or the backend's configuration", () => {
    const unset = loaded({});
    expect(unset).not.toContain('refused');
    const unread = configurationTable().filter((name) => loaded({ [name]: 'http://probe.example' }) === unset);
    expect(unread).toEqual([]);
  });

  it('have the defaults the table says', () => {
    const unset = loaded({});
    const rows = configurationRows().filter((row) => row.defaults?.length === row.names.length);
    expect(rows.length).toBeGreaterThan(20);
    const differing = rows.flatMap((row) =>
      row.names
        .map((name, i) => [name, row.defaults![i]!] as const)
        .filter(([name, value]) => loaded({ [name]: value }) !== unset),
    );
    expect(differing).toEqual([]);
  });

  it('named anywhere in it or in the README are in its Configuration table or taken by docker-compose.yml', () => {
    const known = new Set([...configurationTable(), ...composeVariables]);
    const named = [...`${operations}\n${readme}`.matchAll(/`([A-Z][A-Z0-9]*_[A-Z0-9_]+)`/g)].map((m) => m[1]!);
    expect([...new Set(named.filter((name) => !known.has(name)))]).toEqual([]);
  });
});
