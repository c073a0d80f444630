import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { up as escapeDynamicTitles } from '../../backend/db/migrations/031_dynamic_title_escaped';
import { up as escapeDynamicRewards } from '../../backend/db/migrations/034_dynamic_reward_escaped';
import { api, registerMember, useBackend, withDatabase, type Member } from '../helpers/backend';
import { creditsOf, insertDocument } from '../helpers/document-fixtures';
import { withClockOff } from '../helpers/clock';
import { databaseNow } from '../../backend/db/dialect';

// FavoriteAPI: a member's favourite documents (and articles), the counters that follow, the
// uploader's reward within the daily limit, and the punishment that bars favourites.

const backend = useBackend();
const DAY_MS = 86_400_000;

const favorite = (member: Member, body: unknown) =>
  api(backend.url, 'POST', '/api/v1/favorite', { token: member.token, body });
const counters = (documentId: number) =>
  withDatabase(
    backend.dataDir,
    async (db) =>
      (await db.selectFrom('document').select('favorite_count').where('id', '=', documentId).executeTakeFirstOrThrow())
        .favorite_count,
  );
const favouritesOf = (userId: number) =>
  withDatabase(
    backend.dataDir,
    async (db) =>
      (await db.selectFrom('user').select('favorite_count').where('id', '=', userId).executeTakeFirstOrThrow())
        .favorite_count,
  );

