import { PostgresAdapter, sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';

// Every SQL expression that SQLite and PostgreSQL spell differently, in one place: the stores
// call these and stay one spelling. The two engines keep the same column types (timestamps
// ISO-8601 TEXT, booleans 0/1 integers), so what is left here is functions and operators.

export type Engine = 'sqlite' | 'postgres';

/**
 * Rows per multi-row statement: 500 rows of up to 60 columns bind fewer parameters than either
 * engine takes (SQLite 32,766, PostgreSQL 65,535).
 */
const ROWS_PER_STATEMENT = 500;

/** `items` in runs of ROWS_PER_STATEMENT at most, for one statement each. */
export const chunks = <T>(items: readonly T[]): T[][] =>
  Array.from({ length: Math.ceil(items.length / ROWS_PER_STATEMENT) }, (_, i) =>
    items.slice(i * ROWS_PER_STATEMENT, (i + 1) * ROWS_PER_STATEMENT),
  );

/** Which engine `db` (the database or a transaction of it) talks to. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any Kysely<DB> will do
export function engineOf(db: Kysely<any>): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * `column LIKE pattern`, case-insensitive on both engines as SQLite's LIKE is (for ASCII):
 * ILIKE on PostgreSQL when the pattern holds an ASCII letter. Without one (a Chinese word) SQLite
 * folds nothing, and neither does PostgreSQL's LIKE, which reads 3 times faster than ILIKE: it
 * lowercases every row's text first (the admin's 关键字 over 20,000 documents' title, keywords
 * and description: 0.07 s against 0.2 s). The escape character is given explicitly, since
 * PostgreSQL would otherwise read a backslash as one and SQLite would not (`likePattern` escapes
 * backslashes).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function like(db: Kysely<any>, column: string | Expression<unknown>, pattern: string): RawBuilder<SqlBool> {
  const target = typeof column === 'string' ? sql.ref(column) : column;
  return engineOf(db) === 'postgres' && /[a-z]/i.test(pattern)
    ? sql<SqlBool>`(${target} ILIKE ${pattern} ESCAPE '\\')`
    : sql<SqlBool>`(${target} LIKE ${pattern} ESCAPE '\\')`;
}

/**
 * The pairs of adjacent characters that every text a LIKE pattern matches holds (`\\` escapes, as
 * `likePattern` writes them): those of its runs between wildcards, less the pairs that hold a letter
 * with a case, which ILIKE folds. A GIN index of a column's pairs can then narrow the rows the LIKE
 * compares (the document list's 关键字, migration 038). Empty when no run has two such characters.
 */
export function likePairs(pattern: string): string[] {
  const pairs = new Set<string>();
  let previous: string | undefined;
  let escaped = false;
  for (const char of pattern) {
    if (!escaped && char === '\\') {
      escaped = true;
      continue;
    }
    const literal = escaped || (char !== '%' && char !== '_');
    escaped = false;
    if (!literal || char.toLowerCase() !== char.toUpperCase()) {
      previous = undefined;
      continue;
    }
    if (previous !== undefined) pairs.add(previous + char);
    previous = char;
  }
  return [...pairs];
}

/** `like()` on any of `columns`: a keyword searched in several columns of a row. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function likeAny(db: Kysely<any>, columns: readonly string[], pattern: string): RawBuilder<SqlBool> {
  const matches = columns.map((column) => like(db, column, pattern));
  return sql<SqlBool>`(${sql.join(matches, sql` OR `)})`;
}

/** `max(value, 0)`: the larger of two values is `max()` in SQLite, `greatest()` in PostgreSQL. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function notBelowZero(db: Kysely<any>, value: Expression<number>): RawBuilder<number> {
  return engineOf(db) === 'postgres' ? sql<number>`greatest(${value}, 0)` : sql<number>`max(${value}, 0)`;
}

/**
 * The rows of `query` as one JSON array of objects with these columns, in the order of the
 * column `orderBy`, as text ('[]' for none): a list of rows read inside another statement's row
 * (one round trip where two would do). `json_agg` in PostgreSQL, `json_group_array` in SQLite.
 */
export function jsonRowsOf(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>,
  query: RawBuilder<unknown>,
  columns: readonly string[],
  orderBy: string,
): RawBuilder<string> {
  const object = sql.join(columns.map((column) => sql`${sql.lit(column)}, ${sql.ref(`agg.${column}`)}`));
  const order = sql.ref(`agg.${orderBy}`);
  return engineOf(db) === 'postgres'
    ? sql<string>`(SELECT coalesce(json_agg(json_build_object(${object}) ORDER BY ${order})::text, '[]') FROM (${query}) AS agg)`
    : sql<string>`(SELECT coalesce(json_group_array(json_object(${object}) ORDER BY ${order}), '[]') FROM (${query}) AS agg)`;
}

/** The tables of the database that have a column of this name. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function tablesWithColumn(db: Kysely<any>, column: string): Promise<string[]> {
  const { rows } =
    engineOf(db) === 'postgres'
      ? await sql<{ name: string }>`SELECT c.table_name AS name FROM information_schema.columns c
        JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE c.table_schema = current_schema() AND c.column_name = ${column} AND t.table_type = 'BASE TABLE'`.execute(
          db,
        )
      : await sql<{ name: string }>`SELECT m.name FROM sqlite_master m JOIN pragma_table_info(m.name) c
        WHERE m.type = 'table' AND c.name = ${column}`.execute(db);
  return rows.map((r) => r.name);
}

/**
 * Makes a read-then-write inside a transaction safe from its concurrent twins. PostgreSQL
 * runs transactions side by side (READ COMMITTED, over a pool and across processes):
 * `SELECT … FOR NO KEY UPDATE` on these rows makes any other transaction that locks or
 * updates one of them wait until this one ends, and its next statements then read what this
 * one wrote (the key-less mode an UPDATE takes: a row inserted elsewhere that refers to a
 * locked one, a message to a user, does not wait). Rows are locked in id order; across tables,
 * transactions lock in the order of the `table` type (keys first, then an order, users,
 * groups, documents, articles, comments), an UPDATE counting as a lock, so that two of them
 * never wait on each other: PostgreSQL would end one of them with a deadlock error. SQLite
 * runs one transaction at a time on the backend's single connection: nothing to do there.
 */
export async function lockRows(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  trx: Kysely<any>,
  table: 'orders' | 'user' | 'group' | 'document' | 'article' | 'comment',
  ids: readonly number[],
): Promise<void> {
  if (!trx.isTransaction) throw new Error('lockRows: only inside a transaction');
  const unique = [...new Set(ids.filter((id) => id > 0))].sort((a, b) => a - b);
  if (engineOf(trx) === 'sqlite' || !unique.length) return;
  await sql`SELECT id FROM ${sql.table(table)} WHERE id IN (${sql.join(unique)}) ORDER BY id FOR NO KEY UPDATE`.execute(
    trx,
  );
}

/**
 * `lockRows` for what has no row of its own (a mobile number, a client address, a provider
 * account): PostgreSQL advisory locks on the keys' hashes, held until the transaction ends,
 * taken in a fixed order. A collision of two hashes only makes two transactions take turns.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function lockKeys(trx: Kysely<any>, keys: readonly string[]): Promise<void> {
  if (!trx.isTransaction) throw new Error('lockKeys: only inside a transaction');
  if (engineOf(trx) === 'sqlite') return;
  for (const key of [...new Set(keys)].sort())
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
}

/**
 * The database's clock, as a Date: what every process talking to one database agrees on, where
 * each machine's own clock may drift from the others' (job leases compare times written by one
 * process with another's). PostgreSQL's clock_timestamp() is the server's time at the call, not
 * its transaction's start; SQLite's 'now' is this machine's clock, the only one its file has.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function databaseNow(db: Kysely<any>): Promise<Date> {
  const { rows } = await sql<{ now: string }>`SELECT ${databaseNowText(db)} AS now`.execute(db);
  return new Date(rows[0]!.now);
}

/**
 * The server's day of the database's now, `YYYY-MM-DD`, read in the statement: the day in the process's time
 * zone (TZ, docs/operations.md "Time zone"), the one startOfServerDay starts, as every daily count's. The zone's
 * offset is taken at this machine's now: it differs from the one at the database's now only within an hour of a
 * daylight-saving change on a machine whose clock is off (China keeps none).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function databaseServerDay(db: Kysely<any>): RawBuilder<string> {
  return sql<string>`substr(${databaseNowText(db, -new Date().getTimezoneOffset() * 60_000)}, 1, 10)`;
}

/**
 * databaseNow inside a statement, as the ISO 8601 text timestamps are stored in (compared as
 * text): a check against the database's clock, or a row's time, that costs no round trip of its
 * own. `offsetMs`: that long after it (before it when negative), e.g. the start of a window.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function databaseNowText(db: Kysely<any>, offsetMs = 0): RawBuilder<string> {
  if (!Number.isSafeInteger(offsetMs)) throw new Error(`databaseNowText: offset ${offsetMs} is no whole number of ms`);
  if (engineOf(db) === 'postgres')
    return offsetMs
      ? sql<string>`to_char((clock_timestamp() + ${sql.lit(offsetMs)} * interval '1 millisecond') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
      : sql<string>`to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  return offsetMs
    ? sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${sql.lit(`${offsetMs / 1000} seconds`)})`
    : sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
}
