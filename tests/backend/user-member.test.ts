import { describe, expect, it } from 'vitest';
import { DocumentStatus } from '../../shared/constants';
import { api, registerMember, useBackend, withDatabase } from '../helpers/backend';
import { withClockOff } from '../helpers/clock';
import { databaseNow } from '../../backend/db/dialect';
import { createDocument, nonUploader } from '../helpers/document-api';

// UserAPI: what a logged-in member asks about themself.

const backend = useBackend();

const DAY_MS = 24 * 3600_000;
const localDate = (d = new Date()) => {
  return d.getFullYear() * 10000 + (d.getMonth() + 1) * 100 + d.getDate();
};

describe('GetUserPermissions', () => {
  it('gives user 1 every permission row and a plain member none', async () => {
    const all = await api(backend.url, 'GET', '/api/v1/permission/list', { token: backend.adminToken });
    const mine = await api(backend.url, 'GET', '/api/v1/user/permission', { token: backend.adminToken });
    expect(mine.body.permission).toHaveLength(all.body.total);
    expect(mine.body.permission[0]).toMatchObject({
      id: expect.any(Number),
      method: 'GRPC',
      path: expect.stringMatching(/^\/api\.v1\./),
      title: expect.any(String),
    });
    const member = await registerMember(backend.url);
    expect((await api(backend.url, 'GET', '/api/v1/user/permission', { token: member.token })).body).toEqual({});
  });

  it('includes the upload rows (method POST) with Chinese titles', async () => {
    const mine = await api(backend.url, 'GET', '/api/v1/user/permission', { token: backend.adminToken });
    const uploads = mine.body.permission.filter((p: { method: string }) => p.method === 'POST');
    expect(uploads.map((p: { path: string; title: string }) => [p.path, p.title])).toEqual([
      ['/api/v1/upload/avatar', '更新头像'],
      ['/api/v1/upload/banner', '上传轮播图'],
      ['/api/v1/upload/category', '上传文档分类封面'],
      ['/api/v1/upload/config', '上传配置图片文件'],
      ['/api/v1/upload/article', '上传文章图片和音视频'],
    ]);
  });
});

describe('CanIUploadDocument and CanIPublishArticle', () => {
  it('lets a member of a fresh site upload, into review', async () => {
    const member = await registerMember(backend.url);
    expect((await api(backend.url, 'GET', '/api/v1/user/caniuploaddocument', { token: member.token })).body).toEqual(
      {},
    );
    const doc = await createDocument(backend.url, member.token, Buffer.from('新站点的第一篇文档'), '第一篇.txt');
    expect(doc.status).toBe(DocumentStatus.PendingReview);
  });

  it('follow the group flags and the punishments', async () => {
    const member = await nonUploader(backend.url, backend.adminToken);
    const upload = await api(backend.url, 'GET', '/api/v1/user/caniuploaddocument', { token: member.token });
    expect(upload.status).toBe(403);
    expect(upload.body.message).toBe('您没有上传文档的权限');
    expect((await api(backend.url, 'GET', '/api/v1/user/canipublisharticle', { token: member.token })).body).toEqual(
      {},
    );

    await api(backend.url, 'PUT', '/api/v1/user', {
      token: backend.adminToken,
      body: { id: member.user.id, group_id: [1] },
    });
    expect((await api(backend.url, 'GET', '/api/v1/user/caniuploaddocument', { token: member.token })).status).toBe(
      200,
    );

    await api(backend.url, 'POST', '/api/v1/punishment', {
      token: backend.adminToken,
      body: { user_id: [member.user.id], type: [3, 6], enable: true },
    });
    expect((await api(backend.url, 'GET', '/api/v1/user/caniuploaddocument', { token: member.token })).status).toBe(
      403,
    );
    const publish = await api(backend.url, 'GET', '/api/v1/user/canipublisharticle', { token: member.token });
    expect(publish.body).toMatchObject({ code: 7, message: '您没有发布文章的权限' });

    const list = await api(backend.url, 'GET', '/api/v1/punishment/list', {
      token: backend.adminToken,
      query: { user_id: member.user.id },
    });
    await api(backend.url, 'PUT', '/api/v1/punishment/cancel', {
      token: backend.adminToken,
      body: { id: list.body.punishment.map((p: { id: number }) => p.id) },
    });
    expect((await api(backend.url, 'GET', '/api/v1/user/caniuploaddocument', { token: member.token })).status).toBe(
      200,
    );
    expect((await api(backend.url, 'GET', '/api/v1/user/canipublisharticle', { token: member.token })).status).toBe(
      200,
    );
  });

  it('ignores punishments that have ended', async () => {
    const member = await registerMember(backend.url);
    await api(backend.url, 'POST', '/api/v1/punishment', {
      token: backend.adminToken,
      body: {
        user_id: [member.user.id],
        type: [6],
        enable: true,
        end_time: new Date(Date.now() + 60_000).toISOString(),
      },
    });
    expect((await api(backend.url, 'GET', '/api/v1/user/canipublisharticle', { token: member.token })).status).toBe(
      403,
    );
    await withDatabase(backend.dataDir, (db) =>
      db
        .updateTable('punishment')
        .set({ end_time: '2000-01-01T00:00:00.000Z' })
        .where('user_id', '=', member.user.id)
        .execute(),
    );
    expect((await api(backend.url, 'GET', '/api/v1/user/canipublisharticle', { token: member.token })).status).toBe(
      200,
    );
  });
});

