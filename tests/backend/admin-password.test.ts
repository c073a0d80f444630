// `npm run admin:password` on a running site whose owner lost the password the first start
// printed: a new one, generated (and asked to be changed again) or ADMIN_PASSWORD's.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { adminPassword } from '../../scripts/admin-password';
import { api, login, loginAttempt, startBackend, type StartedBackend } from '../helpers/backend';
import { databaseEnv, TEST_ENGINE } from '../helpers/test-database';

let site: StartedBackend | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

describe('npm run admin:password', { timeout: 30_000 }, () => {
  it('gives the admin a generated password, printed once, ending the old one and its sessions', async () => {
    site = await startBackend({ env: { ADMIN_PASSWORD: '' } });
    const oldToken = await login(site.url, 'admin', site.adminPassword);
    const env = { ...(await databaseEnv(site.dataDir)), DATA_DIR: site.dataDir };
    const printed = await adminPassword(env, 10);
    const password = /New password of "admin" \(.+\): (\S+)\n/.exec(printed)?.[1];
    expect(password).toMatch(/^[\w-]{16}$/);
    expect(password).not.toBe(site.adminPassword);

    expect((await loginAttempt(site.url, 'admin', site.adminPassword)).status).toBe(400);
    expect((await api(site.url, 'GET', '/api/v1/user/permission', { token: oldToken })).status).toBe(401);
    const token = await login(site.url, 'admin', password!);
    // Generated, so the dashboard's checklist asks for it to be changed, as after the first start.
    const checklist = await api(site.url, 'GET', '/api/v1/setup/checklist', { token });
    expect(checklist.body.missing).toContain('admin_password');
  });

  it("sets ADMIN_PASSWORD's password, which the checklist does not ask to change", async () => {
    site = await startBackend({ env: { ADMIN_PASSWORD: '' } });
    const env = { ...(await databaseEnv(site.dataDir)), DATA_DIR: site.dataDir, ADMIN_PASSWORD: 'Chosen-Pass-42' };
    expect(await adminPassword(env, 10)).toMatch(/is now the one in ADMIN_PASSWORD/);
    const token = await login(site.url, 'admin', 'Chosen-Pass-42');
    const checklist = await api(site.url, 'GET', '/api/v1/setup/checklist', { token });
    expect(checklist.body.missing ?? []).not.toContain('admin_password');
  });

  it('refuses a DATA_DIR without a site, creating no admin there', async () => {
    site = await startBackend();
    const empty = await mkdtemp(join(tmpdir(), 'moredoc-no-site-'));
    // On SQLite an empty folder has no moredoc.db; on PostgreSQL the empty database has no admin.
    await expect(adminPassword({ ...(await databaseEnv(empty)), DATA_DIR: empty }, 10)).rejects.toThrow(
      TEST_ENGINE === 'sqlite'
        ? /No site database in .* \(no moredoc\.db\)/
        : /No admin account in .*: start the site once to create it/,
    );
    await rm(empty, { recursive: true, force: true });
  });

  it.runIf(TEST_ENGINE === 'sqlite')(
    'refuses a DATA_DIR that holds no database, and makes neither the folder nor a database there',
    async () => {
      const parent = await mkdtemp(join(tmpdir(), 'moredoc-typo-'));
      const mistyped = join(parent, 'dat');
      try {
        await expect(adminPassword({ DATA_DIR: mistyped }, 10)).rejects.toThrow(
          `No site database in ${mistyped} (no moredoc.db): give the site's DATA_DIR or DATABASE_URL`,
        );
        expect(existsSync(mistyped)).toBe(false);
      } finally {
        await rm(parent, { recursive: true, force: true });
      }
    },
  );
});
