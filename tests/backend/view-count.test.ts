import { describe, expect, it } from 'vitest';
import { api, registerMember, useBackend, withDatabase } from '../helpers/backend';
import { insertDocument } from '../helpers/document-fixtures';
import { withClockOff } from '../helpers/clock';

// A reader's views of a document or an article count once a day per client address (decision 119): a loop
// asking for one page moves neither `view_count` nor the day's views that rank 热门. The backend believes the
// test's X-Forwarded-For (BACKEND_TRUST_PROXY 127.0.0.1), so each test acts as several clients.

/** The process remembers this many counted views: few, so that a test passes the bound. */
const REMEMBERED = 4;
const DAY_MS = 24 * 3600_000;

const backend = useBackend({ build: { viewsRemembered: REMEMBERED } });
const { admin } = backend;

let nextAddress = 0;
/** A client address no other test used. */
const newAddress = () => `198.51.100.${++nextAddress}`;

const readDocument = async (id: number, address: string) => {
  const res = await api(backend.url, 'GET', '/api/v1/document', {
    query: { id, with_author: true },
    headers: { 'x-forwarded-for': address },
  });
  expect(res.status, res.text).toBe(200);
  return res;
};

const readArticle = async (id: number, address: string) => {
  const res = await api(backend.url, 'GET', '/api/v1/article', {
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

    // The next day by this process's clock (the database's day is the same: both views land on its today).
    await withClockOff(DAY_MS, async () => {
      await readDocument(id, reader);
      await readDocument(id, reader);
    });
    expect(await documentViews(id)).toEqual({ stored: 3, byDay: 3 });
    // Back to today: still remembered.
    await readDocument(id, reader);
    expect((await documentViews(id)).stored).toBe(3);
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
    await withClockOff(DAY_MS, async () => {
      await readArticle(id, reader);
      await readArticle(id, reader);
    });
    expect(await articleViews(id)).toBe(3);
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
