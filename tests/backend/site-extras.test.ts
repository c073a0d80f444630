import { describe, expect, it } from 'vitest';
import { api, registerMember, useBackend, withDatabase } from '../helpers/backend';
import { withClockOff } from '../helpers/clock';
import { databaseNow } from '../../backend/db/dialect';

// FriendlinkAPI, BannerAPI, LanguageAPI and PunishmentAPI.

const backend = useBackend();
const { admin } = backend;

describe('FriendlinkAPI', () => {
  it('shows visitors the seeded links with id, title and link only', async () => {
    const res = await api(backend.url, 'GET', '/api/v1/friendlink/list', { query: { page: 1, size: 10 } });
    expect(res.text).toBe(
      '{"friendlink":[{"id":1,"title":"摩枫网络科技","link":"https://mnt.ltd"},{"id":2,"title":"书栈网","link":"https://www.bookstack.cn"}],"total":2}',
    );
  });

  it('creates, updates (full replacement), reads and deletes', async () => {
    const created = await admin('POST', '/api/v1/friendlink', {
      body: { title: '示例', link: 'https://example.com', description: '描述', sort: 9, enable: true },
    });
    expect(created.body).toMatchObject({
      id: 3,
      title: '示例',
      link: 'https://example.com',
      description: '描述',
      sort: 9,
      enable: true,
    });
    expect(
      (await admin('PUT', '/api/v1/friendlink', { body: { id: 3, title: '示例2', link: 'https://example.org' } }))
        .status,
    ).toBe(200);
    const got = await api(backend.url, 'GET', '/api/v1/friendlink', { query: { id: 3 } });
    expect(got.body).toMatchObject({ id: 3, title: '示例2', link: 'https://example.org' });
    expect(got.body.enable).toBeUndefined();
    const hidden = await api(backend.url, 'GET', '/api/v1/friendlink/list');
    expect(hidden.body.total).toBe(2);
    const adminList = await admin('GET', '/api/v1/friendlink/list', {
      query: { enable: false, field: ['id', 'enable', 'title'] },
    });
    expect(adminList.body).toEqual({ friendlink: [{ id: 3, title: '示例2' }], total: 1 });
    expect((await admin('DELETE', '/api/v1/friendlink', { query: { id: 3 } })).status).toBe(200);
    expect((await api(backend.url, 'GET', '/api/v1/friendlink', { query: { id: 3 } })).status).toBe(404);
  });

  it('searches names case-insensitively, % and _ as wildcards and a backslash as itself, on either engine', async () => {
    const titles = ['MoreDoc 文库', 'C:\\Docs 目录', 'C:Docs 目录'];
    const ids: number[] = [];
    for (const title of titles)
      ids.push((await admin('POST', '/api/v1/friendlink', { body: { title, link: 'https://example.com' } })).body.id);
    try {
      const found = async (wd: string) =>
        (
          (await admin('GET', '/api/v1/friendlink/list', { query: { wd, enable: [true, false] } })).body.friendlink ??
          []
        )
          .map((f: { title: string }) => f.title)
          .sort();
      expect(await found('moredoc')).toEqual(['MoreDoc 文库']);
      expect(await found('MOREDOC 文')).toEqual(['MoreDoc 文库']);
      expect(await found('c:\\docs')).toEqual(['C:\\Docs 目录']);
      expect(await found('C:_Docs')).toEqual(['C:\\Docs 目录']);
      expect(await found('C%目录')).toEqual(['C:Docs 目录', 'C:\\Docs 目录']);
    } finally {
      for (const id of ids) await admin('DELETE', '/api/v1/friendlink', { query: { id } });
    }
  });

  it.each([
    ['POST', { link: 'https://x.cn' }, 400, '友链名称不能为空'],
    ['POST', { title: 'x' }, 400, '友链地址不能为空'],
    ['POST', { title: 'x', link: 'javascript:alert(1)' }, 400, '友链地址必须以 http:// 或 https:// 开头'],
    ['PUT', { title: 'x', link: 'https://x.cn' }, 400, '参数不正确（参数 id）'],
    ['PUT', { id: 999, title: 'x', link: 'https://x.cn' }, 404, '友链不存在'],
  ])('%s %j → %i', async (method, body, status, message) => {
    const res = await admin(method, '/api/v1/friendlink', { body });
    expect(res.status).toBe(status);
    expect(res.body.message).toBe(message);
  });
});

