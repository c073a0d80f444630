// The embedded backend listens on no port: the gateway that started it answers its calls in
// process, and the client address the backend's limits count is the one that gateway
// forwards (its own client's, or, behind a trusted proxy, the proxy's X-Forwarded-For);
// BACKEND_TRUST_PROXY, for a backend run on its own, changes nothing here. The backend logs its
// faults only: why it answered a failure on purpose is said on the gateway's access line.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startEmbeddedBackend, type EmbeddedBackend } from '../../gateway/embedded-backend';
import { databaseNow } from '../../backend/db/dialect';
import { JobQueue, jobKind } from '../../backend/platform/jobs/job-queue';
import { withDatabase } from '../helpers/backend';
import { dropDatabase } from '../helpers/postgres';
import { migratedDatabase } from '../helpers/test-database';
import { CAPTCHAS_OFF, TEST_ADMIN_PASSWORD } from '../helpers/test-env';
import { SESSION_END_HEADER } from '../../shared/session-end';
import { AS_VISITOR_HEADER } from '../../shared/writes';
import { accessLines, sameOrigin, send, startGateway, type TestGateway } from './helpers';

let dataDir: string;
let backend: EmbeddedBackend;
let gw: TestGateway;
let behindProxy: TestGateway;
/** Pages without their route data (ROUTE_DATA_TIMEOUT_MS 0): the SPA makes the first screen's calls itself. */
let withoutRouteData: TestGateway;
/** A gateway whose calls to the backend are recorded in `dispatched`: path, Authorization, AS_VISITOR_HEADER. */
let recorded: TestGateway;
const dispatched: { path: string; authorization: unknown; marker: unknown }[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'moredoc-embedded-'));
  backend = await startEmbeddedBackend({
    ...CAPTCHAS_OFF,
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    CONFIG_SMS_ENABLE: 'true',
    CONFIG_SMS_IP_HOURLY_LIMIT: '3',
    // Set for a backend run on its own; the embedded one sees the address its gateway forwards.
    BACKEND_TRUST_PROXY: '127.0.0.1',
  });
  const embedded = { viewFiles: backend.viewFiles, dispatcher: backend.dispatcher };
  gw = await startGateway('', { backendUrl: undefined }, embedded);
  behindProxy = await startGateway('', { backendUrl: undefined, trustProxy: ['127.0.0.1'] }, embedded);
  withoutRouteData = await startGateway('', { backendUrl: undefined, routeDataTimeoutMs: 0 }, embedded);
  const recording = backend.dispatcher.compose((dispatch) => (options, handler) => {
    const headers = new Headers(options.headers as Record<string, string>);
    dispatched.push({
      path: options.path.split('?', 1)[0]!,
      authorization: headers.get('authorization') ?? undefined,
      marker: headers.get(AS_VISITOR_HEADER) ?? undefined,
    });
    return dispatch(options, handler);
  });
  recorded = await startGateway('', { backendUrl: undefined }, { ...embedded, dispatcher: recording });
});
afterAll(async () => {
  await gw?.close();
  await behindProxy?.close();
  await withoutRouteData?.close();
  await recorded?.close();
  await backend?.close();
  await rm(dataDir, { recursive: true, force: true });
});

let seq = 0;
const newMobile = () => `136${String(process.pid % 1000).padStart(3, '0')}${String(++seq).padStart(5, '0')}`;
const sendCode = (url: string, forwardedFor: string) =>
  send(`${url}/api/v1/user/sms/code`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
    body: JSON.stringify({ mobile: newMobile(), type: 'register' }),
  });
const addressesLogged = () =>
  withDatabase(dataDir, async (db) =>
    (await db.selectFrom('sms_log').select('ip').distinct().orderBy('ip').execute()).map((row) => row.ip),
  );

