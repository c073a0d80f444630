// The site runs on Node 20.19 and later (package.json `engines`): every package the lock file
// installs must say it runs there too. npm only warns about it (EBADENGINE) and CI carries on,
// so a dependency that moved to Node 22 would otherwise go unnoticed until it breaks.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

interface LockedPackage {
  version?: string;
  engines?: { node?: string } | string[];
}

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockedPackage>;
};

describe('Node versions', () => {
  it('installs only packages that run on the oldest Node the site supports', () => {
    const oldest = semver.minVersion(manifest.engines.node)!.version;
    expect(oldest).toBe('20.19.0');
    const refused: string[] = [];
    let checked = 0;
    for (const [path, info] of Object.entries(lock.packages)) {
      const range = Array.isArray(info.engines) ? undefined : info.engines?.node;
      if (path === '' || range === undefined) continue;
      checked++;
      if (!semver.satisfies(oldest, range) || !semver.satisfies(process.versions.node, range))
        refused.push(`${path}@${info.version ?? '?'} needs node ${range}`);
    }
    expect(checked).toBeGreaterThan(100);
    expect(refused).toEqual([]);
  });
});