describe('SignToday and GetSignedToday', () => {
  it('signs once a day, awards the credits and writes a dynamic', async () => {
    const member = await registerMember(backend.url);
    const before = await api(backend.url, 'GET', '/api/v1/user/sign', { token: member.token });
    expect(before.status).toBe(404);
    expect(before.body.message).toBe('您今天还没有签到');
    // Ours: the same fact without an error status (decision 099).
    const today = await api(backend.url, 'GET', '/api/v1/user/sign/today', { token: member.token });
    expect(today.status).toBe(200);
    expect(today.body).toEqual({});
    const sign = await api(backend.url, 'PUT', '/api/v1/user/sign', { token: member.token });
    expect(sign.status).toBe(200);
    expect(sign.body).toMatchObject({ user_id: member.user.id, sign_at: localDate(), award: 1, ip: '127.0.0.1' });
    const again = await api(backend.url, 'PUT', '/api/v1/user/sign', { token: member.token });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('您今天已经签到过了');
    expect((await api(backend.url, 'GET', '/api/v1/user/sign', { token: member.token })).body.id).toBe(sign.body.id);
    const signed = await api(backend.url, 'GET', '/api/v1/user/sign/today', { token: member.token });
    expect(signed.status).toBe(200);
    expect(signed.body.sign).toEqual(sign.body);
    expect((await api(backend.url, 'GET', '/api/v1/user/sign/today')).status).toBe(401);
    const me = await api(backend.url, 'GET', '/api/v1/user', { token: member.token });
    expect(me.body.credit_count).toBe(11);
    const dynamics = await api(backend.url, 'GET', '/api/v1/user/dynamic', { token: member.token });
    expect(dynamics.body.dynamic[0]).toMatchObject({
      type: 11,
      content: '签到成功，获得 1 魔豆奖励',
      user_id: member.user.id,
    });
  });

  it("counts the day by the database's clock: a check-in through a machine a day ahead is today's", async () => {
    const member = await registerMember(backend.url);
    const databaseDay = async () => localDate(await withDatabase(backend.dataDir, (db) => databaseNow(db)));
    const before = await databaseDay();
    const sign = await withClockOff(DAY_MS, () =>
      api(backend.url, 'PUT', '/api/v1/user/sign', { token: member.token }),
    );
    expect(sign.status, sign.text).toBe(200);
    const after = await databaseDay();
    expect(sign.body.sign_at).toBeOneOf([before, after]);
    // The machine on time finds it, and refuses a second one the same day.
    const today = await api(backend.url, 'GET', '/api/v1/user/sign/today', { token: member.token });
    expect(today.body.sign).toEqual(sign.body);
    expect((await api(backend.url, 'PUT', '/api/v1/user/sign', { token: member.token })).status).toBe(409);
  });

  it('says no reward in the dynamic when the site awards none for a check-in', async () => {
    await backend.setConfig({ 'score.sign_in': '0' });
    try {
      const member = await registerMember(backend.url);
      const sign = await api(backend.url, 'PUT', '/api/v1/user/sign', { token: member.token });
      expect(sign.status).toBe(200);
      const dynamics = await api(backend.url, 'GET', '/api/v1/user/dynamic', { token: member.token });
      expect(dynamics.body.dynamic[0]).toMatchObject({ type: 11, content: '签到成功' });
      expect((await api(backend.url, 'GET', '/api/v1/user', { token: member.token })).body.credit_count).toBe(10);
    } finally {
      await backend.setConfig({ 'score.sign_in': '1' });
    }
  });

  it("writes the credits' name into the dynamic as HTML text, as a title is", async () => {
    // A dynamic is HTML (MOREDOC's client shows it so): the admin's name for the credits is escaped.
    await backend.setConfig({ 'score.credit_name': '<i>豆</i>' });
    try {
      const member = await registerMember(backend.url);
      await api(backend.url, 'PUT', '/api/v1/user/sign', { token: member.token });
      const dynamics = await api(backend.url, 'GET', '/api/v1/user/dynamic', { token: member.token });
      expect(dynamics.body.dynamic[0].content).toBe('签到成功，获得 1 &lt;i&gt;豆&lt;/i&gt;奖励');
    } finally {
      await backend.setConfig({ 'score.credit_name': '魔豆' });
    }
  });
});

