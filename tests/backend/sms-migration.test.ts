import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { up } from '../../backend/db/migrations/009_sms';

// Migration 009_sms on numbers typed into profiles before mobile numbers signed in.

describe('migration 009_sms', () => {
  it('normalises stored numbers, keeps each on its oldest account only, and makes them unique', async () => {
    const sqlite = new SQLite(':memory:');
    sqlite.exec("CREATE TABLE user (id INTEGER PRIMARY KEY, mobile TEXT NOT NULL DEFAULT '')");
    const insert = sqlite.prepare('INSERT INTO user (id, mobile) VALUES (?, ?)');
    const before: [number, string][] = [
      [1, '+86 138-1234-5678'],
      [2, '13812345678'],
      [3, '010-12345678'],
      [4, ' 13900000000 '],
      [5, ''],
      [6, '010-12345678'],
      [7, '0086 139 0000 0001'],
    ];
    for (const row of before) insert.run(...row);
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    try {
      await up(db);
      const after = sqlite.prepare('SELECT id, mobile FROM user ORDER BY id').all();
      expect(after).toEqual([
        { id: 1, mobile: '13812345678' },
        { id: 2, mobile: '' },
        { id: 3, mobile: '010-12345678' },
        { id: 4, mobile: '13900000000' },
        { id: 5, mobile: '' },
        { id: 6, mobile: '' },
        { id: 7, mobile: '13900000001' },
      ]);
      expect(() => insert.run(8, '13812345678')).toThrow(/UNIQUE constraint failed/);
      insert.run(9, '');
      const tables = sqlite
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'sms_%' ORDER BY name")
        .all();
      expect(tables).toEqual([{ name: 'sms_code' }, { name: 'sms_log' }]);
    } finally {
      await db.destroy();
    }
  });
});
