import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './schema';

// The PostgreSQL side of `openPostgres` (index.ts): the pool, how its values are read, and
// what an operator is told when the server cannot be reached.

/** What `openPostgres` needs: the URL as configured (DATABASE_URL) and a shown form of it. */
export interface PostgresOptions {
  url: string;
  /** The URL with its password masked: the only form that reaches a message or a log. */
  label: string;
  poolSize: number;
  /** An idle connection that fails (server restart, network): logged, the pool replaces it. */
  onIdleError?: (error: Error) => void;
  /** Told every query's SQL (tests count the queries of a request). */
  onQuery?: (sql: string) => void;
}

/** The database could not be opened: DATABASE_URL names a server that refuses or is not there. */
export class DatabaseStartError extends Error {
  override name = 'DatabaseStartError';
}

const { builtins } = pg.types;
const toNumber = (value: string): number => Number(value);

/**
 * pg reads bigint and numeric as strings (they may not fit a double). Every integer column is
 * BIGINT here (SQLite's integers are 64-bit), as are count(*) and sum(): read them as numbers,
 * on this pool's connections only (pg.types would change every client in the process).
 */
export const postgresTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === builtins.INT8 || oid === builtins.NUMERIC) return toNumber;
    return pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/** How long a connection attempt (and a wait for a free connection) may take. */
const CONNECT_TIMEOUT_MS = 10_000;

export function postgresPool(options: PostgresOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    types: postgresTypes,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    application_name: 'moredoc-site',
  });
  pool.on('error', (error) => options.onIdleError?.(error));
  // A connection checked out between two queries (inside a transaction) that the server cuts
  // (restart, shutdown) emits 'error' with none of the pool's listeners on it: unheard, that
  // would end the process. The query under way, or the next one, fails and says so itself
  // (an idle connection's error reaches the pool's listener above as well).
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/** Why a connection failed, in words that never hold the password (pg's messages do not). */
function reasonOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length) return reasonOf(error.errors[0]);
  if (error instanceof Error) {
    const code = (error as { code?: string }).code;
    return error.message || code || error.name;
  }
  return String(error);
}

/**
 * Opens the pool and checks that a connection can be made, so that a wrong URL, password or
 * host stops the start with one line naming DATABASE_URL.
 */
export async function connectPostgres(options: PostgresOptions): Promise<Kysely<DB>> {
  let pool: pg.Pool;
  try {
    pool = postgresPool(options);
  } catch (error) {
    // pg parses the URL here (sslrootcert and friends are read at this point too).
    throw new DatabaseStartError(`DATABASE_URL cannot be used (${options.label}): ${reasonOf(error)}`);
  }
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseStartError(`DATABASE_URL: cannot connect to PostgreSQL (${options.label}): ${reasonOf(error)}`);
  }
  const { onQuery } = options;
  return new Kysely<DB>({
    dialect: new PostgresDialect({ pool }),
    ...(onQuery ? { log: (event) => onQuery(event.query.sql) } : {}),
  });
}
