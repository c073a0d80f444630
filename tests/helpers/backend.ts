import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { buildBackend, type BuildBackendOptions } from '../../backend/app';
import { loadBackendConfig } from '../../backend/config';
import type { DB } from '../../backend/db/schema';
import { PostgresSearchIndex } from '../../backend/platform/search/postgres-search-index';
import type { SearchCollection, SearchIndex } from '../../backend/platform/search/search-index';
import { SqliteSearchIndex } from '../../backend/platform/search/sqlite-search-index';
import type { Readable } from 'node:stream';
import type { ViewFiles } from '../../shared/view-files';
import type { TestS3 } from './s3';
import { databaseEnv, databaseOf, dropDatabaseOf, helperDatabaseOf, TEST_ENGINE } from './test-database';
import { CAPTCHAS_OFF, SEARCH_RECORD_LIMIT_OFF, SIGN_IN_LIMIT_OFF, TEST_ADMIN_PASSWORD } from './test-env';

// Starts the real embedded backend on 127.0.0.1, port 0, with a temporary DATA_DIR, on the
// engine under test (test-database.ts: a fresh PostgreSQL database in the server-postgres
// project). Captchas are switched off unless the test's env turns them back on. The tests
// stand where a proxy or gateway would: the backend believes their X-Forwarded-For
// (BACKEND_TRUST_PROXY 127.0.0.1), so that a test can act as many clients.

/**
 * The backends this process started, by URL: `api()` hands its calls to them in process
 * (Fastify's inject, the same routes and hooks without a socket: a third of the time), the
 * URL still answers everyone else.
 */
const inProcess = new Map<string, FastifyInstance>();

/**
 * What the backends of this process logged at level error, the last 50 lines: a test that
 * fails prints them (useBackend, useSiteInBrowser): an answer of 500 says nothing of its cause.
 */
const loggedErrors: string[] = [];
const errorLog = {
  write(line: string) {
    loggedErrors.push(line.length > 4000 ? `${line.slice(0, 4000)}…` : line);
    if (loggedErrors.length > 50) loggedErrors.shift();
  },
};

/** Registers, for the file's tests, the printing of what the backends logged at level error while one that failed ran. */
export function printBackendErrorsOnFailure(): void {
  beforeEach(({ onTestFailed }) => {
    loggedErrors.length = 0;
    onTestFailed(() => {
      if (loggedErrors.length) console.error(`the backend logged, at level error:\n${loggedErrors.join('')}`);
    });
  });
}

export interface StartedBackend {
  url: string;
  dataDir: string;
  adminPassword: string;
  /** its page and cover answers in process, as the gateway beside it gets them */
  viewFiles: ViewFiles<Readable>;
  /** the backend itself, ready: a gateway in this process can answer through it without a socket */
  app: FastifyInstance;
  /** Closes the server; removes the DATA_DIR (and its PostgreSQL database) unless `keepData` (restart tests). */
  close(opts?: { keepData?: boolean }): Promise<void>;
}

export async function startBackend(
  opts: {
    env?: Record<string, string>;
    /** Reuse a DATA_DIR (restart tests); default: a fresh temporary one. */
    dataDir?: string;
    build?: Omit<BuildBackendOptions, 'logger'>;
    /** Keep the files in this S3 server's bucket (its S3_* variables) instead of DATA_DIR. */
    s3?: Pick<TestS3, 'env'>;
    /** Where its log goes instead (tests of what it logs); default: lines at error, printed when a test fails. */
    logger?: BuildBackendOptions['logger'];
  } = {},
): Promise<StartedBackend> {
  const dataDir = opts.dataDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'moredoc-backend-')));
  const config = loadBackendConfig({
    ...CAPTCHAS_OFF,
    ...SIGN_IN_LIMIT_OFF,
    ...SEARCH_RECORD_LIMIT_OFF,
    ...(await databaseEnv(dataDir)),
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    BACKEND_HOST: '127.0.0.1',
    BACKEND_PORT: '0',
    LOG_LEVEL: 'silent',
    ...opts.s3?.env,
    BACKEND_TRUST_PROXY: '127.0.0.1',
    ...opts.env,
  });
  // Cheap password hashing keeps the suites fast; the hashes verify the same way.
  const app = await buildBackend(config, {
    logger: opts.logger ?? { level: 'error', stream: errorLog },
    passwordCost: 10,
    ...opts.build,
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  inProcess.set(address, app);
  return {
    url: address,
    dataDir,
    // `ADMIN_PASSWORD: ''` in env: the first start generates one, as a new site's does.
    adminPassword: app.initialAdmin?.password ?? TEST_ADMIN_PASSWORD,
    viewFiles: app.viewFiles,
    app,
    async close(closeOpts = {}) {
      inProcess.delete(address);
      await app.close();
      if (closeOpts.keepData) return;
      await fs.rm(dataDir, { recursive: true, force: true });
      await dropDatabaseOf(dataDir);
    },
  };
}

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the answer is JSON, else the text. */
  body: T;
  text: string;
}

