import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseNow } from '../../backend/db/dialect';
import { serverDayOf } from '../../backend/db/schema';
import { api, registerMember, startBackend, useBackend, withDatabase, type StartedBackend } from '../helpers/backend';
import { insertDocument } from '../helpers/document-fixtures';
import { withClockOff } from '../helpers/clock';
import { databaseOf, TEST_ENGINE } from '../helpers/test-database';

// A reader's views of a document or an article count once a day per client address (decision 119): a loop
// asking for one page moves neither `view_count` nor the day's views that rank 热门. The backend believes the
// test's X-Forwarded-For (BACKEND_TRUST_PROXY 127.0.0.1), so each test acts as several clients. A second
// backend shares the first one's database, as instances behind a load balancer do (on SQLite its DATA_DIR,
// on PostgreSQL its DATABASE_URL): what one counted, the other does not count again.

/** The process remembers this many counted views: few, so that a test passes the bound. */
const REMEMBERED = 4;
const DAY_MS = 24 * 3600_000;

const backend = useBackend({ build: { viewsRemembered: REMEMBERED } });
const { admin } = backend;

let other: StartedBackend;
beforeAll(async () => {
  const build = { viewsRemembered: REMEMBERED };
  other =
    TEST_ENGINE === 'postgres'
      ? await startBackend({ env: { DATABASE_URL: databaseOf(backend.dataDir)! }, build })
      : await startBackend({ build, dataDir: backend.dataDir });
});
// Before useBackend's own (after-hooks run last-registered first): the database stays the first one's.
afterAll(async () => {
  await other?.close({ keepData: TEST_ENGINE === 'sqlite' });
});

let nextAddress = 0;
/** A client address no other test used. */
const newAddress = () => `198.51.100.${++nextAddress}`;

const readDocument = async (id: number, address: string, url = backend.url) => {
  const res = await api(url, 'GET', '/api/v1/document', {
    query: { id, with_author: true },
    headers: { 'x-forwarded-for': address },
  });
  expect(res.status, res.text).toBe(200);
  return res;
};

const readArticle = async (id: number, address: string, url = backend.url) => {
  const res = await api(url, 'GET', '/api/v1/article', {
    query: { id },
    headers: { 'x-forwarded-for': address },
  });
  expect(res.status, res.text).toBe(200);
  return res;
};

/** The document's stored view count and the sum of its views by day (what 热门 ranks by). */
const documentViews = (id: number) =>
  withDatabase(backend.dataDir, async (db) => {
    const row = await db.selectFrom('document').select('view_count').where('id', '=', id).executeTakeFirstOrThrow();
    const days = await db.selectFrom('document_view_day').select('views').where('document_id', '=', id).execute();
    return { stored: Number(row.view_count), byDay: days.reduce((sum, day) => sum + Number(day.views), 0) };
  });

const articleViews = (id: number) =>
  withDatabase(backend.dataDir, async (db) =>
    Number(
      (await db.selectFrom('article').select('view_count').where('id', '=', id).executeTakeFirstOrThrow()).view_count,
    ),
  );

/** The views remembered, by day: `{ '2026-12-07': 3 }`. */
const remembered = () =>
  withDatabase(backend.dataDir, async (db) => {
    const rows = await db
      .selectFrom('view_seen')
      .select((eb) => ['day', eb.fn.countAll<number>().as('n')])
      .groupBy('day')
      .execute();
    return Object.fromEntries(rows.map((row) => [row.day, Number(row.n)]));
  });

/** The server's day of the database's now: the day a view is remembered on. */
const databaseDay = () => withDatabase(backend.dataDir, async (db) => serverDayOf(await databaseNow(db)));

