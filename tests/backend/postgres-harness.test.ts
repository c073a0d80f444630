// The harness the PostgreSQL suites stand on: a real server, fresh databases, password auth.
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { createDatabase, databaseMadeAhead, dropDatabase, freshDatabase } from '../helpers/postgres';

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

  // On an outside server (TEST_POSTGRES_URL) none is made ahead.
  it.skipIf(!!process.env.TEST_POSTGRES_URL)(
    'makes the next copy of a template while the caller works with the one it was given',
    async () => {
      const template = await createDatabase(clusterUrl);
      const templateName = new URL(template).pathname.slice(1);
      const onTemplate = new pg.Client({ connectionString: template });
      await onTemplate.connect();
      await onTemplate.query('CREATE TABLE marker (n integer)');
      await onTemplate.end();
      const first = await freshDatabase(clusterUrl, templateName);
      const ahead = await databaseMadeAhead(clusterUrl, templateName);
      expect(ahead).toBeDefined();
      // A connection on the template: a copy made now would be refused ("being accessed by other users").
      const holder = new pg.Client({ connectionString: template });
      await holder.connect();
      let second: string;
      try {
        second = await freshDatabase(clusterUrl, templateName);
      } finally {
        await holder.end();
      }
      expect(second).toBe(ahead);
      expect(second).not.toBe(first);
      for (const url of [first, second]) {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          // a copy of the template, its table as the template left it
          expect((await client.query('SELECT n FROM marker')).rows).toEqual([]);
          await client.query('INSERT INTO marker VALUES (1)');
        } finally {
          await client.end();
        }
        await dropDatabase(url);
      }
      // the third, made ahead once the template was free again, goes before its template
      await dropDatabase((await databaseMadeAhead(clusterUrl, templateName))!);
      await dropDatabase(template);
    },
  );
});
