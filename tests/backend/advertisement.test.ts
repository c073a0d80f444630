import { describe, expect, it } from 'vitest';
import { api, useBackend, withDatabase } from '../helpers/backend';
import { withClockOff } from '../helpers/clock';
import { databaseNow } from '../../backend/db/dialect';

// AdvertisementAPI: the admin's ads, and what visitors get of them (their positions, within
// their dates, enabled, without the admin's remark).

const backend = useBackend({ member: true });
const { admin } = backend;

const hoursFromNow = (hours: number) => new Date(Date.now() + hours * 3600_000).toISOString();
const LIVE = { start_time: hoursFromNow(-1), end_time: hoursFromNow(24) };

async function createAd(fields: Record<string, unknown>): Promise<{ id: number }> {
  const res = await admin('POST', '/api/v1/advertisement', { body: { ...LIVE, ...fields } });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

const live = (position?: string | string[]) =>
  api(backend.url, 'GET', '/api/v1/advertisement/position', { query: position === undefined ? {} : { position } });

describe('AdvertisementAPI', () => {
  it('creates an ad (always enabled, owned by the caller) and reads it back', async () => {
    const created = await admin('POST', '/api/v1/advertisement', {
      body: {
        ...LIVE,
        position: 'global_top',
        title: '顶部横幅',
        content: '<a href="https://ad.example"><img src="https://img.example/a.png" alt="广告"></a>',
        remark: '合同 1 号',
        enable: false,
      },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      position: 'global_top',
      title: '顶部横幅',
      remark: '合同 1 号',
      enable: true,
      user_id: 1,
    });
    const got = await admin('GET', '/api/v1/advertisement', { query: { id: created.body.id } });
    expect(got.body).toMatchObject({ id: created.body.id, position: 'global_top', title: '顶部横幅' });
    expect(Date.parse(got.body.start_time)).toBe(Date.parse(LIVE.start_time));
    expect(Date.parse(got.body.end_time)).toBe(Date.parse(LIVE.end_time));
    expect((await admin('GET', '/api/v1/advertisement', { query: { id: 99999 } })).body).toEqual({});
  });

  it('strips script, event handlers and unsafe links from the content, and marks links sponsored', async () => {
    const { id } = await createAd({
      position: 'global_bottom',
      content:
        '<div class="ad" onclick="steal()">看看<script>alert(1)</script><a href="javascript:alert(2)">坏</a><a href="https://ok.example" target="_blank">好</a><iframe src="https://x.example"></iframe><img src="http://insecure.example/x.png"></div>',
    });
    const got = await admin('GET', '/api/v1/advertisement', { query: { id } });
    const html = got.body.content as string;
    expect(html).not.toMatch(/script|onclick|javascript:|iframe|insecure/);
    expect(html).toContain(
      '<a href="https://ok.example" target="_blank" rel="sponsored nofollow noopener noreferrer">好</a>',
    );
    expect(html).toContain('<div class="ad">看看');
  });

  it.each([
    [{ content: '<b>x</b>' }, '广告位和广告内容均不能为空'],
    [{ position: 'global_top' }, '广告位和广告内容均不能为空'],
    [{ position: 'sidebar', content: '<b>x</b>' }, /^广告位不存在/],
    [{ position: 'global_top', content: '<script>alert(1)</script>' }, /^广告内容不能为空/],
    [{ position: 'global_top', content: 'x', start_time: null }, '请设置广告的开始时间和结束时间'],
    [
      { position: 'global_top', content: 'x', start_time: hoursFromNow(5), end_time: hoursFromNow(1) },
      '广告的结束时间不能早于开始时间',
    ],
  ])('refuses %j with 400', async (fields, message) => {
    const res = await admin('POST', '/api/v1/advertisement', { body: { ...LIVE, ...fields } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  it('replaces every column on update, and answers 404 for an unknown ad', async () => {
    const { id } = await createAd({ position: 'index_banner_bottom', title: '旧', content: '旧内容', remark: '备注' });
    const res = await admin('PUT', '/api/v1/advertisement', {
      body: { ...LIVE, id, position: 'index_link_top', content: '新内容', enable: false },
    });
    expect(res.status).toBe(200);
    const got = await admin('GET', '/api/v1/advertisement', { query: { id } });
    expect(got.body).toMatchObject({ id, position: 'index_link_top', content: '新内容' });
    expect(got.body.title).toBeUndefined();
    expect(got.body.remark).toBeUndefined();
    expect(got.body.enable).toBeUndefined();
    const missing = await admin('PUT', '/api/v1/advertisement', {
      body: { ...LIVE, id: 99999, position: 'global_top', content: 'x' },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('广告不存在');
  });

  it("starts and ends an ad by the database's clock, whatever the clock of the machine asked", async () => {
    const databaseNowMs = (await withDatabase(backend.dataDir, (db) => databaseNow(db))).getTime();
    const at = (minutes: number) => new Date(databaseNowMs + minutes * 60_000).toISOString();
    const soon = await createAd({
      position: 'list_document_bottom',
      content: '五分钟后',
      start_time: at(5),
      end_time: at(60),
    });
    const ending = await createAd({
      position: 'list_document_bottom',
      content: '还有五分钟',
      start_time: at(-60),
      end_time: at(5),
    });
    const shown = async (offMs: number) =>
      ((await withClockOff(offMs, () => live('list_document_bottom'))).body.advertisement ?? []).map(
        (ad: { id: number }) => ad.id,
      );
    const ended = await createAd({
      position: 'list_document_bottom',
      content: '五分钟前',
      start_time: at(-60),
      end_time: at(-5),
    });
    // A machine 10 minutes ahead starts no ad early nor ends one early; one 10 minutes behind shows none past its end.
    expect(await shown(10 * 60_000)).toEqual([ending.id]);
    expect(await shown(-10 * 60_000)).toEqual([ending.id]);
    expect([soon.id, ended.id].every((id) => id > 0)).toBe(true);
  });

  it('gives visitors the enabled ads of the asked positions within their dates, without the remark', async () => {
    const top = await createAd({ position: 'search_top', title: '在投', content: '在投广告', remark: '内部备注' });
    const other = await createAd({ position: 'search_bottom', content: '另一个位置' });
    await createAd({
      position: 'search_top',
      content: '未开始',
      start_time: hoursFromNow(2),
      end_time: hoursFromNow(5),
    });
    await createAd({
      position: 'search_top',
      content: '已结束',
      start_time: hoursFromNow(-5),
      end_time: hoursFromNow(-2),
    });
    const disabled = await createAd({ position: 'search_top', content: '已停用' });
    await admin('PUT', '/api/v1/advertisement', {
      body: { ...LIVE, id: disabled.id, position: 'search_top', content: '已停用', enable: false },
    });

    const res = await live('search_top');
    expect(res.status).toBe(200);
    expect(res.body.total).toBeUndefined();
    expect(res.body.advertisement).toHaveLength(1);
    expect(res.body.advertisement[0]).toMatchObject({
      id: top.id,
      position: 'search_top',
      title: '在投',
      content: '在投广告',
    });
    expect(res.body.advertisement[0].remark).toBeUndefined();

    const both = await live(['search_top', 'search_bottom']);
    expect(both.body.advertisement.map((a: { id: number }) => a.id)).toEqual([other.id, top.id]);
    const all = await live();
    expect(all.body.advertisement.map((a: { id: number }) => a.id)).toEqual(expect.arrayContaining([other.id, top.id]));
    expect(all.body.advertisement.every((a: { content: string }) => !/未开始|已结束|已停用/.test(a.content))).toBe(
      true,
    );
  });

  it('lists for the admin with position, enable and keyword filters, newest first, with a total', async () => {
    const a = await createAd({ position: 'user_top', title: '会员中心甲', content: 'a' });
    const b = await createAd({ position: 'user_top', title: '会员中心乙', content: 'b', remark: '关键字' });
    const res = await admin('GET', '/api/v1/advertisement/list', {
      query: { position: 'user_top', page: 1, size: 10 },
    });
    expect(res.body.total).toBe(2);
    expect(res.body.advertisement.map((x: { id: number }) => x.id)).toEqual([b.id, a.id]);
    const byWord = await admin('GET', '/api/v1/advertisement/list', { query: { wd: '关键字' } });
    expect(byWord.body.advertisement.map((x: { id: number }) => x.id)).toEqual([b.id]);
    const none = await admin('GET', '/api/v1/advertisement/list', { query: { position: 'user_top', enable: false } });
    expect(none.body).toEqual({}); // zero values are omitted
  });

  it('deletes by repeated id, and refuses an empty id list', async () => {
    const a = await createAd({ position: 'list_nav_bottom', content: 'a' });
    const b = await createAd({ position: 'list_nav_bottom', content: 'b' });
    expect((await admin('DELETE', '/api/v1/advertisement', { query: { id: [a.id, b.id] } })).status).toBe(200);
    const left = await admin('GET', '/api/v1/advertisement/list', { query: { position: 'list_nav_bottom' } });
    expect(left.body.advertisement).toBeUndefined();
    const empty = await admin('DELETE', '/api/v1/advertisement');
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('广告id不能为空');
  });

  it("refuses the admin calls to members (the list permission is the screen's)", async () => {
    const res = await api(backend.url, 'GET', '/api/v1/advertisement/list', { token: backend.member.token });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('您没有权限访问【获取广告列表】');
  });
});
