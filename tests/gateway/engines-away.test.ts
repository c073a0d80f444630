// A web instance or a worker started while PostgreSQL or the S3 service is away: it starts all
// the same, waits for the engine (backend/platform/engine-away.ts) and is ready once it answers,
// with the jobs queued before it. Real engines: a PostgreSQL cluster of this file's own, stopped
// and started again (tests/helpers/postgres.ts), and the S3 test server stopped on its port.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedBackend, type EmbeddedBackend } from '../../gateway/embedded-backend';
import { createDatabase, postgresMissing, startPostgresCluster, type PostgresCluster } from '../helpers/postgres';
import { startS3, type TestS3 } from '../helpers/s3';
import { CAPTCHAS_OFF, TEST_ADMIN_PASSWORD } from '../helpers/test-env';
import { gatewayProcessEnv, send, startGateway, type TestGateway } from './helpers';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/**
 * START_RETRY_MS: a start tries again after 0.1, 0.2, then every 0.5 s, not 1, 2 and 5 s: each test waits
 * for a try after the engine is back, and the worker's for two tries while it is away.
 */
const RETRY_ENV = { START_RETRY_MS: '100' };
const BASE_ENV = { ...CAPTCHAS_OFF, LOG_LEVEL: 'silent', ADMIN_PASSWORD: TEST_ADMIN_PASSWORD, ...RETRY_ENV };

const dirs: string[] = [];
const backends: EmbeddedBackend[] = [];
const gateways: TestGateway[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const gateway of gateways.splice(0)) await gateway.close();
  for (const backend of backends.splice(0)) await backend.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'moredoc-away-'));
  dirs.push(dir);
  return dir;
}

/** The gateway with the embedded backend, as `npm start` builds them, started with `env`. */
async function webInstance(env: Record<string, string>) {
  const backend = await startEmbeddedBackend({ ...BASE_ENV, DATA_DIR: await dataDir(), ...env });
  backends.push(backend);
  const gateway = await startGateway(
    '',
    { backendUrl: undefined },
    {
      viewFiles: backend.viewFiles,
      dispatcher: backend.dispatcher,
      backendChanges: backend.backendChanges,
      sessionChanges: backend.sessionChanges,
    },
  );
  gateways.push(gateway);
  return { backend, gateway };
}