describe('BannerAPI', () => {
  it('creates banners of the three types, always enabled, and lists them by type', async () => {
    for (const type of [0, 1, 2]) {
      const res = await admin('POST', '/api/v1/banner', {
        body: { title: `横幅${type}`, path: `/uploads/b${type}.png`, url: '/vip', type, sort: type, enable: false },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ title: `横幅${type}`, enable: true });
    }
    const website = await api(backend.url, 'GET', '/api/v1/banner/list', { query: { type: 0 } });
    expect(website.body).toEqual({
      banner: [{ id: 1, title: '横幅0', path: '/uploads/b0.png', url: '/vip' }],
      total: 1,
    });
    const apps = await admin('GET', '/api/v1/banner/list', { query: { type: [1, 2] } });
    expect(apps.body.banner.map((b: { type: number }) => b.type)).toEqual([2, 1]);
  });

  it('updates (including enable), reads with the permission and deletes', async () => {
    expect(
      (
        await admin('PUT', '/api/v1/banner', {
          body: { id: 1, title: '新横幅', path: '/uploads/new.png', type: 0, enable: false },
        })
      ).status,
    ).toBe(200);
    const got = await admin('GET', '/api/v1/banner', { query: { id: 1 } });
    expect(got.body).toMatchObject({ id: 1, title: '新横幅', path: '/uploads/new.png' });
    expect(got.body.enable).toBeUndefined();
    expect((await api(backend.url, 'GET', '/api/v1/banner/list', { query: { type: 0 } })).body).toEqual({});
    expect((await admin('GET', '/api/v1/banner/list', { query: { wd: '新横' } })).body.total).toBe(1);
    expect((await admin('DELETE', '/api/v1/banner', { query: { id: [1, 2] } })).status).toBe(200);
    expect((await admin('GET', '/api/v1/banner', { query: { id: 1 } })).status).toBe(404);
  });

  it.each([
    ['POST', { title: 'x' }, 400, '轮播图图片不能为空'],
    ['POST', { path: '/uploads/x.png', type: 3 }, 400, '轮播图类型必须是 0（网站）、1（小程序）或 2（APP）'],
    ['POST', { path: 'file:///etc/passwd' }, 400, '轮播图图片必须是上传后的图片地址'],
    [
      'POST',
      { path: '/uploads/x.png', url: 'javascript:x' },
      400,
      '跳转链接必须是以 / 开头的站内路径或 http(s):// 链接',
    ],
    ['PUT', { path: '/uploads/x.png' }, 400, '请选择轮播图（参数 id）'],
    ['PUT', { id: 999, path: '/uploads/x.png' }, 404, '轮播图不存在'],
  ])('%s %j → %i', async (method, body, status, message) => {
    const res = await admin(method, '/api/v1/banner', { body });
    expect(res.status).toBe(status);
    expect(res.body.message).toBe(message);
  });
});

