// A real PostgreSQL for the tests: Debian's server binaries (package `postgresql`, which
// .ci/run installs) started on a throwaway data folder and a free loopback port, one cluster
// per test run (postgres-setup.ts), one fresh database per test file or backend. PostgreSQL
// refuses to run as root: as root, the cluster's processes run as the `postgres` system user.
// TEST_POSTGRES_URL (an existing server's URL, a superuser's) skips the start.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { kept as keptFolder, keyOf } from './kept';
import { freePort } from './ports';

export interface PostgresCluster {
  /** A superuser's URL of the cluster's `postgres` database. */
  url: string;
  stop(): Promise<void>;
  /**
   * Stops the server (fast shutdown: its clients are cut off) and keeps its data; `resume`
   * starts it again on the same port (nothing when it runs). Only for a cluster started here
   * (not TEST_POSTGRES_URL).
   */
  pause?(): Promise<void>;
  resume?(): Promise<void>;
}

/** Where the server's binaries are (the newest major installed), or null when there are none. */
export function postgresBinDir(): string | null {
  if (process.env.POSTGRES_BIN_DIR) return process.env.POSTGRES_BIN_DIR;
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const majors = fs
    .readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  const found = majors
    .map((major) => path.join(root, major, 'bin'))
    .find((dir) => fs.existsSync(path.join(dir, 'postgres')));
  return found ?? null;
}

/** Why PostgreSQL tests cannot run here, or null when they can. */
export function postgresMissing(): string | null {
  if (process.env.TEST_POSTGRES_URL) return null;
  return postgresBinDir()
    ? null
    : 'PostgreSQL server binaries not found (apt-get install postgresql, or set TEST_POSTGRES_URL)';
}

/** As root, the server's own user (`postgres`): PostgreSQL refuses to run as root. */
function serverUser(): { uid: number; gid: number } | Record<string, never> {
  if (process.getuid?.() !== 0) return {};
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

async function waitForServer(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`postgres exited with ${child.exitCode}:\n${log()}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline)
        throw new Error(`postgres did not accept connections in 30 s\n${log()}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * The files of a new cluster as initdb leaves them, with its `postgres` user's password beside
 * them (`pwfile`): made once per PostgreSQL and kept (tests/helpers/kept.ts). A new cluster copies
 * them, 0.2 cpu-s, instead of running initdb, 1.0 (2026-12-08).
 */
async function initializedFiles(
  bin: string,
  user: ReturnType<typeof serverUser>,
): Promise<{ data: string; password: string }> {
  const args = ['-U', 'postgres', '--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8', '--locale=C.UTF-8'];
  const dir = await keptFolder(
    'pg-initdb',
    keyOf([bin, ...args, JSON.stringify(user)]),
    async (made) => {
      const pwfile = path.join(made, 'pwfile');
      fs.writeFileSync(pwfile, `${crypto.randomBytes(12).toString('hex')}\n`);
      if ('uid' in user) {
        fs.chownSync(made, user.uid, user.gid);
        fs.chownSync(pwfile, user.uid, user.gid);
      }
      execFileSync(
        path.join(bin, 'initdb'),
        ['-D', path.join(made, 'data'), ...args, `--pwfile=${pwfile}`, '--no-sync'],
        {
          stdio: 'pipe',
          ...user,
        },
      );
    },
    (made) => fs.existsSync(path.join(made, 'data', 'PG_VERSION')),
  );
  return { data: path.join(dir, 'data'), password: fs.readFileSync(path.join(dir, 'pwfile'), 'utf8').trim() };
}

/**
 * Starts a cluster made for tests: durability off (fsync, synchronous commit), password
 * authentication on TCP (a wrong password is refused, as in production), up to 500 connections.
 * `keepIn`: the cluster's folder, kept when it stops and started again from it when it holds one.
 */
export async function startPostgresCluster(options: { keepIn?: string } = {}): Promise<PostgresCluster> {
  if (process.env.TEST_POSTGRES_URL) return { url: process.env.TEST_POSTGRES_URL, stop: async () => undefined };
  const bin = postgresBinDir();
  if (!bin) throw new Error(postgresMissing()!);
  const kept = options.keepIn !== undefined;
  if (kept) fs.mkdirSync(options.keepIn!, { recursive: true });
  const dir = kept ? path.resolve(options.keepIn!) : fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-pg-'));
  const data = path.join(dir, 'data');
  const pwfile = path.join(dir, 'pwfile');
  const reused = kept && fs.existsSync(path.join(data, 'PG_VERSION'));
  const user = serverUser();
  let password: string;
  if (reused) password = fs.readFileSync(pwfile, 'utf8').trim();
  else {
    const initialized = await initializedFiles(bin, user);
    password = initialized.password;
    fs.writeFileSync(pwfile, `${password}\n`);
    if ('uid' in user) {
      fs.chownSync(dir, user.uid, user.gid);
      fs.chownSync(pwfile, user.uid, user.gid);
    }
    // -a: the owner (the server's user) and the folder's 0700, which the server checks, kept.
    execFileSync('cp', ['-a', initialized.data, data]);
  }
  const port = await freePort();
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  let stderr = '';
  const spawnServer = () => {
    const server = spawn(
      path.join(bin, 'postgres'),
      [
        '-D',
        data,
        '-p',
        String(port),
        '-k',
        dir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'max_connections=500',
        '-c',
        'shared_buffers=128MB',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], ...user },
    );
    server.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-8000);
    });
    return server;
  };
  const shutDown = async (server: ChildProcess) => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    // SIGINT: the fast shutdown (clients disconnected, no checkpoint wait beyond one).
    server.kill('SIGINT');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 10_000)))]);
    clearTimeout(timer);
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  };
  let child = spawnServer();
  try {
    await waitForServer(url, child, () => stderr);
  } catch (error) {
    child.kill('SIGKILL');
    if (!kept) fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    async stop() {
      await shutDown(child);
      if (!kept) fs.rmSync(dir, { recursive: true, force: true });
    },
    pause: () => shutDown(child),
    async resume() {
      // A second server on a running one's folder exits (its lock file), and waitForServer
      // answered by the first left it running past stop(), its folder deleted, for a minute.
      if (child.exitCode === null && child.signalCode === null) return;
      child = spawnServer();
      await waitForServer(url, child, () => stderr);
    },
  };
}