describe('ListUserDynamic', () => {
  it('lists the own activity newest first with a total; size is clamped to 10…100', async () => {
    const member = await registerMember(backend.url);
    await api(backend.url, 'PUT', '/api/v1/user/profile', {
      token: member.token,
      body: { id: member.user.id, signature: '嗨' },
    });
    const res = await api(backend.url, 'GET', '/api/v1/user/dynamic', {
      token: member.token,
      query: { page: 1, size: 1 },
    });
    expect(res.body.total).toBe(2);
    expect(res.body.dynamic.map((d: { type: number }) => d.type)).toEqual([9, 6]);
    const other = await registerMember(backend.url);
    expect((await api(backend.url, 'GET', '/api/v1/user/dynamic', { token: other.token })).body.total).toBe(1);
  });
});

describe('ListUserDownload', () => {
  it('lists the own downloads joined with their documents', async () => {
    const member = await registerMember(backend.url);
    expect((await api(backend.url, 'GET', '/api/v1/user/download', { token: member.token })).body).toEqual({});
    await withDatabase(backend.dataDir, async (db) => {
      const ts = new Date().toISOString();
      const doc = await db
        .insertInto('document')
        .values({
          title: '手册',
          user_id: 1,
          uuid: 'abcdef0123456789',
          ext: '.pdf',
          pages: 12,
          size: 2048,
          score: 400,
          created_at: ts,
          updated_at: ts,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('download')
        .values({
          user_id: member.user.id,
          document_id: doc.id,
          ip: '10.0.0.1',
          is_pay: 1,
          created_at: ts,
          updated_at: ts,
        })
        .execute();
    });
    const res = await api(backend.url, 'GET', '/api/v1/user/download', {
      token: member.token,
      query: { page: 1, size: 10 },
    });
    expect(res.body.total).toBe(1);
    expect(res.body.download[0]).toMatchObject({
      user_id: member.user.id,
      ip: '10.0.0.1',
      is_pay: true,
      title: '手册',
      ext: '.pdf',
      pages: 12,
      size: 2048,
      score: 400,
      document_uuid: 'abcdef0123456789',
    });
  });
});

describe('ListUserGroup', () => {
  it('lists the groups of the caller with every column', async () => {
    const member = await registerMember(backend.url);
    const res = await api(backend.url, 'GET', '/api/v1/user/group', { token: member.token });
    expect(res.body.group).toEqual([
      expect.objectContaining({
        id: 2,
        title: '普通用户',
        is_default: true,
        enable_comment: true,
        enable_document_review: true,
      }),
    ]);
  });
});