describe('LanguageAPI', () => {
  it('seeds a new site with industries (the 行业 of the screens), all enabled, 10 per page by default', async () => {
    const res = await api(backend.url, 'GET', '/api/v1/language/list');
    expect(res.body.total).toBe(16);
    expect(res.body.language.slice(0, 4).map((l: { language: string; code: string }) => [l.code, l.language])).toEqual([
      ['education', '教育培训'],
      ['internet', 'IT 互联网'],
      ['finance', '金融财经'],
      ['medical', '医疗卫生'],
    ]);
    expect(res.body.language.map((l: { language: string }) => l.language)).not.toContain('英语');
    const firstPage = await admin('GET', '/api/v1/language/list');
    expect(firstPage.body.language).toHaveLength(10);
    const wd = await admin('GET', '/api/v1/language/list', { query: { wd: '物流', field: ['code'] } });
    expect(wd.body).toEqual({ language: [{ code: 'logistics' }], total: 1 });
  });

  it('creates, updates, switches and deletes languages', async () => {
    expect(
      (
        await admin('POST', '/api/v1/language', {
          body: { language: '世界语（测试）', code: 'eo-TEST', enable: true, sort: 5 },
        })
      ).status,
    ).toBe(200);
    const dup = await admin('POST', '/api/v1/language', { body: { language: '教育2', code: 'EDUCATION' } });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('语言代码已存在');
    const created = (await admin('GET', '/api/v1/language/list', { query: { wd: 'eo-TEST' } })).body.language[0];
    expect(created).toMatchObject({ language: '世界语（测试）', code: 'eo-TEST', enable: true, sort: 5 });
    expect((await api(backend.url, 'GET', '/api/v1/language/list')).body.language[0].code).toBe('eo-TEST');
    await admin('PUT', '/api/v1/language', { body: { id: created.id, language: '测试语', code: 'xx', enable: false } });
    const updated = (await admin('GET', '/api/v1/language/list', { query: { wd: 'eo-TEST' } })).body.language[0];
    expect(updated).toMatchObject({ language: '测试语', code: 'eo-TEST' });
    expect((await api(backend.url, 'GET', '/api/v1/language/list')).body.total).toBe(16);
    await admin('PUT', '/api/v1/language/status', { body: { id: [created.id, 9], enable: true } });
    expect((await api(backend.url, 'GET', '/api/v1/language/list')).body.total).toBe(17);
    expect((await admin('DELETE', '/api/v1/language', { query: { id: created.id } })).status).toBe(200);
    expect((await api(backend.url, 'GET', '/api/v1/settings')).body.language).toHaveLength(16);
  });

  it.each([
    ['POST', '/api/v1/language', { code: 'ab' }, '语言名称不能为空'],
    ['POST', '/api/v1/language', { language: 'x', code: 'not a code' }, '代码只能包含字母、数字、下划线和短横线'],
    ['PUT', '/api/v1/language', { language: 'x' }, '语言ID不能为空'],
    ['PUT', '/api/v1/language/status', { enable: true }, '语言ID不能为空'],
    ['DELETE', '/api/v1/language', undefined, '语言ID不能为空'],
  ])('%s %s %j → 400', async (method, path, body, message) => {
    const res = await admin(method, path, { body });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it('answers 404 when updating an unknown language', async () => {
    expect((await admin('PUT', '/api/v1/language', { body: { id: 9999, language: 'x' } })).status).toBe(404);
  });
});

describe('PunishmentAPI', () => {
  it('creates one row per user and type, skipping user 1, with the operator recorded', async () => {
    const a = await registerMember(backend.url);
    const b = await registerMember(backend.url);
    const res = await admin('POST', '/api/v1/punishment', {
      body: { user_id: [a.user.id, b.user.id, 1], type: [2, 4], enable: true, reason: '刷屏', remark: '第一次' },
    });
    expect(res.status).toBe(200);
    const list = await admin('GET', '/api/v1/punishment/list', { query: { user_id: [a.user.id, b.user.id, 1] } });
    expect(list.body.total).toBe(4);
    const first = list.body.punishment[0];
    expect(first).toMatchObject({ enable: true, reason: '刷屏', remark: '第一次', username: expect.any(String) });
    expect(first.end_time).toBeUndefined();
    expect(JSON.parse(first.operators)).toEqual([{ u: 1, t: 1, ts: expect.any(Number) }]);
    const one = await admin('GET', '/api/v1/punishment', { query: { id: first.id } });
    expect(one.body).toMatchObject({ id: first.id, username: first.username });
  });

  it("takes an end later than the database's now, whatever the clock of the admin's machine says", async () => {
    const m = await registerMember(backend.url);
    const databaseNowMs = (await withDatabase(backend.dataDir, (db) => databaseNow(db))).getTime();
    // Through a machine 10 minutes ahead: an end 5 minutes on is still later than now.
    const res = await withClockOff(10 * 60_000, () =>
      admin('POST', '/api/v1/punishment', {
        body: { user_id: [m.user.id], type: [2], enable: true, end_time: new Date(databaseNowMs + 5 * 60_000) },
      }),
    );
    expect(res.status, res.text).toBe(200);
    const [row] = (await admin('GET', '/api/v1/punishment/list', { query: { user_id: m.user.id } })).body.punishment;
    expect(Date.parse(row.end_time)).toBe(databaseNowMs + 5 * 60_000);
  });

  it('updates, filters and cancels', async () => {
    const m = await registerMember(backend.url);
    await admin('POST', '/api/v1/punishment', { body: { user_id: [m.user.id], type: [5], enable: true } });
    const [row] = (await admin('GET', '/api/v1/punishment/list', { query: { user_id: m.user.id } })).body.punishment;
    const end = new Date(Date.now() + 86_400_000).toISOString();
    expect(
      (
        await admin('PUT', '/api/v1/punishment', {
          body: { id: row.id, user_id: m.user.id, type: 3, enable: true, end_time: end, reason: '改了' },
        })
      ).status,
    ).toBe(200);
    const updated = (await admin('GET', '/api/v1/punishment', { query: { id: row.id } })).body;
    expect(updated).toMatchObject({ type: 3, reason: '改了' });
    expect(Date.parse(updated.end_time)).toBe(Date.parse(end));
    expect(JSON.parse(updated.operators).map((o: { t: number }) => o.t)).toEqual([1, 2]);
    expect((await admin('GET', '/api/v1/punishment/list', { query: { type: 3, wd: '改了' } })).body.total).toBe(1);
    await admin('PUT', '/api/v1/punishment/cancel', { body: { id: [row.id] } });
    const cancelled = (await admin('GET', '/api/v1/punishment', { query: { id: row.id } })).body;
    expect(cancelled.enable).toBeUndefined();
    expect(
      (
        await admin('GET', '/api/v1/punishment/list', {
          query: { enable: 0, user_id: m.user.id, field: ['id', 'enable'] },
        })
      ).body.punishment,
    ).toEqual([{ id: row.id, username: m.username }]);
  });

  it.each([
    ['POST', '/api/v1/punishment', { type: [1] }, 400, '请选择用户'],
    ['POST', '/api/v1/punishment', { user_id: [2] }, 400, '请选择处罚类型'],
    ['POST', '/api/v1/punishment', { user_id: [2], type: [9] }, 400, '处罚类型必须在 1 到 6 之间'],
    ['POST', '/api/v1/punishment', { user_id: [9999], type: [1] }, 400, '用户不存在'],
    [
      'POST',
      '/api/v1/punishment',
      { user_id: [2], type: [1], end_time: '2001-01-01T00:00:00Z' },
      400,
      '处罚结束时间必须晚于当前时间',
    ],
    [
      'POST',
      '/api/v1/punishment',
      { user_id: [2], type: [1], end_time: 'tomorrow' },
      400,
      '参数 end_time 不是有效的时间（RFC 3339 格式，如 2024-05-01T10:20:30+08:00）',
    ],
    ['PUT', '/api/v1/punishment', { type: 1 }, 400, '请选择处罚记录（参数 id）'],
    ['PUT', '/api/v1/punishment', { id: 9999, type: 1 }, 404, '处罚记录不存在'],
    ['PUT', '/api/v1/punishment/cancel', {}, 400, '请选择要操作的处罚记录（参数 id）'],
  ])('%s %s %j → %i', async (method, path, body, status, message) => {
    const res = await admin(method, path, { body });
    expect(res.status).toBe(status);
    expect(res.body.message).toBe(message);
  });

  it('answers 404 for an unknown punishment', async () => {
    expect((await admin('GET', '/api/v1/punishment', { query: { id: 9999 } })).status).toBe(404);
  });
});