describe.skipIf(postgresMissing() !== null)('PostgreSQL away at the start', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('a web instance answers /healthz, and /readyz 503 naming the database, until PostgreSQL is back, then serves', async () => {
    const url = await createDatabase(cluster.url);
    await cluster.pause!();
    let resumed = false;
    try {
      const { backend, gateway } = await webInstance({ DATABASE_URL: url });
      expect(backend.waited).toBe(true);
      expect((await send(`${gateway.url}/healthz`)).status).toBe(200);
      const notReady = await send(`${gateway.url}/readyz`);
      expect(notReady.status).toBe(503);
      expect(notReady.json()).toMatchObject({ message: expect.stringContaining('数据库暂时不可用') });
      const call = await send(`${gateway.url}/api/v1/article/list`);
      expect(call.status).toBe(503);

      await cluster.resume!();
      resumed = true;
      await backend.ready;
      const ready = await send(`${gateway.url}/readyz`);
      expect(ready.status, ready.text).toBe(200);
      expect((await send(`${gateway.url}/api/v1/article/list`)).status).toBe(200);
      expect(backend.initialAdmin).toMatchObject({ username: 'admin', generated: false });
    } finally {
      if (!resumed) await cluster.resume!();
    }
  });

  it('the site started as a process prints the admin password it generated once PostgreSQL is back, and it logs in', async () => {
    const url = await createDatabase(cluster.url);
    await cluster.pause!();
    let resumed = false;
    let stdout = '';
    let stderr = '';
    // Through tsx's loader, as `npm start` runs the gateway from source (no ADMIN_PASSWORD: one is generated).
    const site = spawn(process.execPath, ['--import', 'tsx', 'gateway/server.ts'], {
      cwd: ROOT,
      env: gatewayProcessEnv({ ...CAPTCHAS_OFF, ...RETRY_ENV, DATA_DIR: await dataDir(), DATABASE_URL: url }),
    });
    children.push(site);
    site.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    site.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      await expect.poll(() => stdout, { timeout: 30_000 }).toMatch(/running at http:\/\/localhost:\d+/);
      const port = /running at http:\/\/localhost:(\d+)/.exec(stdout)![1];
      // The account is not made yet: the start's frame has no password to give.
      expect(stdout).not.toContain('admin account created');
      expect((await send(`http://127.0.0.1:${port}/readyz`)).status).toBe(503);

      await cluster.resume!();
      resumed = true;
      await expect
        .poll(() => stdout, { timeout: 30_000 })
        .toMatch(/admin account created: username "admin", password "\S{6,}"/);
      // In a frame of its own, with the way to a new one: said once, the next start finds the account.
      const frame = stdout.slice(stdout.lastIndexOf('  ┌'));
      expect(frame).toContain('(the password is shown only this once: note it, then change it after logging in)');
      expect(frame).toContain('(lost it? npm run admin:password gives the admin a new one)');
      const password = /admin account created: username "admin", password "(\S+)"/.exec(stdout)![1];
      const login = await send(`http://127.0.0.1:${port}/api/v1/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password }),
      });
      expect(login.status, login.text).toBe(200);
      expect(stdout.match(/admin account created/g)).toHaveLength(1);
    } finally {
      if (!resumed) await cluster.resume!();
    }
    const exited = new Promise((resolve) => site.once('exit', resolve));
    site.kill('SIGTERM');
    expect(await exited, stderr).toBe(0);
  }, 90_000);

  it('a worker waits without exiting, then runs the jobs queued before it', async () => {
    const url = await createDatabase(cluster.url);
    // A web instance makes the schema and queues a job for the workers (RUN_JOBS=false).
    const web = await webInstance({ DATABASE_URL: url, RUN_JOBS: 'false' });
    expect(web.backend.waited).toBe(false);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const now = new Date().toISOString();
    const queued = await client.query<{ id: number }>(
      `INSERT INTO job (kind, payload, max_attempts, run_after, created_at, updated_at)
       VALUES ('search-record.purge', '{}', 1, $1, $1, $1) RETURNING id`,
      [now],
    );
    await client.end();
    const jobId = queued.rows[0]!.id;
    await web.gateway.close();
    gateways.splice(0);
    await web.backend.close();
    backends.splice(0);

    await cluster.pause!();
    let output = '';
    const worker = spawn(process.execPath, ['--import', 'tsx', 'backend/worker.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        ...BASE_ENV,
        DATA_DIR: await dataDir(),
        DATABASE_URL: url,
      },
    });
    children.push(worker);
    worker.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    worker.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      // Two tries at least, the process still there.
      await expect
        .poll(() => output.match(/Waiting for PostgreSQL: DATABASE_URL: cannot connect/g)?.length ?? 0, {
          timeout: 20_000,
        })
        .toBeGreaterThanOrEqual(2);
      expect(worker.exitCode).toBeNull();
      // The waits START_RETRY_MS sets: the first, then twice it.
      expect(output).toMatch(
        /cannot connect[^\n]*; trying again in 0\.1 s\n[^]*cannot connect[^\n]*; trying again in 0\.2 s\n/,
      );
    } finally {
      await cluster.resume!();
    }
    await expect.poll(() => output, { timeout: 30_000 }).toMatch(/worker running jobs/);
    await expect
      .poll(
        async () => {
          const check = new pg.Client({ connectionString: url });
          await check.connect();
          try {
            return (await check.query<{ state: string }>('SELECT state FROM job WHERE id = $1', [jobId])).rows[0]
              ?.state;
          } finally {
            await check.end();
          }
        },
        { timeout: 30_000 },
      )
      .toBe('done');
    expect(worker.exitCode).toBeNull();
  }, 90_000);

  it('a resume of the running cluster starts no second server, which a pause would leave running', async () => {
    await cluster.resume!();
    await cluster.pause!();
    const client = new pg.Client({ connectionString: cluster.url });
    await expect(client.connect()).rejects.toThrow(/ECONNREFUSED/);
    await client.end().catch(() => undefined);
  });
});

describe('the S3 service away at the start', () => {
  let s3: TestS3;
  beforeAll(async () => {
    s3 = await startS3();
  });
  afterAll(() => s3?.stop());

  it('a web instance answers /readyz 503 naming the file store until the S3 server starts, then serves', async () => {
    // Stopped on its port: the instance starts before the S3 server does.
    await s3.pause();
    let resumed = false;
    try {
      const { backend, gateway } = await webInstance(s3.env);
      expect(backend.waited).toBe(true);
      expect((await send(`${gateway.url}/healthz`)).status).toBe(200);
      const notReady = await send(`${gateway.url}/readyz`);
      expect(notReady.status).toBe(503);
      expect(notReady.json()).toMatchObject({ message: expect.stringContaining('文件存储暂时不可用') });

      await s3.resume();
      resumed = true;
      await backend.ready;
      const ready = await send(`${gateway.url}/readyz`);
      expect(ready.status, ready.text).toBe(200);
    } finally {
      if (!resumed) await s3.resume();
    }
  });

  it('a wrong setting still stops the start: no bucket of that name', async () => {
    await expect(webInstance({ ...s3.env, S3_BUCKET: 'no-such-bucket' })).rejects.toThrow(
      /S3_BUCKET: there is no bucket/,
    );
  });
});
