import { describe, expect, it } from 'vitest';
import { databaseNow } from '../../backend/db/dialect';
import { serverDayOf } from '../../backend/db/schema';
import { HOT_WINDOW_DAYS, recomputeHotDocuments } from '../../backend/modules/document/hot';
import { api, registerMember, useBackend, withDatabase } from '../helpers/backend';
import { insertDocument, runHotJob } from '../helpers/document-fixtures';
import { withClockOff } from '../helpers/clock';

// Across the library (issue 45): the 热门文档 ranking the `document.hot` job computes.

// JOB_POLL_MS: a ranking run the tests queue is taken within 0.1 s, not the default 1 s.
const backend = useBackend({ env: { JOB_POLL_MS: '100' } });
const DAY_MS = 24 * 3600_000;

const hotJobsDone = () =>
  withDatabase(
    backend.dataDir,
    async (db) =>
      (await db.selectFrom('job').select('id').where('kind', '=', 'document.hot').where('state', '=', 'done').execute())
        .length,
  );

const hotIds = async (query: Record<string, number> = {}) => {
  const res = await api(backend.url, 'GET', '/api/v1/document/hot', { query });
  expect(res.status, res.text).toBe(200);
  return {
    ids: (res.body.document ?? []).map((d: { id: number }) => d.id),
    total: res.body.total ?? 0,
    body: res.body,
  };
};

async function insertRows(
  table: 'download' | 'favorite',
  documentId: number,
  userId: number,
  createdAt: string,
  n: number,
): Promise<void> {
  await withDatabase(backend.dataDir, async (db) => {
    for (let i = 0; i < n; i += 1) {
      if (table === 'download') {
        await db
          .insertInto('download')
          .values({
            user_id: userId,
            document_id: documentId,
            ip: '127.0.0.1',
            is_pay: 0,
            created_at: createdAt,
            updated_at: createdAt,
          })
          .execute();
      } else {
        await db
          .insertInto('favorite')
          .values({
            user_id: userId + i,
            document_id: documentId,
            type: 0,
            owner_id: 1,
            award: 0,
            created_at: createdAt,
            updated_at: createdAt,
          })
          .execute();
      }
    }
  });
}