export type Query = Record<string, string | number | boolean | readonly (string | number | boolean)[] | undefined>;

/** Query string with repeated keys for arrays (`id=1&id=2`), as MOREDOC expects. */
export function toQueryString(query: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A request to `url`: in process when a backend of this process answers there (from 127.0.0.1, as over the socket). */
async function call(
  url: string,
  method: string,
  pathAndQuery: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<Response> {
  const app = inProcess.get(url);
  if (!app) return fetch(url + pathAndQuery, { method, headers, body });
  const res = await app.inject({
    method: method as 'GET',
    url: pathAndQuery,
    headers,
    ...(body !== undefined ? { payload: body } : {}),
  });
  const answered = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) answered.append(name, String(one));
  }
  return new Response(res.rawPayload.length ? new Uint8Array(res.rawPayload) : null, {
    status: res.statusCode,
    headers: answered,
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function api<T = any>(
  url: string,
  method: string,
  apiPath: string,
  opts: { token?: string; body?: unknown; rawBody?: string; query?: Query; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await call(url, method, apiPath + toQueryString(opts.query ?? {}), headers, body);
  const text = await response.text();
  let parsed: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** A sign-in as it is answered, refused or not (`login` wants it to succeed). */
export const loginAttempt = (url: string, username: string, password: string) =>
  api(url, 'POST', '/api/v1/user/login', { body: { username, password } });

export async function login(url: string, username: string, password: string): Promise<string> {
  const res = await loginAttempt(url, username, password);
  if (res.status !== 200) throw new Error(`login ${username} failed: ${res.status} ${res.text}`);
  return res.body.token as string;
}

let memberCounter = 0;

/** Registers a fresh member (default group) and returns its token and user. */
export async function registerMember(
  url: string,
  fields: { username?: string; password?: string; email?: string } = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ token: string; user: any; username: string; password: string }> {
  memberCounter += 1;
  const username = fields.username ?? `member${process.pid}x${memberCounter}`;
  const password = fields.password ?? 'member-password';
  const body: Record<string, string> = { username, password };
  if (fields.email) body.email = fields.email;
  const res = await api(url, 'POST', '/api/v1/user/register', { body });
  if (res.status !== 200) throw new Error(`register ${username} failed: ${res.status} ${res.text}`);
  return { token: res.body.token, user: res.body.user, username, password };
}

export type Member = Awaited<ReturnType<typeof registerMember>>;

export interface BackendFixture {
  readonly url: string;
  readonly dataDir: string;
  readonly adminPassword: string;
  /** Its page and cover answers in process, as the gateway beside it gets them. */
  readonly viewFiles: ViewFiles<Readable>;
  /** The admin's token, logged in once for the whole file. */
  readonly adminToken: string;
  /** A member registered once for the whole file (only with `{ member: true }`). */
  readonly member: Member;
  /** The S3 server whose bucket holds the files (only with `{ s3: true }`). */
  readonly s3: TestS3;
  /** The backend itself (its `server` accepts the sockets a test opens to `url`). */
  readonly app: FastifyInstance;
  /** `api()` as the admin: `admin('GET', '/api/v1/config/list', { query })`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  admin<T = any>(method: string, apiPath: string, opts?: Parameters<typeof api>[3]): Promise<ApiResponse<T>>;
  /** `setConfig()` as the admin, on this backend: `setConfig({ 'security.enable_register': 'false' })`. */
  setConfig(values: Record<string, string>): Promise<void>;
}

/**
 * One backend for a test file: starts it (and logs the admin in, and registers a member when
 * asked) in `beforeAll`, closes it in `afterAll`. `env` may be a function for values that
 * exist only once an earlier `beforeAll` has run (a stub provider's URL).
 */
export function useBackend(
  opts: {
    env?: Record<string, string> | (() => Record<string, string>);
    member?: boolean;
    s3?: boolean;
    build?: Omit<BuildBackendOptions, 'logger'>;
  } = {},
): BackendFixture {
  let backend: StartedBackend | undefined;
  let adminToken = '';
  let member: Member | undefined;
  let s3: TestS3 | undefined;
  beforeAll(async () => {
    // Loaded only when asked for: s3rver is a whole Koa server.
    if (opts.s3) s3 = await (await import('./s3')).startS3();
    backend = await startBackend({
      env: typeof opts.env === 'function' ? opts.env() : opts.env,
      ...(s3 ? { s3 } : {}),
      ...(opts.build ? { build: opts.build } : {}),
    });
    adminToken = await login(backend.url, 'admin', backend.adminPassword);
    if (opts.member) member = await registerMember(backend.url);
  });
  printBackendErrorsOnFailure();
  afterAll(async () => {
    await backend?.close();
    await s3?.stop();
  });
  const started = () => {
    if (!backend) throw new Error('useBackend: the backend starts in beforeAll; use it inside hooks and tests');
    return backend;
  };
  return {
    get url() {
      return started().url;
    },
    get dataDir() {
      return started().dataDir;
    },
    get adminPassword() {
      return started().adminPassword;
    },
    get viewFiles() {
      return started().viewFiles;
    },
    get app() {
      return started().app;
    },
    get adminToken() {
      started();
      return adminToken;
    },
    get member() {
      if (!member) throw new Error('useBackend: pass { member: true } to register a member');
      return member;
    },
    get s3() {
      if (!s3) throw new Error('useBackend: pass { s3: true } to keep the files in S3');
      return s3;
    },
    admin: (method, apiPath, callOpts = {}) => api(started().url, method, apiPath, { token: adminToken, ...callOpts }),
    setConfig: (values) => setConfig(started().url, adminToken, values),
  };
}

/** Sets config values through the admin API: `{ 'security.enable_register': 'false' }`. */
export async function setConfig(url: string, adminToken: string, values: Record<string, string>): Promise<void> {
  const categories = [...new Set(Object.keys(values).map((k) => k.split('.')[0]!))];
  const list = await api(url, 'GET', '/api/v1/config/list', { token: adminToken, query: { category: categories } });
  const config = Object.entries(values).map(([key, value]) => {
    const [category, name] = key.split('.');
    const row = (list.body.config as { id: number; category: string; name: string }[]).find(
      (c) => c.category === category && c.name === name,
    );
    if (!row) throw new Error(`no config key ${key}`);
    return { id: row.id, value };
  });
  const res = await api(url, 'PUT', '/api/v1/config', { token: adminToken, body: { config } });
  if (res.status !== 200) throw new Error(`setConfig failed: ${res.status} ${res.text}`);
}

/**
 * The database of a backend (by its DATA_DIR), on whichever engine it runs, for fixtures that
 * no API can create (documents in a given state, rows moved back in time) and for reading
 * what an API stored. Everything else goes through the API.
 */
export async function withDatabase<T>(dataDir: string, work: (db: Kysely<DB>) => T | Promise<T>): Promise<T> {
  // PostgreSQL: the helpers' pool on this DATA_DIR's database, kept until the database goes
  const shared = helperDatabaseOf(dataDir);
  if (shared) return work(shared);
  const { default: SQLite } = await import('better-sqlite3');
  const sqlite = new SQLite(path.join(dataDir, 'moredoc.db'));
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}

/** A search index of a backend's database (by its DATA_DIR), on whichever engine it runs. */
export async function withSearchIndex<T>(
  dataDir: string,
  collection: SearchCollection,
  work: (index: SearchIndex) => Promise<T>,
): Promise<T> {
  if (databaseOf(dataDir)) return withDatabase(dataDir, (db) => work(new PostgresSearchIndex(db, collection)));
  const { default: SQLite } = await import('better-sqlite3');
  const sqlite = new SQLite(path.join(dataDir, 'moredoc.db'));
  sqlite.pragma('busy_timeout = 5000');
  try {
    return await work(new SqliteSearchIndex(sqlite, collection));
  } finally {
    sqlite.close();
  }
}

export { TEST_ENGINE };
