// Two site instances (each a gateway with its embedded backend, as `npm start` runs them) on one
// PostgreSQL database, as docs/operations.md "Many instances" runs them: what ends a session or
// takes a right away through one instance holds on the other's pages as soon as it commits, not
// when the other's kept copy of the session runs out (its lifetime is made a minute here, so
// that only the telling can end it within the test).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { inProcessBackend } from '../../gateway/embedded-backend';
import { api, login, registerMember, startBackend, type Member, type StartedBackend } from '../helpers/backend';
import { dropDatabase } from '../helpers/postgres';
import { migratedDatabase } from '../helpers/test-database';
import { sameOrigin, send, startDataOf, startGateway, type TestGateway } from './helpers';

const HTML = { accept: 'text/html' };
/** Far longer than the test waits for a change to show: only a change told ends a kept session. */
const SESSION_KEPT_MS = 60_000;
/** How long a change may take to reach the other instance (a NOTIFY, on a busy machine). */
const TOLD_WITHIN_MS = 5_000;

const postgresUrl = inject('postgresUrl');

interface Instance {
  backend: StartedBackend;
  gateway: TestGateway;
}

describe.skipIf(!postgresUrl)('two instances on one PostgreSQL database', () => {
  let databaseUrl: string;
  let a: Instance;
  let b: Instance;
  let adminToken: string;
  let db: pg.Pool;

  const startInstance = async (): Promise<Instance> => {
    const backend = await startBackend({ env: { DATABASE_URL: databaseUrl, CONFIG_SMS_ENABLE: 'true' } });
    const embedded = inProcessBackend(backend.app);
    const gateway = await startGateway('', { sessionCacheTtlMs: SESSION_KEPT_MS }, embedded);
    return { backend, gateway };
  };

  beforeAll(async () => {
    databaseUrl = await migratedDatabase();
    // One after the other: the first seeds the database.
    a = await startInstance();
    b = await startInstance();
    adminToken = await login(a.backend.url, 'admin', a.backend.adminPassword);
    db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  }, 60_000);

  afterAll(async () => {
    await db?.end();
    for (const instance of [b, a]) {
      await instance?.gateway.close();
      await instance?.backend.close();
    }
    if (databaseUrl) await dropDatabase(databaseUrl);
  });

  const page = (instance: Instance, path: string, token: string) =>
    send(`${instance.gateway.url}${path}`, { headers: { ...HTML, cookie: `token=${token}` } });

  /** Asks for the page until its status is `status`, for TOLD_WITHIN_MS at most: the last answer. */
  async function pageOnceItIs(instance: Instance, path: string, token: string, status: number) {
    const deadline = Date.now() + TOLD_WITHIN_MS;
    for (;;) {
      const res = await page(instance, path, token);
      if (res.status === status || Date.now() > deadline) return res;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Signed in, with the member's page served by B (which keeps the session). */
  async function signedInOnB(member: Member, token: string) {
    const served = await page(b, '/member', token);
    expect(served.status).toBe(200);
    expect(startDataOf(served.text).user).toMatchObject({ username: member.username });
  }

  it("ends on B's pages the session logged out through A", async () => {
    const member = await registerMember(a.backend.url);
    const token = await login(a.backend.url, member.username, member.password);
    await signedInOnB(member, token);

    const logout = await send(`${a.gateway.url}/api/v1/user/logout`, {
      method: 'DELETE',
      headers: sameOrigin(a.gateway.url, { cookie: `token=${token}` }),
    });
    expect(logout.status).toBe(200);

    const after = await pageOnceItIs(b, '/member', token, 302);
    expect(after.status).toBe(302);
    expect(after.headers.location).toBe('/auth/login?redirect=%2Fmember');
    expect(after.text).not.toContain(member.username);
  });

  it("ends on B's pages the other sessions of a member who changed the password through A", async () => {
    const member = await registerMember(a.backend.url);
    const here = await login(a.backend.url, member.username, member.password);
    const elsewhere = await login(b.backend.url, member.username, member.password);
    await signedInOnB(member, elsewhere);

    const changed = await send(`${a.gateway.url}/api/v1/user/password`, {
      method: 'PUT',
      headers: sameOrigin(a.gateway.url, { cookie: `token=${here}`, 'content-type': 'application/json' }),
      body: JSON.stringify({ id: member.user.id, old_password: member.password, new_password: 'another-password' }),
    });
    expect(changed.status).toBe(200);

    expect((await pageOnceItIs(b, '/member', elsewhere, 302)).status).toBe(302);
    // The session that changed it goes on, there too.
    expect((await page(b, '/member', here)).status).toBe(200);
  });

  it("refuses on B's admin pages a member whose admin group was taken away through A", async () => {
    const member = await registerMember(a.backend.url);
    const token = await login(a.backend.url, member.username, member.password);
    // An admin group with every permission; 2 is the members' group of the seed.
    const admins = await api(a.backend.url, 'POST', '/api/v1/group', { token: adminToken, body: { title: '管理员' } });
    const permissions = await api(a.backend.url, 'GET', '/api/v1/permission/list', {
      token: adminToken,
      query: { page: 1, size: 1000 },
    });
    const granted = await api(a.backend.url, 'PUT', '/api/v1/group/permission', {
      token: adminToken,
      body: {
        group_id: admins.body.id,
        permission_id: (permissions.body.permission as { id: number }[]).map((p) => p.id),
      },
    });
    expect(granted.status).toBe(200);
    const joined = await api(a.backend.url, 'PUT', '/api/v1/user', {
      token: adminToken,
      body: { id: member.user.id, group_id: [admins.body.id, 2] },
    });
    expect(joined.status).toBe(200);
    expect((await page(b, '/admin/user/list', token)).status).toBe(200);

    const taken = await send(`${a.gateway.url}/api/v1/user`, {
      method: 'PUT',
      headers: sameOrigin(a.gateway.url, { cookie: `token=${adminToken}`, 'content-type': 'application/json' }),
      body: JSON.stringify({ id: member.user.id, group_id: [2] }),
    });
    expect(taken.status).toBe(200);

    const after = await pageOnceItIs(b, '/admin/user/list', token, 302);
    expect(after.status).toBe(302);
    expect(after.headers.location).toBe('/?denied=%2Fadmin%2Fuser%2Flist');
  });

  it("ends on B's pages every session of a member whose password was reset by SMS through A", async () => {
    const mobile = `139${String(process.pid % 10_000).padStart(4, '0')}0001`;
    /** The code the log-only provider recorded (tests/helpers/sms.ts reads it so from a DATA_DIR's database). */
    const codeFor = async (type: string) => {
      expect((await api(a.backend.url, 'POST', '/api/v1/user/sms/code', { body: { mobile, type } })).status).toBe(200);
      const { rows } = await db.query<{ content: string }>(
        'SELECT content FROM sms_log WHERE mobile = $1 ORDER BY id DESC LIMIT 1',
        [mobile],
      );
      return /验证码为 (\d{6})/.exec(rows[0]!.content)![1]!;
    };
    const registered = await api(a.backend.url, 'POST', '/api/v1/user/register/mobile', {
      body: { mobile, code: await codeFor('register'), password: 'phone-secret' },
    });
    expect(registered.status).toBe(200);
    const token = registered.body.token as string;
    expect((await page(b, '/member', token)).status).toBe(200);
    // The interval between two codes to one number (60 s), made past.
    await db.query("UPDATE sms_log SET created_at = '2000-01-01T00:00:00.000Z' WHERE mobile = $1", [mobile]);

    const reset = await send(`${a.gateway.url}/api/v1/user/findpassword/mobile`, {
      method: 'PUT',
      headers: sameOrigin(a.gateway.url, { 'content-type': 'application/json' }),
      body: JSON.stringify({ mobile, code: await codeFor('find_password'), password: 'new-phone-secret' }),
    });
    expect(reset.status).toBe(200);

    expect((await pageOnceItIs(b, '/member', token, 302)).status).toBe(302);
    expect((await pageOnceItIs(a, '/member', token, 302)).status).toBe(302);
  });
});

describe.skipIf(!postgresUrl)('an instance that has served no page yet when its database goes away', () => {
  it("serves its pages with the site's own settings, which its backend keeps in memory", async () => {
    const databaseUrl = await migratedDatabase();
    const name = new URL(databaseUrl).pathname.slice(1);
    const backend = await startBackend({ env: { DATABASE_URL: databaseUrl, CONFIG_SYSTEM_SITENAME: '山间文库' } });
    const gateway = await startGateway('', {}, inProcessBackend(backend.app));
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    try {
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
      // A page that reads nothing more is served whole.
      const login = await send(`${gateway.url}/auth/login`, { headers: HTML });
      expect(login.status).toBe(200);
      expect(login.text).toContain('山间文库</title>');
      expect(startDataOf(login.text).settings).toMatchObject({ system: { sitename: '山间文库' } });
      // The library's list is read from the database: a 503 page saying so (decision 118), with the site's settings.
      const res = await send(`${gateway.url}/library`, { headers: HTML });
      expect(res.status).toBe(503);
      expect(res.text).toContain('<title>文库资料 - 山间文库</title>');
      expect(startDataOf(res.text).settings).toMatchObject({ system: { sitename: '山间文库' } });
    } finally {
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
      await admin.end();
      await gateway.close();
      await backend.close();
      await dropDatabase(databaseUrl);
    }
  });
});
