import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../backend/db';

describe('migrations', () => {
  it('run a migration that landed after later ones had already run', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-migrations-'));
    try {
      const first = await openDatabase(dataDir);
      await first.db.destroy();
      // A database made before 004 existed in main, but after a later one had run.
      const raw = new SQLite(path.join(dataDir, 'moredoc.db'));
      raw.exec("DROP TABLE job; DELETE FROM kysely_migration WHERE name = '004_jobs'");
      raw.close();
      const second = await openDatabase(dataDir);
      expect(await second.db.selectFrom('job').select('id').execute()).toEqual([]);
      await second.db.destroy();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
