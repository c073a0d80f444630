import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, registerMember, useBackend, withDatabase, type Member } from '../../helpers/backend';
import { insertDocument } from '../../helpers/document-fixtures';
import { TEST_ENGINE } from '../../helpers/test-database';

// How many queries GetDocument and ListDocument make, on the engine under test: on PostgreSQL
// each is a network round trip through a pool shared by every request (docs/performance.md
// §8), so a lookup made one row at a time must not creep back. The queries are
// told by the backend (`onQuery`) and counted per request through the async context of the
// call; the settings' once-a-second freshness check (the `change_counter` row), which runs
// behind whichever request comes at that moment, is not counted.

const calls = new AsyncLocalStorage<string[]>();
const backend = useBackend({
  build: {
    onQuery: (sql) => {
      if (!/\bchange_counter\b/.test(sql)) calls.getStore()?.push(sql);
    },
  },
});

/** The answer to one call, with the SQL of the queries it made. */
async function counted(path: string, query: Record<string, string | number | boolean>, token?: string) {
  const queries: string[] = [];
  const res = await calls.run(queries, () => api(backend.url, 'GET', path, { query, ...(token ? { token } : {}) }));
  expect(res.status, res.text).toBe(200);
  return { body: res.body, queries };
}

let author: Member;
let reader: Member;
let top: number;
let leaf: number;
const ids: number[] = [];

async function newCategory(title: string, parentId = 0): Promise<number> {
  const res = await backend.admin('POST', '/api/v1/category', {
    body: { title, type: 0, enable: true, parent_id: parentId },
  });
  expect(res.status, res.text).toBe(200);
  const list = await backend.admin('GET', '/api/v1/category/list', { query: { type: 0 } });
  return list.body.category.find((c: { title: string }) => c.title === title).id;
}

beforeAll(async () => {
  author = await registerMember(backend.url);
  reader = await registerMember(backend.url);
  top = await newCategory('计数文学');
  leaf = await newCategory('计数小说', top);
  // Twelve converted documents filed under both categories, each with its text and description.
  for (let i = 0; i < 12; i += 1)
    ids.push((await insertDocument(backend.dataDir, { userId: author.user.id, title: `计数文档${i}` })).id);
  await withDatabase(backend.dataDir, async (db) => {
    const ts = new Date().toISOString();
    await db
      .insertInto('document_category')
      .values(
        ids.flatMap((id) =>
          [top, leaf].map((categoryId) => ({
            document_id: id,
            category_id: categoryId,
            created_at: ts,
            updated_at: ts,
          })),
        ),
      )
      .execute();
    await db
      .insertInto('document_content')
      .values(
        ids.map((id) => ({
          document_id: id,
          content: '第一页\f第二页\f第三页',
          pages: 3,
          created_at: ts,
          updated_at: ts,
        })),
      )
      .execute();
    await db.updateTable('document').set({ description: '一段简介' }).where('id', 'in', ids).execute();
  });
});

describe('GetDocument', () => {
  it("answers a visitor with one query: the document with its file's others, names, text and categories", async () => {
    const { body, queries } = await counted('/api/v1/document', { id: ids[0]! });
    expect(body).toMatchObject({
      id: ids[0],
      title: '计数文档0',
      username: author.username,
      content: '第一页\f第二页\f第三页',
      category_id: [top, leaf],
      category: [
        { id: top, title: '计数文学' },
        { id: leaf, title: '计数小说', parent_id: top },
      ],
    });
    expect(queries).toHaveLength(1);
  });

  it('answers by uuid with the same one query, categories included', async () => {
    const uuid = (await counted('/api/v1/document', { id: ids[2]! })).body.uuid;
    const { body, queries } = await counted('/api/v1/document', { uuid });
    expect(body).toMatchObject({
      id: ids[2],
      uuid,
      category_id: [top, leaf],
      category: [
        { id: top, title: '计数文学' },
        { id: leaf, title: '计数小说', parent_id: top },
      ],
    });
    expect(queries).toHaveLength(1);
  });

  it("answers a member with three more: their session (one), the RPC's permission and whether they administer the site", async () => {
    const { body, queries } = await counted('/api/v1/document', { id: ids[1]! }, reader.token);
    expect(body).toMatchObject({ id: ids[1], content: '第一页\f第二页\f第三页' });
    expect(queries).toHaveLength(4);
  });

  it("counts a view (with_author) with three writes beside the author's profile, and the view counts", async () => {
    const before = (await counted('/api/v1/document', { id: ids[3]! })).body.view_count ?? 0;
    const { body, queries } = await counted('/api/v1/document', { id: ids[3]!, with_author: true });
    expect(body).toMatchObject({ user: { id: author.user.id, username: author.username } });
    // The day's key of the reader (view_seen), the counter, the day's views; on PostgreSQL the search index's view
    // count (浏览最多) is one more statement, in its tables.
    const indexed = queries.filter((sql) => /^UPDATE search_document\b/i.test(sql.trim()));
    expect(indexed).toHaveLength(TEST_ENGINE === 'postgres' ? 1 : 0);
    expect(queries.filter((sql) => /^insert into "view_seen"/i.test(sql.trim()))).toHaveLength(1);
    expect(queries).toHaveLength(5 + indexed.length);
    const after = (await counted('/api/v1/document', { id: ids[3]! })).body.view_count ?? 0;
    expect(after).toBe(before + 1);
  });

  it('checks a view the reader made today with one statement, which writes nothing', async () => {
    const { queries } = await counted('/api/v1/document', { id: ids[3]!, with_author: true });
    // The document and the author's profile, and the insert of the day's key that finds it there.
    expect(queries).toHaveLength(3);
    expect(queries.filter((sql) => /^insert into "view_seen"/i.test(sql.trim()))).toHaveLength(1);
  });
});

