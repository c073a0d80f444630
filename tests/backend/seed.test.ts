import { afterAll, describe, expect, it } from 'vitest';
import { services } from '../../backend/app';
import { CONFIG_KEYS } from '../../backend/modules/config/keys';
import { api, login, startBackend, withDatabase, type Query, type StartedBackend } from '../helpers/backend';

// The seed runs at every start, under a lock the other instances starting on the same database
// wait for (backend/seed.ts). The permission and config rows, a few hundred, are read in one
// query and written one statement per kind of change; a restart of an unchanged site writes
// none of them. Run on both engines (server and server-postgres).

/** The statements a start made on the `permission` and `config` tables (not `group_permission`). */
function seedStatements(sql: readonly string[]) {
  const on = (table: string) => sql.filter((s) => new RegExp(`(from|into|update) "${table}"`, 'i').test(s));
  const writes = (list: string[]) => list.filter((s) => /^\s*(insert|update|delete)\b/i.test(s));
  const permission = on('permission');
  const config = on('config');
  return { permission, config, writes: [...writes(permission), ...writes(config)] };
}

async function start(dataDir?: string): Promise<{ backend: StartedBackend; sql: string[] }> {
  const sql: string[] = [];
  const backend = await startBackend({ ...(dataDir ? { dataDir } : {}), build: { onQuery: (s) => sql.push(s) } });
  return { backend, sql };
}

const PERMISSIONS = new Set(services.flatMap((s) => s.permissions).map((p) => `${p.method} ${p.path}`)).size;

let last: StartedBackend | undefined;
afterAll(() => last?.close());

