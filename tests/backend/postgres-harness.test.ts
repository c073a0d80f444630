// The harness the PostgreSQL suites stand on: a real server, fresh databases, password auth.
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { createDatabase, dropDatabase } from '../helpers/postgres';

const clusterUrl = inject('postgresUrl');

describe.skipIf(!clusterUrl)('the test PostgreSQL', () => {
  it('gives each caller its own empty database, and refuses a wrong password', async () => {
    const url = await createDatabase(clusterUrl);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM pg_tables WHERE schemaname = 'public'`,
      );
      expect(rows[0]!.n).toBe('0');
      const version = await client.query<{ server_version_num: string }>('SHOW server_version_num');
      expect(Number(version.rows[0]!.server_version_num)).toBeGreaterThanOrEqual(130000);
    } finally {
      await client.end();
    }
    const wrong = new URL(url);
    wrong.password = 'not-the-password';
    const refused = new pg.Client({ connectionString: wrong.toString() });
    await expect(refused.connect()).rejects.toThrow(/password authentication failed/);
    await refused.end().catch(() => undefined);
    await dropDatabase(url);
  });
});