describe('ListDocument', () => {
  it('answers a page of a category with three queries whatever its size: the page with names, its count, the categories', async () => {
    const small = await counted('/api/v1/document/list', { category_id: leaf, page: 1, size: 2 });
    const large = await counted('/api/v1/document/list', { category_id: leaf, page: 1, size: 10 });
    expect(large.body.total).toBe(12);
    expect(large.body.document).toHaveLength(10);
    expect(large.body.document[0]).toMatchObject({
      id: ids[11],
      username: author.username,
      category: [
        { id: top, title: '计数文学' },
        { id: leaf, title: '计数小说', parent_id: top },
      ],
    });
    expect(small.queries).toHaveLength(large.queries.length);
    expect(large.queries).toHaveLength(3);
  });
});

describe('GetSettings', () => {
  it('answers from memory once read: the settings and their languages are kept under their change counter', async () => {
    await counted('/api/v1/settings', {});
    const { body, queries } = await counted('/api/v1/settings', {});
    expect(body.language.length).toBeGreaterThan(0);
    expect(queries).toEqual([]);
  });
});

describe('DeleteRecycleDocument', () => {
  /** `count` recycled documents, each made from an upload whose hash is not the document's own. */
  async function recycledWithUploads(count: number) {
    const made: { id: number; upload: string }[] = [];
    for (let i = 0; i < count; i += 1) {
      const doc = await insertDocument(backend.dataDir, {
        userId: author.user.id,
        title: `清除计数${i}`,
        deletedAt: new Date().toISOString(),
      });
      const upload = crypto.randomBytes(16).toString('hex');
      await withDatabase(backend.dataDir, async (db) => {
        const ts = new Date().toISOString();
        const { id } = await db
          .insertInto('attachment')
          .values({
            hash: upload,
            user_id: author.user.id,
            type_id: doc.id,
            type: 2,
            path: `/uploads/documents/${upload}.pdf`,
            name: `${doc.title}.pdf`,
            size: doc.bytes.length,
            width: 0,
            height: 0,
            ext: '.pdf',
            ip: '127.0.0.1',
            created_at: ts,
            updated_at: ts,
            deleted_at: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await db.updateTable('document').set({ attachment_id: id }).where('id', '=', doc.id).execute();
      });
      made.push({ id: doc.id, upload });
    }
    return made;
  }

  /** The purge of these documents: its queries, and the hashes whose files it scheduled for removal. */
  async function purge(documents: { id: number }[]) {
    const queries: string[] = [];
    const res = await calls.run(queries, () =>
      backend.admin('DELETE', '/api/v1/document/recycle', { query: { id: documents.map((d) => d.id) } }),
    );
    expect(res.status, res.text).toBe(200);
    const scheduled = await withDatabase(backend.dataDir, (db) =>
      db.selectFrom('job').select('payload').where('kind', '=', 'document.purge-files').execute(),
    );
    return { queries, scheduled: scheduled.map((j) => (JSON.parse(j.payload) as { hash: string }).hash) };
  }

  it("looks up the uploads' hashes with one query whatever the batch's size, and schedules their files", async () => {
    const lookups = (queries: string[]) =>
      queries.filter((q) => /^select\b.*\bfrom "attachment" where "id" in/.test(q));
    const small = await recycledWithUploads(2);
    const large = await recycledWithUploads(6);
    const one = await purge(small);
    const six = await purge(large);
    expect(lookups(one.queries)).toHaveLength(1);
    expect(lookups(six.queries)).toHaveLength(1);
    expect(six.scheduled).toEqual(expect.arrayContaining([...small, ...large].map((d) => d.upload)));
  });
});
