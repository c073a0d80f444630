import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Database as SQLiteDatabase } from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildBackend, type BuildBackendOptions } from '../../backend/app';
import { loadBackendConfig } from '../../backend/config';
import type { ViewFiles } from '../../gateway/view-files';
import { CAPTCHAS_OFF, TEST_ADMIN_PASSWORD } from './test-env';

// Starts the real embedded backend on 127.0.0.1, port 0, with a temporary DATA_DIR.
// Captchas are switched off unless the test's env turns them back on.

/**
 * The backends this process started, by URL: `api()` hands its calls to them in process
 * (Fastify's inject, the same routes and hooks without a socket: a third of the time), the
 * URL still answers everyone else.
 */
const inProcess = new Map<string, FastifyInstance>();

export interface StartedBackend {
  url: string;
  dataDir: string;
  adminPassword: string;
  /** its page and cover answers in process, as the gateway beside it gets them */
  viewFiles: ViewFiles;
  /** Closes the server; removes the DATA_DIR unless `keepData` (restart tests). */
  close(opts?: { keepData?: boolean }): Promise<void>;
}

export async function startBackend(opts: {
  env?: Record<string, string>;
  /** Reuse a DATA_DIR (restart tests); default: a fresh temporary one. */
  dataDir?: string;
  build?: Omit<BuildBackendOptions, 'logger'>;
} = {}): Promise<StartedBackend> {
  const dataDir = opts.dataDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'moredoc-backend-')));
  const config = loadBackendConfig({
    ...CAPTCHAS_OFF,
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    BACKEND_HOST: '127.0.0.1',
    BACKEND_PORT: '0',
    LOG_LEVEL: 'silent',
    ...opts.env,
  });
  // Cheap password hashing keeps the suites fast; the hashes verify the same way.
  const app = await buildBackend(config, { logger: false, passwordCost: 10, ...opts.build });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  inProcess.set(address, app);
  return {
    url: address,
    dataDir,
    adminPassword: TEST_ADMIN_PASSWORD,
    viewFiles: app.viewFiles,
    async close(closeOpts = {}) {
      inProcess.delete(address);
      await app.close();
      if (!closeOpts.keepData) await fs.rm(dataDir, { recursive: true, force: true });
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
async function call(url: string, method: string, pathAndQuery: string, headers: Record<string, string>, body: string | undefined): Promise<Response> {
  const app = inProcess.get(url);
  if (!app) return fetch(url + pathAndQuery, { method, headers, body });
  const res = await app.inject({ method: method as 'GET', url: pathAndQuery, headers, ...(body !== undefined ? { payload: body } : {}) });
  const answered = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) answered.append(name, String(one));
  }
  return new Response(res.rawPayload.length ? new Uint8Array(res.rawPayload) : null, { status: res.statusCode, headers: answered });
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

export async function login(url: string, username: string, password: string): Promise<string> {
  const res = await api(url, 'POST', '/api/v1/user/login', { body: { username, password } });
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
  readonly viewFiles: ViewFiles;
  /** The admin's token, logged in once for the whole file. */
  readonly adminToken: string;
  /** A member registered once for the whole file (only with `{ member: true }`). */
  readonly member: Member;
  /** `api()` as the admin: `admin('GET', '/api/v1/config/list', { query })`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  admin<T = any>(method: string, apiPath: string, opts?: Parameters<typeof api>[3]): Promise<ApiResponse<T>>;
}

/**
 * One backend for a test file: starts it (and logs the admin in, and registers a member when
 * asked) in `beforeAll`, closes it in `afterAll`. `env` may be a function for values that
 * exist only once an earlier `beforeAll` has run (a stub provider's URL).
 */
export function useBackend(opts: {
  env?: Record<string, string> | (() => Record<string, string>);
  member?: boolean;
  build?: Omit<BuildBackendOptions, 'logger'>;
} = {}): BackendFixture {
  let backend: StartedBackend | undefined;
  let adminToken = '';
  let member: Member | undefined;
  beforeAll(async () => {
    backend = await startBackend({ env: typeof opts.env === 'function' ? opts.env() : opts.env, ...(opts.build ? { build: opts.build } : {}) });
    adminToken = await login(backend.url, 'admin', backend.adminPassword);
    if (opts.member) member = await registerMember(backend.url);
  });
  afterAll(() => backend?.close());
  const started = () => {
    if (!backend) throw new Error('useBackend: the backend starts in beforeAll; use it inside hooks and tests');
    return backend;
  };
  return {
    get url() { return started().url; },
    get dataDir() { return started().dataDir; },
    get adminPassword() { return started().adminPassword; },
    get viewFiles() { return started().viewFiles; },
    get adminToken() {
      started();
      return adminToken;
    },
    get member() {
      if (!member) throw new Error('useBackend: pass { member: true } to register a member');
      return member;
    },
    admin: (method, apiPath, callOpts = {}) => api(started().url, method, apiPath, { token: adminToken, ...callOpts }),
  };
}

/** Sets config values through the admin API: `{ 'security.enable_register': 'false' }`. */
export async function setConfig(url: string, adminToken: string, values: Record<string, string>): Promise<void> {
  const categories = [...new Set(Object.keys(values).map((k) => k.split('.')[0]!))];
  const list = await api(url, 'GET', '/api/v1/config/list', { token: adminToken, query: { category: categories } });
  const config = Object.entries(values).map(([key, value]) => {
    const [category, name] = key.split('.');
    const row = (list.body.config as { id: number; category: string; name: string }[]).find((c) => c.category === category && c.name === name);
    if (!row) throw new Error(`no config key ${key}`);
    return { id: row.id, value };
  });
  const res = await api(url, 'PUT', '/api/v1/config', { token: adminToken, body: { config } });
  if (res.status !== 200) throw new Error(`setConfig failed: ${res.status} ${res.text}`);
}

/**
 * Direct SQL on a running backend's database, for fixtures that no API of this part can
 * create yet (documents, downloads). Everything else goes through the API.
 */
export async function withDatabase<T>(dataDir: string, work: (db: SQLiteDatabase) => T): Promise<T> {
  const { default: SQLite } = await import('better-sqlite3');
  const db = new SQLite(path.join(dataDir, 'moredoc.db'));
  db.pragma('busy_timeout = 5000');
  try {
    return work(db);
  } finally {
    db.close();
  }
}
