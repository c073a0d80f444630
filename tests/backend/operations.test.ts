// What an operator sees of the embedded backend run on its own: its log and its files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildBackend } from '../../backend/app';
import { loadBackendConfig } from '../../backend/config';
import type { FastifyInstance } from 'fastify';
import { api, login } from '../helpers/backend';
import { dropDatabase } from '../helpers/postgres';
import { startS3 } from '../helpers/s3';
import { migratedDatabase } from '../helpers/test-database';

const ADMIN_PASSWORD = 'admin-test-password';

function captureLog() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, stream };
}

async function start(level: string, env: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-ops-'));
  const log = captureLog();
  const config = loadBackendConfig({
    DATA_DIR: dataDir,
    ADMIN_PASSWORD,
    LOG_LEVEL: level,
    CONFIG_SECURITY_ENABLE_CAPTCHA_LOGIN: 'false',
    ...env,
  });
  const app = await buildBackend(config, { logger: { level, stream: log.stream }, passwordCost: 10 });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url, dataDir, log };
}

describe('the backend on its own at LOG_LEVEL=info', () => {
  let site: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    site = await start('info');
  });
  afterAll(async () => {
    await site.app.close();
    fs.rmSync(site.dataDir, { recursive: true, force: true });
  });

  it('writes one access line per request, naming the route and never the query or a token', async () => {
    const before = site.log.lines.length;
    await fetch(`${site.url}/api/v1/settings?password=hunter2`);
    await fetch(`${site.url}/download/eyJhbGciOiJIUzI1NiJ9.secret.sig?user_id=1`);
    await fetch(`${site.url}/api/v1/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    const lines = site.log.lines.slice(before);
    expect(lines.map((l) => [l.method, l.route, l.status])).toEqual([
      ['GET', '/api/v1/settings', 200],
      ['GET', expect.stringMatching(/^\/download\//), expect.any(Number)],
      ['POST', '/api/v1/user/login', 200],
    ]);
    const text = JSON.stringify(lines);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('secret.sig');
    expect(text).not.toContain(ADMIN_PASSWORD);
    expect(lines.every((l) => typeof l.ms === 'number')).toBe(true);
  });

  it('keeps the database, its WAL and shared memory readable by the owner only', () => {
    for (const name of ['moredoc.db', 'moredoc.db-wal', 'moredoc.db-shm']) {
      const file = path.join(site.dataDir, name);
      expect(fs.existsSync(file), name).toBe(true);
      expect(fs.statSync(file).mode & 0o777, name).toBe(0o600);
    }
  });
});

describe('the backend on its own at LOG_LEVEL=warn', () => {
  let app: FastifyInstance;
  let log: ReturnType<typeof captureLog>;
  let dataDir: string;
  let url: string;
  beforeAll(async () => {
    ({ app, log, dataDir, url } = await start('warn'));
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('logs nothing for answered requests', async () => {
    await fetch(`${url}/api/v1/settings`);
    await fetch(`${url}/api/v1/nothing-here`);
    expect(log.lines.filter((l) => l.method)).toEqual([]);
  });
});

describe.skipIf(!inject('postgresUrl'))('a backend on PostgreSQL that has served nothing yet', () => {
  it('answers the settings every page needs from memory while the database is away', async () => {
    const url = await migratedDatabase();
    const name = new URL(url).pathname.slice(1);
    const site = await start('silent', { DATABASE_URL: url });
    const admin = new pg.Client({ connectionString: inject('postgresUrl') });
    await admin.connect();
    try {
      // An instance just started (a restart, one more behind the load balancer) when the database goes away.
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
      const settings = await fetch(`${site.url}/api/v1/settings`);
      expect(settings.status).toBe(200);
      expect(((await settings.json()) as { system: { sitename: string } }).system.sitename).toBe('魔豆文库');
      const list = await fetch(`${site.url}/api/v1/document/list?page=1`);
      expect([list.status, ((await list.json()) as { message: string }).message]).toEqual([
        503,
        '数据库暂时不可用，请稍后再试',
      ]);
    } finally {
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
      await site.app.close();
      await admin.end();
      await dropDatabase(url);
      fs.rmSync(site.dataDir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!inject('postgresUrl'))('two backends on PostgreSQL, a setting changed through one', () => {
  it('the other answers the settings with the change from memory while the database is away, though it served none since', async () => {
    const url = await migratedDatabase();
    const name = new URL(url).pathname.slice(1);
    const first = await start('silent', { DATABASE_URL: url });
    const second = await start('silent', { DATABASE_URL: url });
    const admin = new pg.Client({ connectionString: inject('postgresUrl') });
    await admin.connect();
    try {
      const token = await login(first.url, 'admin', ADMIN_PASSWORD);
      const list = await api(first.url, 'GET', '/api/v1/config/list', { token, query: { category: ['security'] } });
      const row = (list.body.config as { id: number; name: string }[]).find((c) => c.name === 'enable_captcha_login')!;
      expect(
        (await api(first.url, 'PUT', '/api/v1/config', { token, body: { config: [{ id: row.id, value: 'true' }] } }))
          .status,
      ).toBe(200);
      // The second has taken the change (a NOTIFY): its login captcha is on. Asked nothing of its settings since.
      await expect
        .poll(
          async () => (await api(second.url, 'GET', '/api/v1/user/captcha', { query: { type: 'login' } })).body.enable,
        )
        .toBe(true);
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
      const settings = await fetch(`${second.url}/api/v1/settings`);
      expect(settings.status).toBe(200);
      expect(
        ((await settings.json()) as { security: { enable_captcha_login: boolean } }).security.enable_captcha_login,
      ).toBe(true);
    } finally {
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
      await second.app.close();
      await first.app.close();
      await admin.end();
      await dropDatabase(url);
      for (const site of [first, second]) fs.rmSync(site.dataDir, { recursive: true, force: true });
    }
  });
});

describe('an install made before the database was private', () => {
  it('narrows the files of the database to the owner at the next start', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-ops-'));
    try {
      const first = await buildBackend(loadBackendConfig({ DATA_DIR: dataDir, ADMIN_PASSWORD, LOG_LEVEL: 'silent' }), {
        logger: false,
        passwordCost: 10,
      });
      await first.close();
      fs.chmodSync(path.join(dataDir, 'moredoc.db'), 0o644);
      const second = await buildBackend(loadBackendConfig({ DATA_DIR: dataDir, ADMIN_PASSWORD, LOG_LEVEL: 'silent' }), {
        logger: false,
        passwordCost: 10,
      });
      expect(fs.statSync(path.join(dataDir, 'moredoc.db')).mode & 0o777).toBe(0o600);
      await second.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!inject('postgresUrl'))('a backend on PostgreSQL and S3', () => {
  it('needs no DATA_DIR: the hardware screen of the admin names the disk of the scratch folders', async () => {
    const url = await migratedDatabase();
    const s3 = await startS3();
    const site = await start('silent', { DATABASE_URL: url, ...s3.env });
    try {
      // Nothing of the site is kept there: an instance may run without the folder.
      fs.rmSync(site.dataDir, { recursive: true, force: true });
      const token = await login(site.url, 'admin', ADMIN_PASSWORD);
      const device = await api(site.url, 'GET', '/api/v1/device', { token });
      expect(device.status).toBe(200);
      expect(device.body.disk[0]).toMatchObject({ disk_name: os.tmpdir(), total: expect.any(Number) });
    } finally {
      await site.app.close();
      await s3.stop();
      await dropDatabase(url);
    }
  });
});
