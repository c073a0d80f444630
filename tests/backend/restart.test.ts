import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { buildBackend } from '../../backend/app';
import { loadBackendConfig } from '../../backend/config';
import { openDatabase } from '../../backend/db';
import { TOKENIZER_VERSION } from '../../backend/platform/search/bigrams';
import { SqliteSearchIndex } from '../../backend/platform/search/sqlite-search-index';
import { api, login, startBackend, withDatabase } from '../helpers/backend';

const TABLES = ['group', 'permission', 'config', 'navigation', 'language', 'friendlink', 'user'] as const;

async function countRows(dataDir: string): Promise<Record<string, number>> {
  const { default: SQLite } = await import('better-sqlite3');
  const db = new SQLite(path.join(dataDir, 'moredoc.db'), { readonly: true });
  try {
    return Object.fromEntries(
      TABLES.map((t) => [t, (db.prepare(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n]),
    );
  } finally {
    db.close();
  }
}

describe('restart on the same DATA_DIR', () => {
  it('keeps the data, keeps tokens valid and does not duplicate the seed', async () => {
    const first = await startBackend();
    const token = await login(first.url, 'admin', first.adminPassword);
    const created = await api(first.url, 'POST', '/api/v1/group', { token, body: { title: '重启测试组', sort: 5 } });
    expect(created.status).toBe(200);
    await first.close({ keepData: true });
    // A site seeded before members could upload keeps its members' group as it was.
    await withDatabase(first.dataDir, (db) =>
      db.updateTable('group').set({ enable_upload: 0 }).where('id', '=', 2).execute(),
    );
    const before = await countRows(first.dataDir);

    const second = await startBackend({ dataDir: first.dataDir });
    try {
      expect(await countRows(first.dataDir)).toEqual(before);
      const group = await api(second.url, 'GET', '/api/v1/group', { query: { id: created.body.id } });
      expect(group.body.title).toBe('重启测试组');
      await withDatabase(first.dataDir, async (db) =>
        expect(await db.selectFrom('group').select('enable_upload').where('id', '=', 2).executeTakeFirst()).toEqual({
          enable_upload: 0,
        }),
      );
      const me = await api(second.url, 'GET', '/api/v1/user', { token });
      expect(me.status).toBe(200);
      expect(me.body.username).toBe('admin');
    } finally {
      await second.close();
    }
  });

  it('brings a search index made by an older tokenizer up to date once it has started', async () => {
    const first = await startBackend();
    await first.close({ keepData: true });
    const opened = await openDatabase(first.dataDir);
    await new SqliteSearchIndex(opened.sqlite, 'document').upsert([
      {
        id: 1,
        title: '广场',
        keywords: '',
        description: '',
        content: '游客在天安门广场上。',
        attributes: { createdAt: '2024-01-01T00:00:00Z' },
      },
    ]);
    opened.sqlite.prepare('UPDATE search_meta SET tokenizer_version = ?').run(TOKENIZER_VERSION - 1);
    await opened.db.destroy();

    const second = await startBackend({ dataDir: first.dataDir });
    try {
      const { default: SQLite } = await import('better-sqlite3');
      const db = new SQLite(path.join(first.dataDir, 'moredoc.db'), { readonly: true });
      const versions = () =>
        db.prepare('SELECT collection, tokenizer_version AS version FROM search_meta ORDER BY collection').all();
      try {
        await expect.poll(versions, { timeout: 10_000 }).toEqual([
          { collection: 'article', version: TOKENIZER_VERSION },
          { collection: 'document', version: TOKENIZER_VERSION },
        ]);
      } finally {
        db.close();
      }
      expect((await api(second.url, 'GET', '/api/v1/settings')).status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('creates the admin once, with a generated password when ADMIN_PASSWORD is unset', async () => {
    const dataDir = fs.mkdtempSync(path.join((await import('node:os')).tmpdir(), 'moredoc-restart-'));
    try {
      const config = loadBackendConfig({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        CONFIG_SECURITY_ENABLE_CAPTCHA_LOGIN: 'false',
      });
      const first = await buildBackend(config, { logger: false });
      const admin = first.initialAdmin;
      expect(admin).toMatchObject({ username: 'admin', generated: true });
      expect(admin!.password.length).toBeGreaterThanOrEqual(12);
      const address = await first.listen({ host: '127.0.0.1', port: 0 });
      expect(await login(address, 'admin', admin!.password)).toBeTruthy();
      await first.close();
      // The generated login key is kept in the database, not in DATA_DIR, and stays.
      expect(fs.existsSync(path.join(dataDir, 'jwt-secret'))).toBe(false);
      const storedKey = () =>
        withDatabase(
          dataDir,
          async (db) =>
            (await db.selectFrom('secret').select('value').where('name', '=', 'jwt').executeTakeFirstOrThrow()).value,
        );
      const secret = await storedKey();

      const second = await buildBackend(config, { logger: false });
      expect(second.initialAdmin).toBeNull();
      await second.close();
      expect(await storedKey()).toBe(secret);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('moves the login and download keys an older install kept in DATA_DIR into the database, its tokens still valid', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-restart-'));
    const legacy = {
      jwt: 'legacy-jwt-secret-of-an-older-install',
      download: 'legacy-download-secret-of-an-older-install',
    };
    fs.writeFileSync(path.join(dataDir, 'jwt-secret'), `${legacy.jwt}\n`, { mode: 0o600 });
    fs.writeFileSync(path.join(dataDir, 'download-secret'), `${legacy.download}\n`, { mode: 0o600 });
    const backend = await startBackend({ dataDir });
    try {
      const iat = Math.floor(Date.now() / 1000);
      const token = await new SignJWT({ UserId: 1, UUID: crypto.randomUUID(), HaveAccess: false })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuedAt(iat)
        .setExpirationTime(iat + 3600)
        .setIssuer('moredoc')
        .sign(new TextEncoder().encode(legacy.jwt));
      const me = await api(backend.url, 'GET', '/api/v1/user', { token });
      expect(me.status).toBe(200);
      expect(me.body.username).toBe('admin');
      const stored = await withDatabase(dataDir, (db) =>
        db
          .selectFrom('secret')
          .select(['name', 'value'])
          .where('name', 'in', ['download', 'jwt'])
          .orderBy('name')
          .execute(),
      );
      expect(stored).toEqual([
        { name: 'download', value: legacy.download },
        { name: 'jwt', value: legacy.jwt },
      ]);
      expect(fs.readdirSync(dataDir).filter((name) => name.endsWith('-secret'))).toEqual([]);
    } finally {
      await backend.close();
    }
  });
});

describe('CONFIG_<CATEGORY>_<KEY> on a site that has the setting already', () => {
  it('keeps the stored value and says at start that the variable was not applied', async () => {
    const first = await startBackend({ env: { CONFIG_SYSTEM_SITENAME: '第一个名字' } });
    await first.close({ keepData: true });
    const lines: { level: number; msg: string }[] = [];
    const second = await startBackend({
      dataDir: first.dataDir,
      env: { CONFIG_SYSTEM_SITENAME: '第二个名字', CONFIG_SECURITY_ENABLE_CAPTCHA_LOGIN: 'false' },
      logger: { level: 'warn', stream: { write: (line: string) => void lines.push(JSON.parse(line)) } },
    });
    try {
      const settings = await api(second.url, 'GET', '/api/v1/settings');
      expect(settings.body.system.sitename).toBe('第一个名字');
      // The variable whose value is the stored one is not named.
      expect(lines.filter((line) => line.level === 40).map((line) => line.msg)).toEqual([
        "CONFIG_SYSTEM_SITENAME not applied: the setting system.sitename has a value already, which the variable does not replace; change it in the admin's settings (/admin/config)",
      ]);
    } finally {
      await second.close();
    }
  });
});

describe('ADMIN_PASSWORD on a site whose admin exists', () => {
  it('keeps the admin its password and says at start that the variable was not applied, unless it is that password', async () => {
    const first = await startBackend();
    await first.close({ keepData: true });
    const warnings = async (env: Record<string, string>) => {
      const lines: { level: number; msg: string }[] = [];
      const backend = await startBackend({
        dataDir: first.dataDir,
        env,
        logger: { level: 'warn', stream: { write: (line: string) => void lines.push(JSON.parse(line)) } },
      });
      try {
        return {
          messages: lines.filter((line) => line.level === 40).map((line) => line.msg),
          logins: {
            kept: (
              await api(backend.url, 'POST', '/api/v1/user/login', {
                body: { username: 'admin', password: first.adminPassword },
              })
            ).status,
          },
        };
      } finally {
        await backend.close({ keepData: true });
      }
    };
    try {
      const changed = await warnings({ ADMIN_PASSWORD: 'another-password-1' });
      expect(changed.messages).toEqual([
        'ADMIN_PASSWORD not applied: the admin account exists already and keeps its password, which the variable does not replace; ' +
          'npm run admin:password (node dist/server/scripts/admin-password.mjs in a build or the Docker image) sets it to ADMIN_PASSWORD',
      ]);
      expect(changed.logins.kept).toBe(200);
      // The password the admin has: nothing to say (every instance of the `scale` profile is given it).
      expect((await warnings({ ADMIN_PASSWORD: first.adminPassword })).messages).toEqual([]);
    } finally {
      fs.rmSync(first.dataDir, { recursive: true, force: true });
    }
  });
});
