import { sql, type Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// SMS codes (docs/api.md §6): the codes sent (only their hash), the log of every message,
// and mobile numbers that sign in, so unique per account. Numbers typed into profiles
// before are normalised (`+86 138-1234-5678` → `13812345678`); where two accounts end up
// with the same value, the oldest account keeps it and the others lose it.

const statements = [
  `CREATE TABLE sms_code (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    mobile TEXT NOT NULL,
    purpose TEXT NOT NULL,
    code_hash TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    expires_at TEXT NOT NULL,
    used_at TEXT,
    created_at TEXT NOT NULL
  )`,
  `CREATE INDEX sms_code_mobile ON sms_code (mobile, purpose, id)`,
  `CREATE TABLE sms_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    mobile TEXT NOT NULL,
    purpose TEXT NOT NULL,
    provider TEXT NOT NULL,
    status INTEGER NOT NULL DEFAULT 0,
    error TEXT NOT NULL DEFAULT '',
    biz_id TEXT NOT NULL DEFAULT '',
    content TEXT NOT NULL DEFAULT '',
    ip TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE INDEX sms_log_mobile ON sms_log (mobile, created_at)`,
  `CREATE INDEX sms_log_ip ON sms_log (ip, created_at)`,
  `CREATE INDEX sms_log_created ON sms_log (created_at)`,
];

/** The rule of shared/validation.ts at the time of this migration (kept here: a migration never changes). */
function normalised(value: string): string {
  const digits = value
    .trim()
    .replace(/[\s-]/g, '')
    .replace(/^(\+86|0086|86)(?=1\d{10}$)/, '');
  return /^1[3-9]\d{9}$/.test(digits) ? digits : value.trim();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, statements);
  const { rows } = await sql<{
    id: number;
    mobile: string;
  }>`SELECT id, mobile FROM ${sql.table('user')} WHERE mobile <> '' ORDER BY id`.execute(db);
  const taken = new Set<string>();
  for (const row of rows) {
    let mobile = normalised(row.mobile);
    if (taken.has(mobile)) mobile = '';
    else taken.add(mobile);
    if (mobile !== row.mobile)
      await sql`UPDATE ${sql.table('user')} SET mobile = ${mobile} WHERE id = ${row.id}`.execute(db);
  }
  await runStatements(db, [`CREATE UNIQUE INDEX user_mobile ON user (mobile) WHERE mobile <> ''`]);
}