/** The URL of `database` on the cluster of `url`. */
export function databaseUrl(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * One pool per cluster, per process, on its `postgres` database, for creating and dropping the
 * tests' databases: a connection per call cost the server a connection's start (about 20 ms of
 * its CPU) for each of the run's few hundred databases. Its idle connection does not keep the
 * process alive, and one cut by the server (a cluster paused, stopped) is replaced.
 */
const admins = new Map<string, { pool: pg.Pool; version: Promise<number> }>();

function adminOf(url: string): { pool: pg.Pool; version: Promise<number> } {
  const key = databaseUrl(url, 'postgres');
  let admin = admins.get(key);
  if (!admin) {
    // two: a database made ahead (freshDatabase) does not hold up a drop
    const pool = new pg.Pool({ connectionString: key, max: 2, allowExitOnIdle: true });
    pool.on('error', () => undefined);
    const version = pool
      .query<{ v: string }>("SELECT current_setting('server_version_num') AS v")
      .then((r) => Number(r.rows[0]!.v));
    // a pool whose first query failed (no server there) is closed, and the next call makes another
    version.catch(() => {
      admins.delete(key);
      void pool.end();
    });
    admin = { pool, version };
    admins.set(key, admin);
  }
  return admin;
}

/** `sql` on the cluster's admin pool, once more on a fresh connection if the kept one was cut. */
async function adminQuery(url: string, sql: string): Promise<void> {
  try {
    await adminOf(url).pool.query(sql);
  } catch (error) {
    // the server's own refusals carry a SQLSTATE; a connection that died under the query does not
    if ((error as { code?: string }).code) throw error;
    await adminOf(url).pool.query(sql);
  }
}

/**
 * Creates a database (a fresh name unless given), empty or a copy of `template`, and answers its
 * URL. From PostgreSQL 15 on, the template's files are copied as files (STRATEGY = FILE_COPY): a
 * fourth of the server's CPU of the default, which writes every page of the template through the
 * WAL (96 against 23 ms a database here), for the price of a checkpoint, cheap with fsync off.
 */
export async function createDatabase(
  clusterUrl: string,
  name = `test_${crypto.randomBytes(6).toString('hex')}`,
  template?: string,
): Promise<string> {
  const version = await adminOf(clusterUrl).version;
  await adminQuery(
    clusterUrl,
    `CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}${version >= 150000 ? ' STRATEGY = FILE_COPY' : ''}`,
  );
  return databaseUrl(clusterUrl, name);
}

/** The database made ahead for the next freshDatabase call, by cluster and template. */
const madeAhead = new Map<string, Promise<string>>();
const aheadKey = (clusterUrl: string, template?: string) => `${databaseUrl(clusterUrl, 'postgres')} ${template ?? ''}`;

/** The URL of the database made ahead for the next freshDatabase call, once made (undefined: none). */
export function databaseMadeAhead(clusterUrl: string, template?: string): Promise<string> | undefined {
  return madeAhead.get(aheadKey(clusterUrl, template));
}

/**
 * A new database on the run's cluster (createDatabase's), made while the test before ran: each
 * call answers the one made ahead and starts making the next. A CREATE DATABASE waits for two
 * checkpoints (FILE_COPY), 0.7 s at a load of 20, which the test then no longer waits for. On an
 * outside server (TEST_POSTGRES_URL) none is made ahead: one left over would outlive the run,
 * where on the run's own cluster it goes with the cluster's folder.
 */
export async function freshDatabase(clusterUrl: string, template?: string): Promise<string> {
  if (process.env.TEST_POSTGRES_URL) return createDatabase(clusterUrl, undefined, template);
  const key = aheadKey(clusterUrl, template);
  const ahead = madeAhead.get(key);
  madeAhead.delete(key);
  const url = await (ahead ?? Promise.reject(new Error('none made ahead'))).catch(() =>
    createDatabase(clusterUrl, undefined, template),
  );
  const next = createDatabase(clusterUrl, undefined, template);
  // a failure is the next call's to see, which then makes its own
  next.catch(() => undefined);
  madeAhead.set(key, next);
  return url;
}

/** Drops a database made by createDatabase, closing whatever connections are left on it. */
export async function dropDatabase(url: string): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  await adminQuery(url, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}

/**
 * How many other connections to the database `client` is on wait for a lock (a table's, a row's,
 * an advisory one). Only that database: the other test files' databases in the cluster wait for
 * their own locks at the same time. Read afresh on every call: inside a transaction,
 * pg_stat_activity would otherwise show its first look.
 */
export async function lockWaiters(client: pg.Client): Promise<number> {
  await client.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
  );
  return rows[0]!.n;
}