/** Runs `work` with this process (and the backends started in it) in the time zone `zone`. */
async function inTimeZone<T>(zone: string, work: () => Promise<T>): Promise<T> {
  const before = process.env.TZ;
  process.env.TZ = zone;
  try {
    return await work();
  } finally {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
}

/** The days a document's views were remembered and counted on (`view_seen`, `document_view_day`). */
const daysOfViews = (id: number) =>
  withDatabase(backend.dataDir, async (db) => ({
    remembered: (await db.selectFrom('view_seen').select('day').where('key', 'like', `document ${id} %`).execute()).map(
      (row) => row.day,
    ),
    counted: (await db.selectFrom('document_view_day').select('day').where('document_id', '=', id).execute()).map(
      (row) => row.day,
    ),
  }));

/** Ends the day of every view remembered: they are dated a past day, as they are once the database's day is over. */
const endTheDay = () =>
  withDatabase(backend.dataDir, (db) => db.updateTable('view_seen').set({ day: '2000-01-01' }).execute());

async function newDocument(): Promise<number> {
  const owner = await registerMember(backend.url);
  return (await insertDocument(backend.dataDir, { userId: owner.user.id })).id;
}

async function newArticle(): Promise<number> {
  const res = await admin('POST', '/api/v1/article', {
    body: { title: `浏览计数文章${++nextAddress}`, content: '<p>浏览计数</p>' },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.id as number;
}

describe('document views', () => {
  it('counts ten views of one address once, another address’s too, and the address again the next day', async () => {
    const id = await newDocument();
    const reader = newAddress();
    for (let i = 0; i < 10; i += 1) await readDocument(id, reader);
    expect(await documentViews(id)).toEqual({ stored: 1, byDay: 1 });
    // As MOREDOC, the answer is the stored count plus one, counted or not.
    expect((await readDocument(id, reader)).body.view_count).toBe(2);

    await readDocument(id, newAddress());
    expect(await documentViews(id)).toEqual({ stored: 2, byDay: 2 });

    // The next day: the reader counts again, once.
    await endTheDay();
    await readDocument(id, reader);
    await readDocument(id, reader);
    expect(await documentViews(id)).toEqual({ stored: 3, byDay: 3 });
  });

  it("counts by the database's day, whatever the day by this machine's clock", async () => {
    const id = await newDocument();
    const reader = newAddress();
    await readDocument(id, reader);
    // A machine a day ahead, then one a day behind: the database's day is still the one the view was counted on.
    await withClockOff(DAY_MS, () => readDocument(id, reader));
    await withClockOff(-DAY_MS, () => readDocument(id, reader));
    expect(await documentViews(id)).toEqual({ stored: 1, byDay: 1 });
  });

  it("counts on the server's day, its time zone's as every daily count, not the UTC day", async () => {
    // Whatever the hour, one of these is on another day than UTC: UTC+14 from 10:00 UTC, UTC-12 before 12:00.
    for (const zone of ['Etc/GMT-14', 'Etc/GMT+12']) {
      await inTimeZone(zone, async () => {
        const id = await newDocument();
        const reader = newAddress();
        const dayBefore = await databaseDay();
        await readDocument(id, reader);
        await readDocument(id, reader);
        // Its day, read around the view: either, should the zone's midnight fall between.
        const days = [dayBefore, await databaseDay()];
        const { remembered, counted } = await daysOfViews(id);
        expect(remembered, zone).toHaveLength(1);
        expect(days, zone).toContain(remembered[0]);
        expect(counted, zone).toEqual(remembered);
        expect(await documentViews(id)).toEqual({ stored: 1, byDay: 1 });
      });
    }
  });

  it('counts a reader once through two backends sharing the database, reads at once through both too', async () => {
    const id = await newDocument();
    const reader = newAddress();
    await readDocument(id, reader, backend.url);
    await readDocument(id, reader, other.url);
    expect(await documentViews(id)).toEqual({ stored: 1, byDay: 1 });
    const atOnce = newAddress();
    await Promise.all(Array.from({ length: 6 }, (_, i) => readDocument(id, atOnce, i % 2 ? other.url : backend.url)));
    expect(await documentViews(id)).toEqual({ stored: 2, byDay: 2 });
  });

  it('counts an IPv6 reader by the /64: another address in it is the same reader, one in the next /64 is not', async () => {
    const id = await newDocument();
    await readDocument(id, '2001:db8:19::1');
    await readDocument(id, '2001:db8:19::2');
    await readDocument(id, '2001:db8:19:0:ffff:ffff:ffff:ffff');
    expect(await documentViews(id)).toEqual({ stored: 1, byDay: 1 });
    await readDocument(id, '2001:db8:19:1::1');
    expect(await documentViews(id)).toEqual({ stored: 2, byDay: 2 });
    // An IPv4 reader whose address a dual-stack socket reports IPv4-mapped is the one reader too.
    await readDocument(id, '198.51.100.250');
    await readDocument(id, '::ffff:198.51.100.250');
    expect(await documentViews(id)).toEqual({ stored: 3, byDay: 3 });
  });

  it('counts views made at once by one address once', async () => {
    const id = await newDocument();
    const reader = newAddress();
    await Promise.all(Array.from({ length: 6 }, () => readDocument(id, reader)));
    expect(await documentViews(id)).toEqual({ stored: 1, byDay: 1 });
  });

  it('counts a view without with_author nowhere, as before', async () => {
    const id = await newDocument();
    const res = await api(backend.url, 'GET', '/api/v1/document', {
      query: { id },
      headers: { 'x-forwarded-for': newAddress() },
    });
    expect(res.status).toBe(200);
    expect(await documentViews(id)).toEqual({ stored: 0, byDay: 0 });
  });

  it('forgets the oldest view past its bound, which then counts again', async () => {
    const reader = newAddress();
    const ids = [];
    for (let i = 0; i <= REMEMBERED; i += 1) ids.push(await newDocument());
    for (const id of ids) await readDocument(id, reader);
    // REMEMBERED + 1 views remembered in turn: the first is forgotten, the last ones are not.
    await readDocument(ids[0]!, reader);
    await readDocument(ids[REMEMBERED]!, reader);
    expect((await documentViews(ids[0]!)).stored).toBe(2);
    expect((await documentViews(ids[REMEMBERED]!)).stored).toBe(1);
  });

  it('remembers no more than its bound of a flood of readers, and none of a past day', async () => {
    const id = await newDocument();
    for (let i = 0; i < 3 * REMEMBERED; i += 1) await readDocument(id, newAddress(), i % 2 ? other.url : backend.url);
    expect((await documentViews(id)).stored).toBe(3 * REMEMBERED);
    const today = await databaseDay();
    expect(await remembered()).toEqual({ [today]: REMEMBERED });
    await endTheDay();
    await readDocument(id, newAddress());
    expect(await remembered()).toEqual({ [today]: 1 });
  });
});

describe('article views', () => {
  it('counts ten views of one address once, by id or identifier, another address’s too, and the next day', async () => {
    const id = await newArticle();
    const reader = newAddress();
    const identifier = (await readArticle(id, reader)).body.identifier as string;
    for (let i = 0; i < 9; i += 1)
      expect(
        (
          await api(backend.url, 'GET', '/api/v1/article', {
            query: i % 2 ? { id } : { identifier },
            headers: { 'x-forwarded-for': reader },
          })
        ).status,
      ).toBe(200);
    expect(await articleViews(id)).toBe(1);
    // A repeated view answers the stored count.
    expect((await readArticle(id, reader)).body.view_count).toBe(1);

    expect((await readArticle(id, newAddress())).body.view_count).toBe(2);
    // Not the next day by this machine's clock: the next day by the database's.
    await withClockOff(DAY_MS, () => readArticle(id, reader));
    expect(await articleViews(id)).toBe(2);
    await endTheDay();
    await readArticle(id, reader);
    await readArticle(id, reader);
    expect(await articleViews(id)).toBe(3);
  });

  it('counts a reader once through two backends sharing the database', async () => {
    const id = await newArticle();
    const reader = newAddress();
    expect((await readArticle(id, reader, other.url)).body.view_count).toBe(1);
    expect((await readArticle(id, reader, backend.url)).body.view_count).toBe(1);
    expect(await articleViews(id)).toBe(1);
  });

  it('forgets the oldest view past its bound, which then counts again', async () => {
    const reader = newAddress();
    const ids = [];
    for (let i = 0; i <= REMEMBERED; i += 1) ids.push(await newArticle());
    for (const id of ids) await readArticle(id, reader);
    await readArticle(ids[0]!, reader);
    await readArticle(ids[REMEMBERED]!, reader);
    expect(await articleViews(ids[0]!)).toBe(2);
    expect(await articleViews(ids[REMEMBERED]!)).toBe(1);
  });
});