describe('CreateFavorite, GetFavorite, ListFavorite, DeleteFavorite', () => {
  it("quotes the title HTML-escaped in the member's dynamic, which clients read as HTML (MOREDOC's form)", async () => {
    const owner = await registerMember(backend.url);
    const title = '<img src=x onerror=alert(1)>C++ & "STL"';
    const doc = await insertDocument(backend.dataDir, { userId: owner.user.id, title });
    const member = await registerMember(backend.url);
    expect((await favorite(member, { document_id: doc.id })).status).toBe(200);
    const dynamics = await api(backend.url, 'GET', '/api/v1/user/dynamic', { token: member.token });
    expect(dynamics.body.dynamic[0]).toMatchObject({
      type: 2,
      content: '收藏了文档《&lt;img src=x onerror=alert(1)&gt;C++ &amp; &quot;STL&quot;》',
    });
  });

  it('escapes the titles of dynamics written raw before titles were escaped, once (migration 031)', async () => {
    const member = await registerMember(backend.url);
    const doc = await insertDocument(backend.dataDir, { userId: member.user.id, title: 'Tom & Jerry <b>' });
    expect((await favorite(member, { document_id: doc.id })).status).toBe(200);
    // As the upload and download of an older version wrote them: the title as it was typed.
    await withDatabase(backend.dataDir, async (db) => {
      for (const [type, content] of [
        [3, '上传了文档《<img src=x onerror=alert(1)>C++ & "STL"》'],
        [4, "下载了文档《It's 1 < 2》"],
        [11, '签到成功，获得 5 魔豆奖励'],
      ] as const) {
        const ts = new Date().toISOString();
        await db
          .insertInto('dynamic')
          .values({ user_id: member.user.id, type, content, created_at: ts, updated_at: ts })
          .execute();
      }
      await escapeDynamicTitles(db as unknown as Kysely<unknown>);
    });
    const dynamics = await api(backend.url, 'GET', '/api/v1/user/dynamic', { token: member.token });
    const contents = (dynamics.body.dynamic as { type: number; content: string }[])
      .filter((d) => d.type !== 6)
      .map((d) => d.content);
    expect(contents.sort()).toEqual(
      [
        '上传了文档《&lt;img src=x onerror=alert(1)&gt;C++ &amp; &quot;STL&quot;》',
        '下载了文档《It&#39;s 1 &lt; 2》',
        // written escaped already: not escaped twice
        '收藏了文档《Tom &amp; Jerry &lt;b&gt;》',
        '签到成功，获得 5 魔豆奖励',
      ].sort(),
    );
  });

  it("escapes the credits' name in rewards written raw before it was escaped, once (migration 034)", async () => {
    const member = await registerMember(backend.url);
    // As sign-in and registration wrote them before: the admin's name for the credits as typed.
    await withDatabase(backend.dataDir, async (db) => {
      for (const [type, content] of [
        [11, '签到成功，获得 5 <img src=x onerror=alert(1)>豆奖励'],
        [6, '通过QQ注册成为会员，获得 10 "A&B\'s" 豆奖励'],
        // escaped already: not escaped twice
        [11, '签到成功，获得 1 &lt;i&gt;豆&lt;/i&gt; &amp; 币奖励'],
        // a title, not a reward: migration 031's
        [3, '上传了文档《<b>》'],
      ] as const) {
        const ts = new Date().toISOString();
        await db
          .insertInto('dynamic')
          .values({ user_id: member.user.id, type, content, created_at: ts, updated_at: ts })
          .execute();
      }
      await escapeDynamicRewards(db as unknown as Kysely<unknown>);
    });
    const dynamics = await api(backend.url, 'GET', '/api/v1/user/dynamic', { token: member.token });
    const contents = (dynamics.body.dynamic as { content: string }[])
      .map((d) => d.content)
      .filter((content) => !content.startsWith('注册成为会员')); // registerMember's own
    expect(contents.sort()).toEqual(
      [
        '签到成功，获得 5 &lt;img src=x onerror=alert(1)&gt;豆奖励',
        '通过QQ注册成为会员，获得 10 &quot;A&amp;B&#39;s&quot; 豆奖励',
        '签到成功，获得 1 &lt;i&gt;豆&lt;/i&gt; &amp; 币奖励',
        '上传了文档《<b>》',
      ].sort(),
    );
  });

  it("keeps a document once, lists it with the document's details, and forgets it again", async () => {
    const owner = await registerMember(backend.url);
    const doc = await insertDocument(backend.dataDir, { userId: owner.user.id, title: '机器学习入门' });
    const member = await registerMember(backend.url);

    expect(
      (await api(backend.url, 'GET', '/api/v1/favorite', { token: member.token, query: { document_id: doc.id } })).body,
    ).toEqual({});
    const created = await favorite(member, { document_id: doc.id, type: 0 });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(Number),
      user_id: member.user.id,
      document_id: doc.id,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await counters(doc.id)).toBe(1);
    expect(await favouritesOf(member.user.id)).toBe(1);

    const again = await favorite(member, { document_id: doc.id });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 6, message: '您已经收藏过了' });

    const got = await api(backend.url, 'GET', '/api/v1/favorite', {
      token: member.token,
      query: { document_id: doc.id, type: 0 },
    });
    expect(got.body.id).toBe(created.body.id);
    const list = await api(backend.url, 'GET', '/api/v1/favorite/list', {
      token: member.token,
      query: { page: 1, size: 10 },
    });
    expect(list.body).toEqual({
      total: 1,
      favorite: [
        expect.objectContaining({
          id: created.body.id,
          document_id: doc.id,
          title: '机器学习入门',
          ext: '.pdf',
          pages: 3,
          score: 300,
          size: doc.bytes.length,
          document_uuid: doc.uuid,
        }),
      ],
    });
    const dynamics = await api(backend.url, 'GET', '/api/v1/user/dynamic', { token: member.token });
    expect(dynamics.body.dynamic[0]).toMatchObject({ type: 2, content: '收藏了文档《机器学习入门》' });

    const stranger = await registerMember(backend.url);
    const notTheirs = await api(backend.url, 'DELETE', '/api/v1/favorite', {
      token: stranger.token,
      query: { id: created.body.id },
    });
    expect(notTheirs.status).toBe(404);
    expect(notTheirs.body.message).toBe('收藏不存在');
    expect(
      (await api(backend.url, 'DELETE', '/api/v1/favorite', { token: member.token, query: { id: created.body.id } }))
        .status,
    ).toBe(200);
    expect(await counters(doc.id)).toBe(0);
    expect(await favouritesOf(member.user.id)).toBe(0);
    expect((await api(backend.url, 'GET', '/api/v1/favorite/list', { token: member.token })).body).toEqual({});
  });

  it('pages the list newest first', async () => {
    const member = await registerMember(backend.url);
    const docs = [];
    for (let i = 0; i < 3; i += 1) docs.push(await insertDocument(backend.dataDir, { userId: 1, title: `文档${i}` }));
    for (const doc of docs) expect((await favorite(member, { document_id: doc.id })).status).toBe(200);
    const page = await api(backend.url, 'GET', '/api/v1/favorite/list', {
      token: member.token,
      query: { page: 2, size: 2 },
    });
    expect(page.body.total).toBe(3);
    expect(page.body.favorite.map((f: { document_id: number }) => f.document_id)).toEqual([docs[0]!.id]);
  });

  it('refuses documents strangers may not see, and answers 401 to guests', async () => {
    const owner = await registerMember(backend.url);
    const pending = await insertDocument(backend.dataDir, { userId: owner.user.id, status: 6 });
    const recycled = await insertDocument(backend.dataDir, {
      userId: owner.user.id,
      deletedAt: new Date().toISOString(),
    });
    const member = await registerMember(backend.url);
    for (const id of [pending.id, recycled.id, 987654]) {
      const res = await favorite(member, { document_id: id });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('文档不存在');
    }
    expect((await favorite(owner, { document_id: pending.id })).status).toBe(200);
    expect((await api(backend.url, 'POST', '/api/v1/favorite', { body: { document_id: pending.id } })).status).toBe(
      401,
    );
    const badType = await favorite(member, { document_id: pending.id, type: 3 });
    expect(badType.status).toBe(400);
    expect(badType.body.message).toBe('收藏类型不正确（0 文档，1 文章）');
  });

  it('refuses members barred from favourites or disabled', async () => {
    const doc = await insertDocument(backend.dataDir, { userId: 1 });
    for (const type of [5, 1]) {
      const member = await registerMember(backend.url);
      await backend.admin('POST', '/api/v1/punishment', {
        body: { user_id: [member.user.id], type: [type], enable: true },
      });
      const res = await favorite(member, { document_id: doc.id });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('您已经被禁止使用收藏功能');
    }
  });

  it('rewards the uploader score.document_collected credits, at most score.document_collected_limit times a day', async () => {
    await backend.setConfig({
      'score.document_collected': '2',
      'score.document_collected_limit': '2',
    });
    const owner = await registerMember(backend.url);
    const before = await creditsOf(backend.dataDir, owner.user.id);
    const docs = [];
    for (let i = 0; i < 2; i += 1) docs.push(await insertDocument(backend.dataDir, { userId: owner.user.id }));
    expect((await favorite(owner, { document_id: docs[0]!.id })).status).toBe(200);
    expect(await creditsOf(backend.dataDir, owner.user.id)).toBe(before);
    for (let i = 0; i < 3; i += 1) {
      const member = await registerMember(backend.url);
      expect((await favorite(member, { document_id: docs[i % 2]!.id })).status).toBe(200);
    }
    expect(await creditsOf(backend.dataDir, owner.user.id)).toBe(before + 4);
    // The uploader's 最近动态 (their credit history) says where each reward came from, and only the rewarded ones.
    const dynamics = await api(backend.url, 'GET', '/api/v1/user/dynamic', { token: owner.token });
    const awards = (dynamics.body.dynamic as { type: number; content: string }[]).filter((d) => d.type === 17);
    expect(awards.map((d) => d.content)).toEqual([
      `文档《${docs[1]!.title}》被收藏，获得 2 魔豆`,
      `文档《${docs[0]!.title}》被收藏，获得 2 魔豆`,
    ]);
    await backend.setConfig({
      'score.document_collected': '1',
      'score.document_collected_limit': '1',
    });
  });

  it("counts the day of the award limit by the database's clock, and stamps the favourite by it", async () => {
    await backend.setConfig({ 'score.document_collected': '2', 'score.document_collected_limit': '1' });
    const owner = await registerMember(backend.url);
    const before = await creditsOf(backend.dataDir, owner.user.id);
    const docs = [
      await insertDocument(backend.dataDir, { userId: owner.user.id }),
      await insertDocument(backend.dataDir, { userId: owner.user.id }),
    ];
    const first = await registerMember(backend.url);
    expect((await favorite(first, { document_id: docs[0]!.id })).status).toBe(200);
    expect(await creditsOf(backend.dataDir, owner.user.id)).toBe(before + 2);
    // Through a machine whose clock is a day ahead: still the database's day, whose one award is paid.
    const second = await registerMember(backend.url);
    const databaseBefore = await withDatabase(backend.dataDir, (db) => databaseNow(db));
    const res = await withClockOff(DAY_MS, () => favorite(second, { document_id: docs[1]!.id }));
    expect(res.status, res.text).toBe(200);
    const databaseAfter = await withDatabase(backend.dataDir, (db) => databaseNow(db));
    expect(await creditsOf(backend.dataDir, owner.user.id)).toBe(before + 2);
    const stamped = Date.parse(res.body.created_at as string);
    expect(stamped).toBeGreaterThanOrEqual(databaseBefore.getTime());
    expect(stamped).toBeLessThanOrEqual(databaseAfter.getTime());
    await backend.setConfig({ 'score.document_collected': '1', 'score.document_collected_limit': '1' });
  });

  it('keeps published articles too, listed by title and identifier', async () => {
    const member = await registerMember(backend.url);
    const [published, draft] = await withDatabase(backend.dataDir, async (db) => {
      const ts = new Date().toISOString();
      const insert = async (identifier: string, title: string, status: number) =>
        (
          await db
            .insertInto('article')
            .values({ identifier, title, user_id: 1, status, created_at: ts, updated_at: ts })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      return [await insert(`about-${Date.now()}`, '关于我们', 1), await insert(`draft-${Date.now()}`, '草稿', 0)];
    });
    expect((await favorite(member, { document_id: published, type: 1 })).status).toBe(200);
    const refused = await favorite(member, { document_id: draft, type: 1 });
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe('文章不存在');
    const list = await api(backend.url, 'GET', '/api/v1/favorite/list', { token: member.token, query: { type: 1 } });
    expect(list.body.favorite).toEqual([
      expect.objectContaining({
        document_id: published,
        type: 1,
        title: '关于我们',
        document_uuid: expect.stringMatching(/^about-/),
      }),
    ]);
    expect(
      (await api(backend.url, 'GET', '/api/v1/favorite/list', { token: member.token, query: { type: 0 } })).body,
    ).toEqual({});
    const count = await withDatabase(
      backend.dataDir,
      async (db) =>
        (await db.selectFrom('article').select('favorite_count').where('id', '=', published!).executeTakeFirstOrThrow())
          .favorite_count,
    );
    expect(count).toBe(1);
  });
});
