import {
  Kysely,
  PostgresDialect,
  type PostgresCursor,
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresQueryResult,
} from 'kysely';
import type { CustomTypesConfig, Pool, PoolClient } from 'pg';
import type { DB } from './schema';
import { DatabaseStartError } from './start-error';
import { isUnreachableCode } from './socket-errors';

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
  onQuery?: (sql: string, parameters: readonly unknown[]) => void;
}

// pg loads with this module, which index.ts imports only for DATABASE_URL: a static import would be
// hoisted into the server bundle's head and load pg at every start, SQLite's too.
const { default: pg } = await import('pg');

const { builtins } = pg.types;
const toNumber = (value: string): number => Number(value);

/**
 * pg reads bigint and numeric as strings (they may not fit a double). Every integer column is
 * BIGINT here (SQLite's integers are 64-bit), as are count(*) and sum(): read them as numbers,
 * on this pool's connections only (pg.types would change every client in the process).
 */
export const postgresTypes: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === builtins.INT8 || oid === builtins.NUMERIC) return toNumber;
    return pg.types.getTypeParser(oid, format);
  }) as CustomTypesConfig['getTypeParser'],
};

/** How long a connection attempt (and a wait for a free connection) may take. */
const CONNECT_TIMEOUT_MS = 10_000;

export function postgresPool(options: PostgresOptions): Pool {
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

/** How many statements one connection keeps prepared (each holds its parse tree and plan on the server). */
export const PREPARED_PER_CONNECTION = 200;
/** How many distinct statements the process names at most (the backend has a few hundred). */
const NAMED_STATEMENTS = 2000;
/**
 * The server cannot run a prepared statement as prepared: a table under it changed its columns
 * (0A000, "cached plan must not change result type") or the statement is gone (26000).
 */
const STALE_STATEMENT_CODES = new Set(['0A000', '26000']);

/**
 * The pool as Kysely sees it, with each statement that takes parameters prepared once per
 * connection from its second run on (pg's named statements): PostgreSQL then parses and plans
 * it once per connection instead of on every call. Planning cost more than running the queries
 * of GetDocument and ListDocument (docs/performance.md §8). A statement run once
 * (an IN list of an unusual length, a one-off admin query) stays unnamed, and a connection keeps
 * at most PREPARED_PER_CONNECTION; one whose prepared statement went stale (a migration by
 * another instance) is closed after the failed query, and the pool opens a fresh one.
 */
export class PreparingPool implements PostgresPool {
  /** SQL text → its name once it ran twice, or 1 after its first run. */
  readonly #statements = new Map<string, string | 1>();
  readonly #clients = new WeakMap<PoolClient, PreparingClient>();
  #named = 0;

  constructor(readonly pool: Pool) {}

  async connect(): Promise<PostgresPoolClient> {
    const client = await this.pool.connect();
    let wrapped = this.#clients.get(client);
    if (!wrapped) {
      wrapped = new PreparingClient(client, this);
      this.#clients.set(client, wrapped);
    }
    return wrapped;
  }

  end(): Promise<void> {
    return this.pool.end();
  }

  /** The name to run `text` under, or undefined (run it unnamed). */
  nameOf(text: string): string | undefined {
    const known = this.#statements.get(text);
    if (typeof known === 'string') return known;
    if (known === undefined) {
      if (this.#statements.size < NAMED_STATEMENTS) this.#statements.set(text, 1);
      return undefined;
    }
    const name = `moredoc_${(this.#named += 1)}`;
    this.#statements.set(text, name);
    return name;
  }
}

class PreparingClient implements PostgresPoolClient {
  /** The names prepared on this connection. */
  readonly #prepared = new Set<string>();
  #stale = false;

  constructor(
    private readonly client: PoolClient,
    private readonly pool: PreparingPool,
  ) {}

  query<R>(text: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(
    query: string | PostgresCursor<R>,
    parameters: readonly unknown[] = [],
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    // Kysely streams through a cursor only when given one (the backend never is): passed on.
    if (typeof query !== 'string') return this.client.query(query as never);
    return this.run(query, parameters);
  }

  private async run<R>(text: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>> {
    const values = [...parameters];
    // Without parameters pg sends one simple-protocol message (begin, commit, DDL): kept so.
    let name = values.length ? this.pool.nameOf(text) : undefined;
    if (name && !this.#prepared.has(name)) {
      if (this.#prepared.size >= PREPARED_PER_CONNECTION) name = undefined;
      else this.#prepared.add(name);
    }
    try {
      return (await this.client.query(name ? { name, text, values } : { text, values })) as never;
    } catch (error) {
      if (name && STALE_STATEMENT_CODES.has((error as { code?: string }).code ?? '')) this.#stale = true;
      throw error;
    }
  }

  release(): void {
    // A truthy argument makes pg's pool close the connection instead of keeping it.
    this.client.release(this.#stale || undefined);
  }
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
 * The server is not there for now (refused, cut or unresolved, SQLSTATE class 08, starting up
 * or shutting down: 57P01-57P03, no connection slot left: 53300), not refusing what it was
 * given (a password, a database name, SSL): waiting for it may help.
 */
function serverAway(error: unknown): boolean {
  if (error instanceof AggregateError) return error.errors.some(serverAway);
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (isUnreachableCode(code)) return true;
  if (typeof code === 'string' && (code.startsWith('08') || ['57P01', '57P02', '57P03', '53300'].includes(code)))
    return true;
  return /^(Connection terminated|timeout exceeded when trying to connect)/.test(error.message);
}

/**
 * Opens the pool and checks that a connection can be made, so that a wrong URL, password or
 * host stops the start with one line naming DATABASE_URL.
 */
export async function connectPostgres(options: PostgresOptions): Promise<Kysely<DB>> {
  let pool: Pool;
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
    throw new DatabaseStartError(`DATABASE_URL: cannot connect to PostgreSQL (${options.label}): ${reasonOf(error)}`, {
      away: serverAway(error),
    });
  }
  const { onQuery } = options;
  return new Kysely<DB>({
    dialect: new PostgresDialect({ pool: new PreparingPool(pool) }),
    ...(onQuery ? { log: (event) => onQuery(event.query.sql, event.query.parameters) } : {}),
  });
}