describe('the seed at start', () => {
  it('fills a new database in a few statements, and a restart of the same site writes none of its rows', async () => {
    const first = await start();
    const fresh = seedStatements(first.sql);
    // one insert each (without batching: one or two statements per row, 430 in all), besides the
    // seed's read of each, the settings' first load and the record of the footer pages created
    expect(fresh.writes.map((s) => s.split(/ \(| set /)[0])).toEqual([
      'insert into "permission"',
      'insert into "config"',
      'update "config"',
    ]);
    expect(fresh.permission.length + fresh.config.length).toBeLessThanOrEqual(6);
    const seeded = await withDatabase(first.backend.dataDir, async (db) => ({
      permission: await db.selectFrom('permission').select(['method', 'path', 'title']).execute(),
      config: await db.selectFrom('config').selectAll().orderBy('id').execute(),
    }));
    expect(seeded.permission).toHaveLength(PERMISSIONS);
    expect(seeded.permission.every((p) => p.title !== '')).toBe(true);
    expect(seeded.config).toHaveLength(CONFIG_KEYS.length);
    await first.backend.close({ keepData: true });

    const second = await start(first.backend.dataDir);
    last = second.backend;
    const again = seedStatements(second.sql);
    expect(again.writes).toEqual([]);
    expect(again.permission).toHaveLength(1);
    await withDatabase(first.backend.dataDir, async (db) =>
      expect(await db.selectFrom('config').selectAll().orderBy('id').execute()).toEqual(seeded.config),
    );
    last = undefined;
    await second.backend.close();
  });

  it('on a restart, gives back a lost permission title and current config labels, keeping the values chosen', async () => {
    const first = await start();
    const dataDir = first.backend.dataDir;
    await first.backend.close({ keepData: true });
    const [permission] = services.flatMap((s) => s.permissions);
    await withDatabase(dataDir, async (db) => {
      await db
        .updateTable('permission')
        .set({ title: '' })
        .where('method', '=', permission!.method)
        .where('path', '=', permission!.path)
        .execute();
      await db
        .updateTable('config')
        .set({ label: '旧的说明', value: '我的站点' })
        .where('category', '=', 'system')
        .where('name', '=', 'sitename')
        .execute();
      // an earlier default, which named the credits 积分, is the site's own now
      await db
        .updateTable('config')
        .set({ value: '开通VIP会员，畅享全站文档免积分下载' })
        .where('category', '=', 'vip')
        .where('name', '=', 'description')
        .execute();
      // a permission of a route that no longer exists stays as it is
      await db
        .insertInto('permission')
        .values({ method: 'GRPC', path: '/api.v1.GoneAPI/Gone', title: '', created_at: '', updated_at: '' })
        .execute();
    });

    const second = await start(dataDir);
    last = second.backend;
    // the two rows that differ are written, nothing else
    expect(seedStatements(second.sql).writes).toHaveLength(2);
    await withDatabase(dataDir, async (db) => {
      const titles = await db
        .selectFrom('permission')
        .select(['path', 'title'])
        .where('path', 'in', [permission!.path, '/api.v1.GoneAPI/Gone'])
        .orderBy('path')
        .execute();
      expect(titles).toEqual(
        [
          { path: permission!.path, title: permission!.title },
          { path: '/api.v1.GoneAPI/Gone', title: '' },
        ].sort((a, b) => (a.path < b.path ? -1 : 1)),
      );
      const sitename = CONFIG_KEYS.find((k) => k.category === 'system' && k.name === 'sitename')!;
      expect(
        await db
          .selectFrom('config')
          .select(['label', 'value'])
          .where('category', '=', 'system')
          .where('name', '=', 'sitename')
          .executeTakeFirst(),
      ).toEqual({ label: sitename.label, value: '我的站点' });
      expect(
        await db
          .selectFrom('config')
          .select('value')
          .where('category', '=', 'vip')
          .where('name', '=', 'description')
          .executeTakeFirst(),
      ).toEqual({ value: '开通VIP会员，畅享全站文档免积分下载' });
    });
    last = undefined;
    await second.backend.close();
  });

  it('writes the footer pages with the name the site gives its credits, its preset or 魔豆', async () => {
    for (const [env, credits] of [
      [{}, '魔豆'],
      [{ CONFIG_SCORE_CREDIT_NAME: '金币' }, '金币'],
    ] as const) {
      const backend = await startBackend({ env });
      try {
        const page = async (identifier: string) =>
          (await api(backend.url, 'GET', '/api/v1/article', { query: { identifier } })).body;
        const help = await page('help');
        expect(help.description).toBe(`如何搜索、阅读、下载与上传文档，以及${credits}和会员的说明。`);
        expect(help.content).toContain(`<p>${credits}与会员：签到、上传等方式可获得${credits}；`);
        // How to leave a word out and ask for a phrase as typed (decision 087).
        expect(help.content).toContain(
          '在词前加减号可排除含有该词的结果，如 图书馆 -量子；用引号括住的词组按原样整体查找',
        );
        const agreement = await page('agreement');
        expect(agreement.content).toContain(`三、下载与${credits}：部分文档需要消耗${credits}或开通会员后下载`);
        expect(JSON.stringify([help, agreement])).not.toContain('积分');
      } finally {
        await backend.close();
      }
    }
  });
});

describe('the 隐私政策 on a site made before it', () => {
  /** A site as an earlier version left it: no 隐私政策 page, no footer setting for it, no record of the pages seeded. */
  async function olderSite(ownPage?: { title: string; content: string }): Promise<string> {
    const first = await start();
    const dataDir = first.backend.dataDir;
    await first.backend.close({ keepData: true });
    await withDatabase(dataDir, async (db) => {
      if (ownPage) await db.updateTable('article').set(ownPage).where('identifier', '=', 'privacy').execute();
      else await db.deleteFrom('article').where('identifier', '=', 'privacy').execute();
      await db.deleteFrom('config').where('category', '=', 'footer').where('name', '=', 'privacy').execute();
      await db.deleteFrom('config').where('category', '=', 'release').where('name', '=', 'seeded_pages').execute();
    });
    return dataDir;
  }

  const privacyPage = async (url: string) =>
    (await api(url, 'GET', '/api/v1/article', { query: { identifier: 'privacy' } })).body;
  const footerOf = async (url: string) => (await api(url, 'GET', '/api/v1/settings')).body.footer;

  it('gets the page, published by the admin, and its footer link at the next start', async () => {
    const dataDir = await olderSite();
    const { backend } = await start(dataDir);
    last = backend;
    expect(await privacyPage(backend.url)).toMatchObject({
      identifier: 'privacy',
      title: '隐私政策',
      status: 1,
      user_id: 1,
    });
    expect((await privacyPage(backend.url)).content).toContain('个人信息保护法');
    expect(await footerOf(backend.url)).toMatchObject({ agreement: '/article/agreement', privacy: '/article/privacy' });
    last = undefined;
    await backend.close();
  });

  it('keeps the owner’s own page of that identifier, and links it', async () => {
    const ownPage = { title: '本站隐私说明', content: '<p>我们自己写的隐私政策。</p>' };
    const dataDir = await olderSite(ownPage);
    const { backend } = await start(dataDir);
    last = backend;
    expect(await privacyPage(backend.url)).toMatchObject(ownPage);
    await withDatabase(dataDir, async (db) =>
      expect(await db.selectFrom('article').select('id').where('identifier', '=', 'privacy').execute()).toHaveLength(1),
    );
    expect((await footerOf(backend.url)).privacy).toBe('/article/privacy');
    last = undefined;
    await backend.close();
  });

  it('does not bring back a page the owner deleted for good, at any later start', async () => {
    const first = await start();
    const dataDir = first.backend.dataDir;
    const token = await login(first.backend.url, 'admin', first.backend.adminPassword);
    const admin = (method: string, path: string, query: Query) =>
      api(first.backend.url, method, path, { token, query });
    const { id } = await privacyPage(first.backend.url);
    expect((await admin('DELETE', '/api/v1/article', { id })).status).toBe(200);
    expect((await admin('DELETE', '/api/v1/article/recycle', { id: [id] })).status).toBe(200);
    await first.backend.close({ keepData: true });

    for (const restart of [1, 2]) {
      const { backend } = await start(dataDir);
      last = backend;
      expect(
        (await api(backend.url, 'GET', '/api/v1/article', { query: { identifier: 'privacy' } })).status,
        `${restart}`,
      ).toBe(404);
      expect((await footerOf(backend.url)).privacy).toBeUndefined();
      // The other pages are the site's as before.
      expect((await footerOf(backend.url)).agreement).toBe('/article/agreement');
      last = undefined;
      await backend.close({ keepData: restart === 1 });
    }
  });
});