describe('ListHotDocuments and the document.hot job', () => {
  it('ranks public documents by views, downloads and favourites of the last 30 days, as the job last computed them', async () => {
    // The run at start is over (on an empty site): what follows is only seen after the next run.
    await expect.poll(hotJobsDone, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    const owner = await registerMember(backend.url);
    const viewed = await insertDocument(backend.dataDir, { userId: owner.user.id, title: '常看的文档' });
    const downloaded = await insertDocument(backend.dataDir, { userId: owner.user.id, title: '常下载的文档' });
    const favoured = await insertDocument(backend.dataDir, { userId: owner.user.id, title: '常收藏的文档' });
    const pending = await insertDocument(backend.dataDir, { userId: owner.user.id, status: 6 });
    const recycled = await insertDocument(backend.dataDir, {
      userId: owner.user.id,
      deletedAt: new Date().toISOString(),
    });
    const failed = await insertDocument(backend.dataDir, { userId: owner.user.id, status: 3 });
    const longAgo = await insertDocument(backend.dataDir, { userId: owner.user.id, title: '四十天前热门' });

    // 3 readers' views (a visit counts with with_author, once a day per address) = 3; 1 download = 5; 1 favourite = 10.
    for (let i = 1; i <= 3; i += 1) {
      const headers = { 'x-forwarded-for': `203.0.113.${i}` };
      expect(
        (await api(backend.url, 'GET', '/api/v1/document', { query: { id: viewed.id, with_author: true }, headers }))
          .status,
      ).toBe(200);
    }
    const now = new Date().toISOString();
    await insertRows('download', downloaded.id, owner.user.id, now, 1);
    const fan = await registerMember(backend.url);
    expect(
      (await api(backend.url, 'POST', '/api/v1/favorite', { token: fan.token, body: { document_id: favoured.id } }))
        .status,
    ).toBe(200);
    // What strangers may not see ranks nowhere, however busy; activity older than 30 days counts no more.
    for (const doc of [pending, recycled, failed]) await insertRows('download', doc.id, owner.user.id, now, 20);
    await insertRows('favorite', longAgo.id, 1000, new Date(Date.now() - 40 * DAY_MS).toISOString(), 5);
    await withDatabase(backend.dataDir, (db) =>
      db
        .insertInto('document_view_day')
        .values({
          document_id: longAgo.id,
          day: new Date(Date.now() - 31 * DAY_MS).toISOString().slice(0, 10),
          views: 100,
        })
        .execute(),
    );

    expect((await hotIds()).ids).toEqual([]);
    await runHotJob(backend.dataDir);
    const ranked = await hotIds();
    expect(ranked.ids).toEqual([favoured.id, downloaded.id, viewed.id]);
    expect(ranked.total).toBe(3);
    expect(ranked.body.document[0]).toMatchObject({ id: favoured.id, title: '常收藏的文档', favorite_count: 1 });

    // Paged; a document hidden since the job ran leaves the list at once.
    expect(await hotIds({ page: 2, size: 2 })).toMatchObject({ ids: [viewed.id], total: 3 });
    await withDatabase(backend.dataDir, (db) =>
      db.updateTable('document').set({ status: 4 }).where('id', '=', downloaded.id).execute(),
    );
    expect((await hotIds()).ids).toEqual([favoured.id, viewed.id]);

    // The job's next run is an hour away, not a run per request.
    const queued = await withDatabase(backend.dataDir, (db) =>
      db
        .selectFrom('job')
        .select('run_after')
        .where('kind', '=', 'document.hot')
        .where('state', '=', 'queued')
        .execute(),
    );
    expect(queued).toHaveLength(1);
    expect(Date.parse(queued[0]!.run_after) - Date.now()).toBeGreaterThan(50 * 60_000);
  });
});

describe("a view's day and a reading's time, by the database's clock whatever this process's says", () => {
  const databaseMs = async () => (await withDatabase(backend.dataDir, (db) => databaseNow(db))).getTime();
  const dayOf = (ms: number) => serverDayOf(new Date(ms));

  it("counts a view on the database's day, and the ranking's window ends at the database's now", async () => {
    const owner = await registerMember(backend.url);
    const viewed = await insertDocument(backend.dataDir, { userId: owner.user.id, title: '今天看的书' });
    const edge = await insertDocument(backend.dataDir, { userId: owner.user.id, title: '窗口第一天' });
    const before = await databaseMs();
    // The window's first day by the database's clock: it still counts and is kept.
    const firstDay = dayOf(before - HOT_WINDOW_DAYS * DAY_MS);
    await withDatabase(backend.dataDir, (db) =>
      db.insertInto('document_view_day').values({ document_id: edge.id, day: firstDay, views: 2 }).execute(),
    );
    // A day ahead: a day read from this clock is the next one at any hour.
    await withClockOff(DAY_MS, async () => {
      const res = await api(backend.url, 'GET', '/api/v1/document', { query: { id: viewed.id, with_author: true } });
      expect(res.status, res.text).toBe(200);
    });
    const after = await databaseMs();
    const days = () =>
      withDatabase(backend.dataDir, (db) =>
        db
          .selectFrom('document_view_day')
          .select(['document_id', 'day', 'views'])
          .where('document_id', 'in', [viewed.id, edge.id])
          .orderBy('document_id')
          .execute(),
      );
    expect(await days()).toEqual([
      { document_id: viewed.id, day: expect.toBeOneOf([dayOf(before), dayOf(after)]), views: 1 },
      { document_id: edge.id, day: firstDay, views: 2 },
    ]);
    await withClockOff(DAY_MS, () => withDatabase(backend.dataDir, (db) => recomputeHotDocuments(db)));
    expect((await days()).map((row) => row.document_id)).toEqual([viewed.id, edge.id]);
  });

  it("keeps and ranks the views of the window's first day in the server's time zone, the day views are counted on", async () => {
    // Whatever the hour, one of these is on another day than UTC: UTC+14 from 10:00 UTC, UTC-12 before 12:00.
    for (const zone of ['Etc/GMT-14', 'Etc/GMT+12']) {
      const before = process.env.TZ;
      process.env.TZ = zone;
      try {
        const owner = await registerMember(backend.url);
        const first = await insertDocument(backend.dataDir, { userId: owner.user.id, title: `窗口第一天${zone}` });
        const past = await insertDocument(backend.dataDir, { userId: owner.user.id, title: `窗口前一天${zone}` });
        const start = new Date((await databaseMs()) - HOT_WINDOW_DAYS * DAY_MS);
        const firstDay = serverDayOf(start);
        const pastDay = serverDayOf(new Date(start.getTime() - DAY_MS));
        await withDatabase(backend.dataDir, async (db) => {
          await db.insertInto('document_view_day').values({ document_id: first.id, day: firstDay, views: 3 }).execute();
          await db.insertInto('document_view_day').values({ document_id: past.id, day: pastDay, views: 3 }).execute();
          await recomputeHotDocuments(db);
          const kept = await db
            .selectFrom('document_view_day')
            .select('document_id')
            .where('document_id', 'in', [first.id, past.id])
            .execute();
          expect(
            kept.map((row) => row.document_id),
            zone,
          ).toEqual([first.id]);
          const ranked = await db
            .selectFrom('document_hot')
            .select('document_id')
            .where('document_id', 'in', [first.id, past.id])
            .execute();
          expect(
            ranked.map((row) => row.document_id),
            zone,
          ).toEqual([first.id]);
        });
      } finally {
        if (before === undefined) delete process.env.TZ;
        else process.env.TZ = before;
      }
    }
  });

  it("stamps a reading position with the database's now", async () => {
    const reader = await registerMember(backend.url);
    const doc = await insertDocument(backend.dataDir, { userId: 1, title: '读到第二页' });
    const before = await databaseMs();
    await withClockOff(10 * 60_000, async () => {
      const res = await api(backend.url, 'PUT', '/api/v1/document/reading', {
        token: reader.token,
        body: { document_id: doc.id, page: 2 },
      });
      expect(res.status, res.text).toBe(200);
    });
    const after = await databaseMs();
    const list = await api(backend.url, 'GET', '/api/v1/document/reading/list', { token: reader.token });
    const at = Date.parse(list.body.reading[0].updated_at);
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(after);
  });
});

describe('GetRelatedDocuments never empty for a document with neighbours', () => {
  async function category(title: string, parentId = 0): Promise<number> {
    const res = await backend.admin('POST', '/api/v1/category', {
      body: { title, type: 0, enable: true, parent_id: parentId },
    });
    expect(res.status, res.text).toBe(200);
    const list = await backend.admin('GET', '/api/v1/category/list', { query: { type: 0 } });
    return list.body.category.find((c: { title: string }) => c.title === title).id;
  }
  const fileUnder = (documentId: number, categoryIds: number[]) =>
    withDatabase(backend.dataDir, (db) =>
      db
        .insertInto('document_category')
        .values(
          categoryIds.map((categoryId) => ({
            document_id: documentId,
            category_id: categoryId,
            created_at: new Date().toISOString(),
            updated_at: new Date().toISOString(),
          })),
        )
        .execute(),
    );
  const relatedIds = async (id: number) => {
    const res = await api(backend.url, 'GET', '/api/v1/document/related', { query: { id } });
    expect(res.status, res.text).toBe(200);
    return (res.body.document ?? []).map((d: { id: number }) => d.id) as number[];
  };

  it('falls back to the same category (deepest first), then the hot list, never listing itself or hidden documents', async () => {
    const science = await category('自然科学');
    const physics = await category('物理学', science);
    const doc = await insertDocument(backend.dataDir, { userId: 1, title: '量子力学导论' });
    await fileUnder(doc.id, [science, physics]);
    const sameLeaf = await insertDocument(backend.dataDir, { userId: 1, title: '古典文学鉴赏' });
    await fileUnder(sameLeaf.id, [science, physics]);
    const sameRoot = await insertDocument(backend.dataDir, { userId: 1, title: '有机化学实验' });
    await fileUnder(sameRoot.id, [science]);
    for (const status of [4, 6, 3]) {
      const hidden = await insertDocument(backend.dataDir, { userId: 1, title: `隐藏的${status}`, status });
      await fileUnder(hidden.id, [science, physics]);
    }
    const hiddenIds = await withDatabase(backend.dataDir, async (db) =>
      (await db.selectFrom('document').select('id').where('status', 'in', [3, 4, 6]).execute()).map((r) => r.id),
    );
    const elsewhere = await insertDocument(backend.dataDir, { userId: 1, title: '烹饪技巧大全' });
    for (let i = 0; i < 2; i += 1)
      await api(backend.url, 'GET', '/api/v1/document', { query: { id: elsewhere.id, with_author: true } });
    await runHotJob(backend.dataDir);
    // What the site kept before the fallbacks: an empty list, still valid for days.
    await withDatabase(backend.dataDir, (db) =>
      db
        .insertInto('document_related')
        .values({ document_id: doc.id, related_ids: '[]', expires_at: new Date(Date.now() + 5 * DAY_MS).toISOString() })
        .execute(),
    );

    const related = await relatedIds(doc.id);
    expect(related.slice(0, 2)).toEqual([sameLeaf.id, sameRoot.id]);
    expect(related).toContain(elsewhere.id);
    expect(related).not.toContain(doc.id);
    for (const id of hiddenIds) expect(related).not.toContain(id);

    // Kept lists are read through the rights again: a neighbour hidden since is not shown.
    await withDatabase(backend.dataDir, (db) =>
      db.updateTable('document').set({ status: 4 }).where('id', '=', sameLeaf.id).execute(),
    );
    expect((await relatedIds(doc.id)).slice(0, 1)).toEqual([sameRoot.id]);
  });
});

describe('ListReadingHistory, DeleteReadingHistory, ClearReadingHistory', () => {
  const setPosition = (token: string, documentId: number, page: number) =>
    api(backend.url, 'PUT', '/api/v1/document/reading', { token, body: { document_id: documentId, page } });
  const history = async (token: string, query: Record<string, number> = {}) => {
    const res = await api(backend.url, 'GET', '/api/v1/document/reading/list', { token, query });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  it('keeps a place in a hidden document for its owner and the document admins only (decision 096)', async () => {
    const owner = await registerMember(backend.url);
    const hidden = await insertDocument(backend.dataDir, { userId: owner.user.id, title: '待审核的书', status: 6 });
    const permissions = (await backend.admin('GET', '/api/v1/permission/list', { query: { size: 1000 } })).body
      .permission as { id: number; path: string }[];
    const adminWith = async (title: string, path: string) => {
      const group = (await backend.admin('POST', '/api/v1/group', { body: { title } })).body.id as number;
      const id = permissions.find((p) => p.path === path)!.id;
      await backend.admin('PUT', '/api/v1/group/permission', { body: { group_id: group, permission_id: [id] } });
      const member = await registerMember(backend.url);
      await backend.admin('PUT', '/api/v1/user', { body: { id: member.user.id, group_id: [group] } });
      return member;
    };
    // An admin who answers feedback reads as a member does: the document is not there for them.
    const support = await adminWith('阅读记录客服', '/api.v1.FeedbackAPI/ListFeedback');
    const reviewer = await adminWith('阅读记录审核', '/api.v1.DocumentAPI/CheckDocument');
    const stranger = await registerMember(backend.url);
    for (const who of [support, stranger]) {
      const res = await setPosition(who.token, hidden.id, 2);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('文档不存在');
    }
    expect((await setPosition(owner.token, hidden.id, 2)).body).toEqual({ document_id: hidden.id, page: 2 });
    expect((await setPosition(reviewer.token, hidden.id, 9)).body).toEqual({ document_id: hidden.id, page: 3 });
  });

  it('lists what the member read, when and which page, newest first; clears one by one and all', async () => {
    const reader = await registerMember(backend.url);
    const other = await registerMember(backend.url);
    const first = await insertDocument(backend.dataDir, { userId: 1, title: '先读的书' });
    const second = await insertDocument(backend.dataDir, { userId: 1, title: '后读的书' });
    const hiddenLater = await insertDocument(backend.dataDir, { userId: 1, title: '后来下架的书' });
    expect((await setPosition(reader.token, first.id, 2)).status).toBe(200);
    expect((await setPosition(reader.token, hiddenLater.id, 1)).status).toBe(200);
    expect((await setPosition(reader.token, second.id, 3)).status).toBe(200);
    expect((await setPosition(other.token, first.id, 1)).status).toBe(200);
    // A document disabled since leaves the history (not shown to a stranger any more).
    await withDatabase(backend.dataDir, (db) =>
      db.updateTable('document').set({ status: 4 }).where('id', '=', hiddenLater.id).execute(),
    );

    const listed = await history(reader.token);
    expect(listed).toEqual({
      total: 2,
      reading: [
        { document_id: second.id, title: '后读的书', ext: '.pdf', pages: 3, page: 3, updated_at: expect.any(String) },
        { document_id: first.id, title: '先读的书', ext: '.pdf', pages: 3, page: 2, updated_at: expect.any(String) },
      ],
    });
    expect(Date.parse(listed.reading[0].updated_at)).toBeGreaterThanOrEqual(Date.parse(listed.reading[1].updated_at));
    expect(
      (await history(reader.token, { page: 2, size: 1 })).reading.map((r: { document_id: number }) => r.document_id),
    ).toEqual([first.id]);

    // One by one: only one's own records.
    const notMine = await api(backend.url, 'DELETE', '/api/v1/document/reading', {
      token: other.token,
      query: { document_id: second.id },
    });
    expect(notMine.status).toBe(404);
    expect(notMine.body.message).toBe('阅读记录不存在');
    expect(
      (
        await api(backend.url, 'DELETE', '/api/v1/document/reading', {
          token: reader.token,
          query: { document_id: second.id },
        })
      ).status,
    ).toBe(200);
    expect((await history(reader.token)).reading.map((r: { document_id: number }) => r.document_id)).toEqual([
      first.id,
    ]);
    const none = await api(backend.url, 'DELETE', '/api/v1/document/reading', { token: reader.token });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('请选择要删除的阅读记录（参数 document_id）');

    // All at once: the member's, not the other member's.
    expect((await api(backend.url, 'DELETE', '/api/v1/document/reading/all', { token: reader.token })).status).toBe(
      200,
    );
    expect(await history(reader.token)).toEqual({});
    expect((await history(other.token)).total).toBe(1);
    expect((await api(backend.url, 'GET', '/api/v1/document/reading/list')).status).toBe(401);
  });
});

describe('ListDocumentsForYou (猜你喜欢)', () => {
  it('offers documents of the categories the member reads and favourites, not yet read, most popular first', async () => {
    const member = await registerMember(backend.url);
    const makeCategory = async (title: string) => {
      expect((await backend.admin('POST', '/api/v1/category', { body: { title, type: 0, enable: true } })).status).toBe(
        200,
      );
      const list = await backend.admin('GET', '/api/v1/category/list', { query: { type: 0 } });
      return list.body.category.find((c: { title: string }) => c.title === title).id as number;
    };
    const [readCategory, favouriteCategory, elsewhere] = [
      await makeCategory('读过的类'),
      await makeCategory('收藏的类'),
      await makeCategory('无关的类'),
    ];
    const file = async (
      title: string,
      categoryId: number,
      opts: { views?: number; status?: number; userId?: number } = {},
    ) => {
      const doc = await insertDocument(backend.dataDir, { userId: opts.userId ?? 1, title, status: opts.status });
      await withDatabase(backend.dataDir, async (db) => {
        const ts = new Date().toISOString();
        await db
          .insertInto('document_category')
          .values({ document_id: doc.id, category_id: categoryId, created_at: ts, updated_at: ts })
          .execute();
        await db
          .updateTable('document')
          .set({ view_count: opts.views ?? 0 })
          .where('id', '=', doc.id)
          .execute();
      });
      return doc;
    };
    const read = await file('读过的', readCategory, { views: 100 });
    const favourite = await file('收藏过的', favouriteCategory, { views: 100 });
    const popular = await file('同类热门', readCategory, { views: 50 });
    const fromFavourites = await file('收藏同类', favouriteCategory, { views: 20 });
    const quiet = await file('同类冷门', readCategory, { views: 1 });
    await file('同类未公开', readCategory, { views: 90, status: 4 });
    await file('同类待审核', readCategory, { views: 90, status: 6 });
    await file('自己上传的', readCategory, { views: 90, userId: member.user.id });
    await file('别的类', elsewhere, { views: 90 });

    const forYou = async (token?: string) => api(backend.url, 'GET', '/api/v1/document/foryou', { token });
    expect((await forYou(member.token)).body).toEqual({});
    expect(
      (
        await api(backend.url, 'PUT', '/api/v1/document/reading', {
          token: member.token,
          body: { document_id: read.id, page: 1 },
        })
      ).status,
    ).toBe(200);
    expect(
      (await api(backend.url, 'POST', '/api/v1/favorite', { token: member.token, body: { document_id: favourite.id } }))
        .status,
    ).toBe(200);

    const res = await forYou(member.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.document.map((d: { title: string }) => d.title)).toEqual([
      popular.title,
      fromFavourites.title,
      quiet.title,
    ]);
    // Reading one takes it off the list.
    await api(backend.url, 'PUT', '/api/v1/document/reading', {
      token: member.token,
      body: { document_id: popular.id, page: 2 },
    });
    expect((await forYou(member.token)).body.document.map((d: { id: number }) => d.id)).toEqual([
      fromFavourites.id,
      quiet.id,
    ]);
    expect((await forYou()).status).toBe(401);
  });
});