describe('the embedded backend in the gateway', () => {
  it('counts the client address the gateway sees, whatever X-Forwarded-For a client claims', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i += 1) statuses.push((await sendCode(gw.url, `198.51.100.${i}`)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(await addressesLogged()).toEqual(['127.0.0.1']);
  });

  it('counts the address a trusted proxy forwards to the gateway', async () => {
    expect((await sendCode(behindProxy.url, '203.0.113.9')).status).toBe(200);
    expect((await sendCode(behindProxy.url, '203.0.113.10')).status).toBe(200);
    expect(await addressesLogged()).toEqual(['127.0.0.1', '203.0.113.10', '203.0.113.9']);
  });

  it("records the visitor's address and browser for the search a search page's first screen makes", async () => {
    const userAgent = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148';
    const page = await send(`${gw.url}/search?wd=${encodeURIComponent('首屏搜索记录')}`, {
      headers: { accept: 'text/html', 'user-agent': userAgent },
    });
    expect(page.status).toBe(200);
    const records = await withDatabase(dataDir, (db) =>
      db.selectFrom('search_record').select(['ip', 'user_agent']).where('keywords', '=', '首屏搜索记录').execute(),
    );
    expect(records).toEqual([{ ip: '127.0.0.1', user_agent: userAgent }]);
  });

  it("records a search a link from another site makes as a visitor's, not under the member whose cookie it carries", async () => {
    const json = { ...sameOrigin(gw.url), 'content-type': 'application/json' };
    const registered = await send(`${gw.url}/api/v1/user/register`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ username: `linked${process.pid}`, password: 'member-password' }),
    });
    expect(registered.status, registered.text).toBe(200);
    const memberId = (registered.json() as { user: { id: number } }).user.id;
    const cookie = registered.setCookies[0]!.split(';', 1)[0]!;
    const crossSite = { cookie, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' };
    const ownPage = { cookie, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' };
    const recordOf = async (keywords: string) =>
      withDatabase(dataDir, (db) =>
        db.selectFrom('search_record').select('user_id').where('keywords', '=', keywords).execute(),
      );
    // The search page: its first screen's search (route data) made by the gateway.
    const page = await send(`${gw.url}/search?wd=${encodeURIComponent('站外链接页')}`, {
      headers: { ...crossSite, accept: 'text/html' },
    });
    expect(page.status).toBe(200);
    // The page is still the member's; only its search goes as a visitor's.
    expect(page.text).toContain(`linked${process.pid}`);
    expect(await recordOf('站外链接页')).toEqual([{ user_id: 0 }]);
    // The API call itself, opened from another site.
    for (const path of ['/api/v1/document/search', '/api/v1/article/search']) {
      const words = `站外链接${path.split('/')[3]}`;
      expect((await send(`${gw.url}${path}?wd=${encodeURIComponent(words)}`, { headers: crossSite })).status).toBe(200);
      expect(await recordOf(words), path).toEqual([{ user_id: 0 }]);
    }
    // The member's own search, from our pages, is theirs.
    const own = await send(`${gw.url}/search?wd=${encodeURIComponent('本站搜索页')}`, {
      headers: { cookie, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate', accept: 'text/html' },
    });
    expect(own.status).toBe(200);
    expect(await recordOf('本站搜索页')).toEqual([{ user_id: memberId }]);
    expect((await send(`${gw.url}/api/v1/document/search?wd=本站搜索`, { headers: ownPage })).status).toBe(200);
    expect(await recordOf('本站搜索')).toEqual([{ user_id: memberId }]);

    // The first screen without its data: the SPA makes the search, same-origin, with the marker the page told it to use.
    const startData = (html: string) =>
      JSON.parse(/<script type="application\/json" id="start-data">(.*?)<\/script>/s.exec(html)![1]!) as Record<
        string,
        unknown
      >;
    const late = await send(`${withoutRouteData.url}/search?wd=${encodeURIComponent('站外链接慢页')}`, {
      headers: { ...crossSite, accept: 'text/html' },
    });
    expect(late.status).toBe(200);
    expect(startData(late.text)).toMatchObject({ user: { id: memberId }, openedFromAnotherSite: true });
    expect(startData(late.text).routeData).toBeUndefined();
    expect(await recordOf('站外链接慢页')).toEqual([]);
    const spaSearch = (words: string, headers: Record<string, string>) =>
      send(`${withoutRouteData.url}/api/v1/document/search?wd=${encodeURIComponent(words)}`, { headers });
    expect((await spaSearch('站外链接慢页', { ...ownPage, [AS_VISITOR_HEADER]: '1' })).status).toBe(200);
    expect(await recordOf('站外链接慢页')).toEqual([{ user_id: 0 }]);
    // The marker withholds the member's name only: it makes nothing else a visitor's.
    const group = await send(`${withoutRouteData.url}/api/v1/user/group`, {
      headers: { ...ownPage, [AS_VISITOR_HEADER]: '1' },
    });
    expect(group.status, group.text).toBe(200);
    // The member's later search on that page, by hand (no marker), is theirs; their own page carries no marker.
    expect((await spaSearch('站外链接页后', ownPage)).status).toBe(200);
    expect(await recordOf('站外链接页后')).toEqual([{ user_id: memberId }]);
    const ownLate = await send(`${withoutRouteData.url}/search?wd=${encodeURIComponent('本站慢页')}`, {
      headers: { cookie, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate', accept: 'text/html' },
    });
    expect(startData(ownLate.text)).toMatchObject({ user: { id: memberId } });
    expect(startData(ownLate.text).openedFromAnotherSite).toBeUndefined();
  });

  it("passes the SPA's record-as-visitor marker to no call of the backend, which searches without the session", async () => {
    const json = { ...sameOrigin(recorded.url), 'content-type': 'application/json' };
    const registered = await send(`${recorded.url}/api/v1/user/register`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ username: `marked${process.pid}`, password: 'member-password' }),
    });
    expect(registered.status, registered.text).toBe(200);
    const cookie = registered.setCookies[0]!.split(';', 1)[0]!;
    const token = cookie.slice('token='.length);
    const memberId = (registered.json() as { user: { id: number } }).user.id;
    const withMarker = { ...json, cookie, [AS_VISITOR_HEADER]: '1' };
    dispatched.length = 0;
    const words = '带标记的搜索';
    const search = await send(`${recorded.url}/api/v1/document/search?wd=${encodeURIComponent(words)}`, {
      headers: withMarker,
    });
    expect(search.status, search.text).toBe(200);
    expect((await send(`${recorded.url}/api/v1/user/group`, { headers: withMarker })).status).toBe(200);
    const write = await send(`${recorded.url}/api/v1/user/profile`, {
      method: 'PUT',
      headers: withMarker,
      body: JSON.stringify({ id: memberId, signature: '带标记的读者' }),
    });
    expect(write.status, write.text).toBe(200);
    // The calls made for these requests (the gateway may make its own meanwhile).
    const paths = ['/api/v1/document/search', '/api/v1/user/group', '/api/v1/user/profile'];
    expect(dispatched.filter((call) => paths.includes(call.path))).toEqual([
      { path: '/api/v1/document/search', authorization: undefined, marker: undefined },
      { path: '/api/v1/user/group', authorization: `Bearer ${token}`, marker: undefined },
      { path: '/api/v1/user/profile', authorization: `Bearer ${token}`, marker: undefined },
    ]);
    const records = await withDatabase(dataDir, (db) =>
      db.selectFrom('search_record').select('user_id').where('keywords', '=', words).execute(),
    );
    expect(records).toEqual([{ user_id: 0 }]);
  });

  it("passes on why the backend refused the cookie's session, beside MOREDOC's 401, and drops the cookie", async () => {
    const json = { ...sameOrigin(gw.url), 'content-type': 'application/json' };
    const username = `gone${process.pid}`;
    const registered = await send(`${gw.url}/api/v1/user/register`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ username, password: 'first-password' }),
    });
    expect(registered.status, registered.text).toBe(200);
    const here = registered.setCookies[0]!.split(';', 1)[0]!;
    const elsewhere = await send(`${gw.url}/api/v1/user/login`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ username, password: 'first-password' }),
    });
    const changed = await send(`${gw.url}/api/v1/user/password`, {
      method: 'PUT',
      headers: { ...json, cookie: elsewhere.setCookies[0]!.split(';', 1)[0]! },
      body: JSON.stringify({ old_password: 'first-password', new_password: 'second-password' }),
    });
    expect(changed.status, changed.text).toBe(200);
    const refused = await send(`${gw.url}/api/v1/user/group`, { headers: { cookie: here } });
    expect(refused.status).toBe(401);
    expect(refused.json()).toEqual({
      error: '您未登录或您的登录已过期，请重新登录或刷新页面重试',
      code: 16,
      message: '您未登录或您的登录已过期，请重新登录或刷新页面重试',
    });
    expect(refused.headers[SESSION_END_HEADER]).toBe('password-changed');
    expect(refused.setCookies.some((c) => /^token=;/.test(c))).toBe(true);
  });

  it('answers through the gateway only: it has no URL of its own', async () => {
    expect(Object.keys(backend).sort()).toEqual([
      'backendChanges',
      'close',
      'dispatcher',
      'initialAdmin',
      'ready',
      'runsJobs',
      'sessionChanges',
      'storage',
      'viewFiles',
      'waited',
    ]);
    expect((await send(`${gw.url}/api/v1/settings`)).status).toBe(200);
    expect((await send(`${gw.url}/readyz`)).json()).toMatchObject({ status: 'ready' });
  });

  it("tells in a ready answer the job queue's backlog: jobs waiting, the oldest one's wait, who runs them", async () => {
    // Jobs of a kind no process runs: one due two hours ago by the database's clock, one held
    // by another process's live lease.
    const nobody = jobKind<object>('test.nobody');
    const ids = await withDatabase(dataDir, async (db) => {
      const queue = new JobQueue({
        db,
        logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
      });
      const now = (await databaseNow(db)).getTime();
      const waiting = await queue.enqueue(nobody, {}, { runAfter: new Date(now - 2 * 3600_000) });
      const running = await queue.enqueue(nobody, {}, { runAfter: new Date(now + 3600_000) });
      await db
        .updateTable('job')
        .set({
          state: 'running',
          lease_owner: 'elsewhere:4242:abcd#7',
          lease_expires_at: new Date(now + 3600_000).toISOString(),
        })
        .where('id', '=', running.id)
        .execute();
      return [waiting.id, running.id];
    });
    try {
      const res = await send(`${gw.url}/readyz`);
      expect(res.status).toBe(200);
      const { status, jobs } = res.json() as {
        status: string;
        jobs: { waiting: number; oldestWaitingSeconds: number; running: number; workers: number };
      };
      expect(status).toBe('ready');
      expect(jobs.waiting).toBeGreaterThanOrEqual(1);
      expect(jobs.oldestWaitingSeconds).toBeGreaterThanOrEqual(2 * 3600);
      expect(jobs.oldestWaitingSeconds).toBeLessThan(3 * 3600);
      expect(jobs.running).toBeGreaterThanOrEqual(1);
      expect(jobs.workers).toBeGreaterThanOrEqual(1);
    } finally {
      await withDatabase(dataDir, (db) => db.deleteFrom('job').where('id', 'in', ids).execute());
    }
  });

  it('says on its access line, at info, why the backend failed on purpose, and never tells the client', async () => {
    // Anyone can post a notification for a provider without keys: a 503 (the provider retries), no fault.
    const res = await send(`${gw.url}/api/v1/pay/notify/alipay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'out_trade_no=1',
    });
    expect(res.status).toBe(503);
    expect(res.json()).toMatchObject({ message: '支付宝未配置' });
    expect(res.text).not.toContain('unconfigured');
    expect(Object.keys(res.headers).filter((name) => name.includes('expected') || name.includes('reason'))).toEqual([]);
    const line = () => accessLines(gw.logs).find((l) => l.reqId === res.headers['x-request-id']);
    await expect.poll(line).toBeDefined();
    expect(line()).toMatchObject({
      level: 30,
      status: 503,
      url: '/api/v1/pay/notify/alipay',
      reason: expect.stringContaining('payment notification for an unconfigured provider'),
    });
  });
});

describe.skipIf(!inject('postgresUrl'))('the readiness of an embedded backend on PostgreSQL', () => {
  it('says 503 while the database refuses connections, as every call that needs it does, though the settings answer from memory; ready once it takes them again', async () => {
    const url = await migratedDatabase();
    const name = new URL(url).pathname.slice(1);
    const dir = await mkdtemp(join(tmpdir(), 'moredoc-ready-'));
    const admin = new pg.Client({ connectionString: inject('postgresUrl') });
    await admin.connect();
    const onPostgres = await startEmbeddedBackend({
      ...CAPTCHAS_OFF,
      LOG_LEVEL: 'silent',
      DATA_DIR: dir,
      DATABASE_URL: url,
      ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    });
    const site = await startGateway('', { backendUrl: undefined }, onPostgres);
    try {
      expect((await send(`${site.url}/readyz`)).json()).toMatchObject({
        status: 'ready',
        jobs: { waiting: expect.any(Number) },
      });
      expect((await send(`${site.url}/api/v1/settings`)).status).toBe(200);
      // New connections refused, the open ones ended: what a database taken away looks like to the pool.
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
      const down = await send(`${site.url}/readyz`);
      expect(down.status).toBe(503);
      expect(down.json()).toMatchObject({ code: 503, message: '后端服务未就绪：数据库暂时不可用，请稍后再试' });
      // What every page needs is kept in memory (read once before the database went away); a call that needs
      // the database says so plainly.
      expect((await send(`${site.url}/api/v1/settings`)).status).toBe(200);
      const list = await send(`${site.url}/api/v1/document/list?page=1`);
      expect(list.status).toBe(503);
      expect(list.json()).toMatchObject({ code: 14, message: '数据库暂时不可用，请稍后再试' });
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
      await expect.poll(async () => (await send(`${site.url}/readyz`)).status).toBe(200);
    } finally {
      await site.close();
      await onPostgres.close();
      await admin.end();
      await dropDatabase(url);
      await rm(dir, { recursive: true, force: true });
    }
  });
});
