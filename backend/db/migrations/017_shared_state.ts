import { sql, type Kysely } from 'kysely';
import { engineOf } from '../dialect';
import { runStatements } from '../postgres-ddl';

// What every backend process sharing the database must see alike, kept in it instead of in
// each process's memory or DATA_DIR (docs: README "Running with PostgreSQL"):
//   rate_limit      the sign-in limits' counters: one fixed window per client and endpoint
//   captcha         the image captchas handed out, until answered or expired
//   secret          the generated signing keys (login tokens, download links)
//   change_counter  a number bumped with each change of a cached table (the settings), which
//                   each process compares with the one its cache was read at
// On PostgreSQL it also gives the integer columns of 015 and 016 the 64 bits every other
// integer column has, in a database migrated before those two went through runStatements
// (where they are 32-bit); elsewhere the statements change nothing.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE rate_limit (
      key TEXT PRIMARY KEY,
      window_start TEXT NOT NULL,
      hits INTEGER NOT NULL
    )`,
    `CREATE INDEX rate_limit_window ON rate_limit (window_start)`,
    `CREATE TABLE captcha (
      id TEXT PRIMARY KEY,
      answer TEXT NOT NULL,
      attempts INTEGER NOT NULL,
      expires_at TEXT NOT NULL
    )`,
    `CREATE INDEX captcha_expires ON captcha (expires_at)`,
    `CREATE TABLE secret (
      name TEXT PRIMARY KEY,
      value TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
    `CREATE TABLE change_counter (
      name TEXT PRIMARY KEY,
      value INTEGER NOT NULL
    )`,
    `INSERT INTO change_counter (name, value) VALUES ('config', 0)`,
  ]);
  if (engineOf(db) !== 'postgres') return;
  for (const statement of [
    'ALTER TABLE document_content ALTER COLUMN pages TYPE BIGINT',
    'ALTER TABLE reading_position ALTER COLUMN user_id TYPE BIGINT, ALTER COLUMN document_id TYPE BIGINT, ALTER COLUMN page TYPE BIGINT',
  ])
    await sql.raw(statement).execute(db);
}
