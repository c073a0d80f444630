import pg from 'pg';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { api, registerMember, useBackend, withDatabase, withSearchIndex, type Member } from '../../helpers/backend';
import { createDocument, nonUploader, uploadDocument, uploader, waitForStatus } from '../../helpers/document-api';
import { insertDocument } from '../../helpers/document-fixtures';
import { brokenPdf } from '../../helpers/documents';
import { recordedConversions } from '../../helpers/recorded-conversions';
import { databaseOf } from '../../helpers/test-database';
import { signedInAgo, withClockOff } from '../../helpers/clock';
import { lockWaiters } from '../../helpers/postgres';

// DocumentAPI and RecycleAPI through HTTP: creating from uploads, who sees what, the lists
// and their filters, editing, reviewing, filing, ratings, the recycle bin and what follows
// every write (category and user counts, credits).

const backend = useBackend({ member: true, build: { converter: recordedConversions } });
let author: Member;
let reviewed: Member;
let topCategory: number;
let childCategory: number;

/** A small text document (converted in a moment); `text` makes its content, and so its hash, unique. */
const textFile = (text: string) => Buffer.from(`${text}\n图书馆里的读者安静地读书。\n`, 'utf8');
let seq = 0;
const DAY_MS = 86_400_000;
const unique = (prefix: string) => `${prefix}${++seq}`;

async function newCategory(title: string, parentId = 0): Promise<number> {
  await backend.admin('POST', '/api/v1/category', { body: { title, parent_id: parentId, type: 0 } });
  const list = await backend.admin('GET', '/api/v1/category/list', { query: { wd: title, type: 0 } });
  return list.body.category.find((c: { title: string }) => c.title === title).id;
}

async function categoryCount(id: number): Promise<number> {
  return (await backend.admin('GET', '/api/v1/category', { query: { id } })).body.doc_count ?? 0;
}

async function user(token: string) {
  return (await api(backend.url, 'GET', '/api/v1/user', { token })).body;
}

beforeAll(async () => {
  author = await uploader(backend.url, backend.adminToken);
  reviewed = await uploader(backend.url, backend.adminToken, { review: true });
  topCategory = await newCategory('文学');
  childCategory = await newCategory('小说', topCategory);
});

describe('CreateDocument', () => {
  it("makes documents from the caller's uploads: pending conversion without review, counted, rewarded, queued", async () => {
    const creditsBefore = (await user(author.token)).credit_count ?? 0;
    const doc = await createDocument(
      backend.url,
      author.token,
      textFile(unique('城市图书馆')),
      '城市图书馆的一天.txt',
      {
        category_id: [topCategory, childCategory],
        price: 5,
        language: 'education',
      },
    );
    const body = (await api(backend.url, 'GET', '/api/v1/document', { token: author.token, query: { id: doc.id } }))
      .body;
    expect(body).toMatchObject({
      title: '城市图书馆的一天',
      keywords: '城市, 图书, 一天',
      price: 5,
      language: 'education',
      ext: '.txt',
      score: 300,
      uuid: expect.stringMatching(/^[0-9a-f]{16}$/),
      category_id: [topCategory, childCategory],
      category: [
        { id: topCategory, title: '文学' },
        { id: childCategory, title: '小说', parent_id: topCategory },
      ],
    });
    expect([0, 1, 2]).toContain(body.status ?? 0);
    await waitForStatus(backend.url, author.token, doc.id, [2]);
    expect(await categoryCount(topCategory)).toBeGreaterThanOrEqual(1);
    const me = await user(author.token);
    expect(me.doc_count).toBeGreaterThanOrEqual(1);
    // score.upload_document = 5 credits for the first upload of the day (upload_document_limit = 1).
    expect(me.credit_count).toBe(creditsBefore + 5);
    const dynamics = await api(backend.url, 'GET', '/api/v1/user/dynamic', { token: author.token });
    // The reward is said where it came from, as a registration's is.
    expect(dynamics.body.dynamic[0]).toMatchObject({
      type: 3,
      content: '上传了文档《城市图书馆的一天》，获得 5 魔豆奖励',
    });
  });

  it("says the reward beside the uploads it rewarded, not beside those past the day's upload_document_limit", async () => {
    const member = await uploader(backend.url, backend.adminToken);
    const ids = [];
    for (const name of ['第一篇', '第二篇'])
      ids.push((await uploadDocument(backend.url, member.token, textFile(unique(name)), `${name}.txt`)).body.data.id);
    const created = await api(backend.url, 'POST', '/api/v1/document', {
      token: member.token,
      body: {
        category_id: [topCategory],
        document: [
          { title: '第一篇', attachment_id: ids[0] },
          { title: '第二篇', attachment_id: ids[1] },
        ],
      },
    });
    expect(created.status, created.text).toBe(200);
    const dynamics = await api(backend.url, 'GET', '/api/v1/user/dynamic', { token: member.token });
    expect((dynamics.body.dynamic as { content: string }[]).slice(0, 2).map((d) => d.content)).toEqual([
      '上传了文档《第二篇》',
      '上传了文档《第一篇》，获得 5 魔豆奖励',
    ]);
  });

  it("pays at once, before the review, what GetSettings announces for the upload screen, to the day's limit", async () => {
    await backend.setConfig({ 'score.upload_document': '3', 'score.upload_document_limit': '2' });
    try {
      const announced = (await api(backend.url, 'GET', '/api/v1/settings')).body.system;
      expect([announced.upload_document_credits, announced.upload_document_limit]).toEqual([3, 2]);
      const member = await uploader(backend.url, backend.adminToken, { review: true });
      const creditsBefore = (await user(member.token)).credit_count ?? 0;
      const credits: number[] = [];
      for (const name of ['甲', '乙', '丙']) {
        const doc = await createDocument(backend.url, member.token, textFile(unique(name)), `${name}.txt`);
        // Waiting for the review, and paid already.
        expect(doc.status).toBe(6);
        credits.push(((await user(member.token)).credit_count ?? 0) - creditsBefore);
      }
      expect(credits).toEqual([3, 6, 6]);
      const dynamics = await api(backend.url, 'GET', '/api/v1/user/dynamic', { token: member.token });
      expect((dynamics.body.dynamic as { content: string }[]).slice(0, 3).map((d) => d.content)).toEqual([
        '上传了文档《丙》',
        '上传了文档《乙》，获得 3 魔豆奖励',
        '上传了文档《甲》，获得 3 魔豆奖励',
      ]);
    } finally {
      await backend.setConfig({ 'score.upload_document': '5', 'score.upload_document_limit': '1' });
    }
  });

  it("takes a second document of a file the member already published, as MOREDOC does, but pays no reward for it, nor takes one of the day's", async () => {
    await backend.setConfig({ 'score.upload_document': '3', 'score.upload_document_limit': '5' });
    try {
      const member = await uploader(backend.url, backend.adminToken);
      const creditsBefore = (await user(member.token)).credit_count ?? 0;
      const credits = async () => ((await user(member.token)).credit_count ?? 0) - creditsBefore;
      const left = async () =>
        (await api(backend.url, 'GET', '/api/v1/document/uploadreward', { token: member.token })).body.left ?? 0;
      const file = textFile(unique('同一份讲义'));
      await createDocument(backend.url, member.token, file, '讲义.txt');
      expect(await credits()).toBe(3);
      expect(await left()).toBe(4);
      // The same bytes again, under another name, by CreateDocument called directly: made, not paid,
      // and the day's rewards left as they were (decision 115).
      await createDocument(backend.url, member.token, file, '讲义（副本）.txt');
      expect(await credits()).toBe(3);
      expect(await left()).toBe(4);
      // Two uploads of one new file in one request: the first is paid, the second is not.
      const other = textFile(unique('另一份讲义'));
      const ids: number[] = [];
      for (const name of ['新讲义.txt', '新讲义（副本）.txt'])
        ids.push((await uploadDocument(backend.url, member.token, other, name)).body.data.id);
      const created = await api(backend.url, 'POST', '/api/v1/document', {
        token: member.token,
        body: {
          category_id: [topCategory],
          document: [
            { title: '新讲义', attachment_id: ids[0] },
            { title: '新讲义副本', attachment_id: ids[1] },
          ],
        },
      });
      expect(created.status, created.text).toBe(200);
      expect(await credits()).toBe(6);
      expect(await left()).toBe(3);
      const dynamics = await api(backend.url, 'GET', '/api/v1/user/dynamic', { token: member.token });
      expect((dynamics.body.dynamic as { content: string }[]).slice(0, 4).map((d) => d.content)).toEqual([
        '上传了文档《新讲义副本》',
        '上传了文档《新讲义》，获得 3 魔豆奖励',
        '上传了文档《讲义（副本）》',
        '上传了文档《讲义》，获得 3 魔豆奖励',
      ]);
      // The same file rendered otherwise (a table) is another document, paid as one.
      await createDocument(backend.url, member.token, file, '讲义.csv');
      expect(await credits()).toBe(9);
      expect(await left()).toBe(2);
      // A copy past the day's rewards is made and paid nothing either.
      for (const name of ['丁', '戊'])
        await createDocument(backend.url, member.token, textFile(unique(name)), `${name}.txt`);
      expect([await credits(), await left()]).toEqual([15, 0]);
      await createDocument(backend.url, member.token, file, '讲义（再一份）.txt');
      expect([await credits(), await left()]).toEqual([15, 0]);
    } finally {
      await backend.setConfig({ 'score.upload_document': '5', 'score.upload_document_limit': '1' });
    }
  });

  it('starts at status 6 when every group of the uploader reviews', async () => {
    const doc = await createDocument(backend.url, reviewed.token, textFile(unique('待审')), '待审文档.txt');
    expect(doc.status).toBe(6);
  });

  it("accepts only the caller's own, unused uploads, with valid fields", async () => {
    const upload = await uploadDocument(backend.url, author.token, textFile(unique('别人的')), 'a.txt');
    const other = await uploader(backend.url, backend.adminToken);
    const stolen = await api(backend.url, 'POST', '/api/v1/document', {
      token: other.token,
      body: { document: [{ title: 'x', attachment_id: upload.body.data.id }] },
    });
    expect(stolen.status).toBe(400);
    expect(stolen.body.message).toBe('文档文件参数attachment_id不正确');

    const create = (document: object, categoryId: number[] = []) =>
      api(backend.url, 'POST', '/api/v1/document', {
        token: author.token,
        body: { category_id: categoryId, document: [{ attachment_id: upload.body.data.id, ...document }] },
      });
    expect((await create({ title: ' ' })).body.message).toBe('文档标题不能为空');
    expect((await create({ title: 'x', price: -1 })).body.message).toBe('文档价格必须在 0 到 1000000 之间');
    expect((await create({ title: 'x', language: 'xx-none' })).body.message).toBe('文档语言不存在或未启用');
    expect((await create({ title: 'x' }, [999_999])).body.message).toBe('所选的文档分类不存在');
    expect((await create({ title: '好' })).status).toBe(200);
    expect((await create({ title: '再来一次' })).body.message).toBe('文档文件参数attachment_id不正确');
  });

  it('refuses an upload named twice in one request, and creates nothing', async () => {
    const member = await uploader(backend.url, backend.adminToken);
    const upload = await uploadDocument(backend.url, member.token, textFile(unique('一份文件')), 'once.txt');
    const id = upload.body.data.id as number;
    const twice = await api(backend.url, 'POST', '/api/v1/document', {
      token: member.token,
      body: {
        category_id: [topCategory],
        document: [
          { title: 'a', attachment_id: id },
          { title: 'b', attachment_id: id },
          { title: 'c', attachment_id: id },
        ],
      },
    });
    expect(twice.status).toBe(400);
    expect(twice.body).toEqual({
      code: 3,
      message: `同一个上传文件只能创建一篇文档（attachment_id ${id} 重复）`,
      error: `同一个上传文件只能创建一篇文档（attachment_id ${id} 重复）`,
    });
    const mine = await api(backend.url, 'GET', '/api/v1/document/list', {
      token: member.token,
      query: { user_id: member.user.id },
    });
    expect(mine.body.document ?? []).toEqual([]);
    // The upload is still free: one document of it is what it is for.
    const once = await api(backend.url, 'POST', '/api/v1/document', {
      token: member.token,
      body: { category_id: [topCategory], document: [{ title: 'a', attachment_id: id }] },
    });
    expect(once.status, once.text).toBe(200);
  });

  it("queues the conversions of documents uploaded together as their uploader's (fair shares), an admin's reconversion too", async () => {
    const member = await uploader(backend.url, backend.adminToken);
    const uploads: number[] = [];
    for (const n of [1, 2, 3])
      uploads.push(
        (await uploadDocument(backend.url, member.token, textFile(unique('一次三份')), `一次三份${n}.txt`)).body.data
          .id,
      );
    const created = await api(backend.url, 'POST', '/api/v1/document', {
      token: member.token,
      body: { category_id: [], document: uploads.map((id, i) => ({ title: `一次三份${i + 1}`, attachment_id: id })) },
    });
    expect(created.status, created.text).toBe(200);
    const dedupeKeys = await withDatabase(backend.dataDir, async (db) =>
      (await db.selectFrom('attachment').select('hash').where('id', 'in', uploads).execute()).map(
        (f) => `document.convert:${f.hash}`,
      ),
    );
    const fairKeys = () =>
      withDatabase(backend.dataDir, async (db) => {
        const jobs = await db
          .selectFrom('job')
          .select('fair_key')
          .where('kind', '=', 'document.convert')
          .where('dedupe_key', 'in', dedupeKeys)
          .orderBy('id')
          .execute();
        return jobs.map((job) => job.fair_key);
      });
    const key = `user:${member.user.id}`;
    expect(await fairKeys()).toEqual([key, key, key]);

    // Their own conversions only: those of the file's earlier tests, which waited for none, are not this test's.
    await waitForJobs('document.convert', dedupeKeys);
    const mine = await api(backend.url, 'GET', '/api/v1/document/list', {
      token: member.token,
      query: { user_id: member.user.id },
    });
    const ids = (mine.body.document as { id: number }[]).map((d) => d.id);
    expect(ids).toHaveLength(3);
    expect((await backend.admin('PUT', '/api/v1/document/reconvert', { body: { id: [ids[0]] } })).status).toBe(200);
    await waitForJobs('document.convert', dedupeKeys);
    // Asked for by the admin, converted on behalf of the document's uploader.
    expect(await fairKeys()).toEqual([key, key, key, key]);
  });

  it('gives the same bytes made a .txt and a .csv at the same instant two hashes (two renderings)', async () => {
    // Two members (each creation locks its uploader's row), the same bytes.
    const content = textFile(unique('同时的文本与表格'));
    const other = await uploader(backend.url, backend.adminToken);
    const [txt, csv] = await Promise.all([
      uploadDocument(backend.url, author.token, content, '同时.txt'),
      uploadDocument(backend.url, other.token, content, '同时.csv'),
    ]);
    const create = (member: Member, attachmentId: number, title: string) =>
      api(backend.url, 'POST', '/api/v1/document', {
        token: member.token,
        body: { category_id: [], document: [{ title, attachment_id: attachmentId, price: 0 }] },
      });
    // On PostgreSQL a transaction holding the document table keeps both creations waiting, then lets them go
    // at once: each looked for documents of the file before the other's was written, and both took its MD5.
    const url = databaseOf(backend.dataDir);
    const holder = url ? new pg.Client({ connectionString: url }) : undefined;
    try {
      if (holder) {
        // The earlier tests' conversions (and page images) write documents too: one held with the two creations
        // made a third waiter, and the count never came to 2.
        await waitForJobs('document.convert');
        await waitForJobs('document.page-images');
        await holder.connect();
        await holder.query('BEGIN');
        await holder.query('LOCK TABLE document IN SHARE ROW EXCLUSIVE MODE');
      }
      const created = Promise.all([
        create(author, txt!.body.data.id, '同时文本'),
        create(other, csv!.body.data.id, '同时表格'),
      ]);
      if (holder) {
        // Both wait: on the table, or one on the other's turn.
        await expect.poll(() => lockWaiters(holder)).toBe(2);
        await holder.query('COMMIT');
      }
      expect((await created).map((res) => res.status)).toEqual([200, 200]);
    } finally {
      await holder?.end();
    }
    const rows = await withDatabase(backend.dataDir, (db) =>
      db.selectFrom('document').select(['ext', 'hash']).where('title', 'in', ['同时文本', '同时表格']).execute(),
    );
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((row) => row.hash)).size).toBe(2);
  });

  it('makes one document of an upload sent in two requests at once', async () => {
    const member = await uploader(backend.url, backend.adminToken);
    const upload = await uploadDocument(backend.url, member.token, textFile(unique('两次')), 'race.txt');
    const create = (title: string) =>
      api(backend.url, 'POST', '/api/v1/document', {
        token: member.token,
        body: { category_id: [topCategory], document: [{ title, attachment_id: upload.body.data.id }] },
      });
    const answers = await Promise.all([create('a'), create('b')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    const mine = await api(backend.url, 'GET', '/api/v1/document/list', {
      token: member.token,
      query: { user_id: member.user.id },
    });
    expect(mine.body.document).toHaveLength(1);
  });

  it('needs the upload right', async () => {
    const reader = await nonUploader(backend.url, backend.adminToken);
    const res = await api(backend.url, 'POST', '/api/v1/document', {
      token: reader.token,
      body: { document: [{ title: 'x', attachment_id: 1 }] },
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('没有权限上传文档');
  });
});

describe('GetUploadRewardLeft (ours)', () => {
  const left = async (token?: string) => {
    const res = await api(backend.url, 'GET', '/api/v1/document/uploadreward', token ? { token } : {});
    return res.status === 200 ? (res.body.left ?? 0) : res.status;
  };

  it("counts the day's rewarded uploads left as CreateDocument pays them, on the database's day, afresh from its midnight", async () => {
    await backend.setConfig({ 'score.upload_document': '3', 'score.upload_document_limit': '2' });
    try {
      const member = await uploader(backend.url, backend.adminToken, { review: true });
      const credits = async () => (await user(member.token)).credit_count ?? 0;
      const before = await credits();
      expect(await left(member.token)).toBe(2);
      await createDocument(backend.url, member.token, textFile(unique('今天一')), '今天一.txt');
      expect(await left(member.token)).toBe(1);
      // Through a machine whose clock is a day ahead: the database's day still, the one
      // reward left paid once, and none left whichever machine is asked.
      await withClockOff(DAY_MS, async () => {
        await createDocument(backend.url, member.token, textFile(unique('今天二')), '今天二.txt');
        await createDocument(backend.url, member.token, textFile(unique('今天三')), '今天三.txt');
        expect(await left(member.token)).toBe(0);
      });
      expect(await left(member.token)).toBe(0);
      expect((await credits()) - before).toBe(6);
      // The day's documents moved to the day before, as at the database's midnight: two left again.
      await withDatabase(backend.dataDir, (db) =>
        db
          .updateTable('document')
          .set({ created_at: new Date(Date.now() - DAY_MS).toISOString() })
          .where('user_id', '=', member.user.id)
          .execute(),
      );
      expect(await left(member.token)).toBe(2);
      await createDocument(backend.url, member.token, textFile(unique('明天')), '明天.txt');
      expect(await left(member.token)).toBe(1);
      expect((await credits()) - before).toBe(9);
    } finally {
      await backend.setConfig({ 'score.upload_document': '5', 'score.upload_document_limit': '1' });
    }
  });

  it('is 0 while publishing pays nothing, and needs a login', async () => {
    const member = await uploader(backend.url, backend.adminToken);
    expect(await left(member.token)).toBe(1);
    await backend.setConfig({ 'score.upload_document': '0' });
    try {
      expect(await left(member.token)).toBe(0);
    } finally {
      await backend.setConfig({ 'score.upload_document': '5' });
    }
    expect(await left()).toBe(401);
  });
});

describe('who sees a document', () => {
  it('hides disabled, unreviewed, rejected and recycled documents from strangers, not from the owner and admins', async () => {
    const doc = await createDocument(backend.url, reviewed.token, textFile(unique('审核')), '审核中.txt');
    const stranger = await registerMember(backend.url);
    const get = (token?: string) => api(backend.url, 'GET', '/api/v1/document', { token, query: { id: doc.id } });
    for (const status of [6, 7, 4]) {
      await backend.admin('PUT', '/api/v1/document/check', { body: { id: [doc.id], status } });
      expect((await get()).status, `status ${status}`).toBe(404);
      expect((await get(stranger.token)).body).toMatchObject({ code: 5, message: '文档不存在' });
      expect((await get(reviewed.token)).body.status).toBe(status);
      expect((await get(backend.adminToken)).body.status).toBe(status);
    }
    await backend.admin('PUT', '/api/v1/document/check', { body: { id: [doc.id], status: 0 } });
    await waitForStatus(backend.url, reviewed.token, doc.id, [2]);
    expect((await get()).status).toBe(200);
    expect(
      (await api(backend.url, 'DELETE', '/api/v1/document', { token: reviewed.token, query: { id: doc.id } })).status,
    ).toBe(200);
    expect((await get()).status).toBe(404);
    expect((await get(reviewed.token)).body.deleted_at).toEqual(expect.any(String));
  });

  it('GetDocument by id or uuid: text, author, view counter, description from the text', async () => {
    const doc = await createDocument(backend.url, author.token, textFile(unique('阅读改变生活')), '阅读改变生活.txt');
    await waitForStatus(backend.url, author.token, doc.id, [2]);
    const first = await api(backend.url, 'GET', '/api/v1/document', { query: { uuid: doc.uuid, with_author: true } });
    expect(first.body).toMatchObject({
      id: doc.id,
      view_count: 1,
      user: { id: author.user.id, username: author.username },
      attachment: { hash: doc.hash },
    });
    expect(first.body.user.password).toBeUndefined();
    expect(first.body.user.email).toBeUndefined();
    expect(first.body.content).toContain('图书馆里的读者安静地读书');
    expect(first.body.description).toContain('阅读改变生活');
    expect(first.body.convert_progress).toBeUndefined();
    // Counted only when the reader asks for the author (the reading page), as MOREDOC.
    expect((await api(backend.url, 'GET', '/api/v1/document', { query: { id: doc.id } })).body.view_count).toBe(2);
    expect((await api(backend.url, 'GET', '/api/v1/document', { query: { id: doc.id } })).body.view_count).toBe(2);
    expect((await api(backend.url, 'GET', '/api/v1/document', { query: { id: 999_999 } })).status).toBe(404);
  });

  it('tells the owner and the admins how far the conversion of a document in review is', async () => {
    const member = await uploader(backend.url, backend.adminToken, { review: true });
    const doc = await insertDocument(backend.dataDir, { userId: member.user.id, status: 6, pages: 0 });
    // Its conversion running in another process (its lease held there): 3 of 12 pages done.
    await withDatabase(backend.dataDir, async (db) => {
      const ts = new Date().toISOString();
      await db
        .insertInto('job')
        .values({
          kind: 'document.convert',
          payload: JSON.stringify({ hash: doc.hash }),
          state: 'running',
          max_attempts: 3,
          run_after: ts,
          lease_owner: 'another-process',
          lease_expires_at: new Date(Date.now() + 3600_000).toISOString(),
          progress: JSON.stringify({ done: 3, total: 12 }),
          dedupe_key: `document.convert:${doc.hash}`,
          created_at: ts,
          updated_at: ts,
          finished_at: null,
        })
        .execute();
    });
    const get = (token?: string) => api(backend.url, 'GET', '/api/v1/document', { token, query: { id: doc.id } });
    expect((await get(member.token)).body).toMatchObject({ status: 6, convert_progress: { done: 3, total: 12 } });
    expect((await get(backend.adminToken)).body.convert_progress).toEqual({ done: 3, total: 12 });
    expect((await get((await registerMember(backend.url)).token)).status).toBe(404);

    // An admin who may list documents (获取文档列表) but not read hidden ones (decision 096): GetDocument
    // answers 404, the list they see it in says how far it is.
    const permissions = (await backend.admin('GET', '/api/v1/permission/list', { query: { size: 1000 } })).body
      .permission as { id: number; path: string }[];
    const listing = permissions.find((p) => p.path === '/api.v1.DocumentAPI/ListDocument')!.id;
    const group = (await backend.admin('POST', '/api/v1/group', { body: { title: '文档列表查看' } })).body.id as number;
    await backend.admin('PUT', '/api/v1/group/permission', { body: { group_id: group, permission_id: [listing] } });
    const lister = await registerMember(backend.url);
    await backend.admin('PUT', '/api/v1/user', { body: { id: lister.user.id, group_id: [group] } });
    expect((await get(lister.token)).status).toBe(404);
    const listed = async (token: string) =>
      (
        await api(backend.url, 'GET', '/api/v1/document/list', { token, query: { status: [6], size: 100 } })
      ).body.document.find((d: { id: number }) => d.id === doc.id);
    expect(await listed(lister.token)).toMatchObject({ status: 6, convert_progress: { done: 3, total: 12 } });
    // Nobody else gets the field in a list: not a member asking for their own documents' list, nor a stranger.
    const own = await api(backend.url, 'GET', '/api/v1/document/list', {
      token: member.token,
      query: { user_id: member.user.id, size: 100 },
    });
    expect(own.body.document.find((d: { id: number }) => d.id === doc.id).convert_progress).toBeUndefined();
  });

  it('counts on the author card only the documents a visitor can see', async () => {
    const writer = await uploader(backend.url, backend.adminToken, { review: true });
    const approved = await createDocument(backend.url, writer.token, textFile(unique('通过审核')), '通过审核.txt');
    await createDocument(backend.url, writer.token, textFile(unique('仍在审核')), '仍在审核.txt');
    const broken = await createDocument(backend.url, writer.token, brokenPdf(unique('损坏')), '损坏的文件.pdf');
    expect(
      (await backend.admin('PUT', '/api/v1/document/check', { body: { id: [approved.id, broken.id], status: 2 } }))
        .status,
    ).toBe(200);
    await waitForStatus(backend.url, writer.token, approved.id, [2]);
    await waitForStatus(backend.url, writer.token, broken.id, [3]);
    const card = await api(backend.url, 'GET', '/api/v1/document', { query: { id: approved.id, with_author: true } });
    expect(card.body.user).toMatchObject({ id: writer.user.id, doc_count: 1 });
    expect((await user(writer.token)).doc_count).toBe(1);
    await backend.admin('PUT', '/api/v1/document/check', { body: { id: [approved.id], status: 4 } });
    expect((await user(writer.token)).doc_count).toBeUndefined();
  });

  it('hides the counters the display switches turn off', async () => {
    const doc = await createDocument(backend.url, author.token, textFile(unique('计数')), '计数.txt');
    await api(backend.url, 'GET', '/api/v1/document', { query: { id: doc.id, with_author: true } });
    await backend.setConfig({ 'display.show_document_view_count': 'false' });
    try {
      expect(
        (await api(backend.url, 'GET', '/api/v1/document', { query: { id: doc.id } })).body.view_count,
      ).toBeUndefined();
      const list = await api(backend.url, 'GET', '/api/v1/document/list', {
        query: { user_id: author.user.id, size: 24 },
      });
      expect(list.body.document.find((d: { id: number }) => d.id === doc.id).view_count).toBeUndefined();
      const own = await api(backend.url, 'GET', '/api/v1/document/list', {
        token: author.token,
        query: { user_id: author.user.id, size: 100 },
      });
      expect(own.body.document.find((d: { id: number }) => d.id === doc.id).view_count).toBe(1);
    } finally {
      await backend.setConfig({ 'display.show_document_view_count': 'true' });
    }
  });
});

describe('ListDocument', () => {
  let listed: { id: number }[];
  let listCategory: number;
  beforeAll(async () => {
    listed = [];
    listCategory = await newCategory('列表');
    for (const [title, price] of [
      ['甲文档', 0],
      ['乙文档', 3],
    ] as const) {
      listed.push(
        await createDocument(backend.url, author.token, textFile(unique(title)), `${title}.txt`, {
          price,
          category_id: [listCategory],
        }),
      );
    }
    await createDocument(backend.url, reviewed.token, textFile(unique('丙')), '丙文档.txt', {
      category_id: [listCategory],
    });
  });

  it('shows strangers statuses 0 to 3 only, without search, at most 24 a page', async () => {
    const res = await api(backend.url, 'GET', '/api/v1/document/list', {
      query: { category_id: listCategory, size: 1000, wd: '甲', status: [6] },
    });
    expect(res.status).toBe(200);
    const titles = res.body.document.map((d: { title: string }) => d.title);
    expect(titles).toContain('甲文档');
    expect(titles).toContain('乙文档');
    expect(titles).not.toContain('丙文档');
    expect(res.body.total).toBe(titles.length);
    expect(res.body.document[0]).toMatchObject({
      username: expect.any(String),
      attachment: { hash: expect.stringMatching(/^[0-9a-f]{32}$/) },
    });
  });

  it('gives admins every status, search and the filters', async () => {
    const all = await backend.admin('GET', '/api/v1/document/list', {
      query: { category_id: listCategory, status: [6] },
    });
    expect(all.body.document.map((d: { title: string }) => d.title)).toEqual(['丙文档']);
    const wd = await backend.admin('GET', '/api/v1/document/list', { query: { wd: '乙文档' } });
    expect(wd.body.document.map((d: { title: string }) => d.title)).toEqual(['乙文档']);
    const charge = await backend.admin('GET', '/api/v1/document/list', {
      query: { category_id: listCategory, fee_type: 'charge' },
    });
    expect(charge.body.document.map((d: { title: string }) => d.title)).toEqual(['乙文档']);
    const pdfOnly = await backend.admin('GET', '/api/v1/document/list', {
      query: { category_id: listCategory, ext: 'pdf' },
    });
    expect(pdfOnly.body.document ?? []).toEqual([]);
    const txt = await backend.admin('GET', '/api/v1/document/list', {
      query: { category_id: listCategory, ext: 'TXT' },
    });
    expect(txt.body.total).toBe(3);
    const future = await backend.admin('GET', '/api/v1/document/list', { query: { created_at: ['2999-01-01'] } });
    expect(future.body.document ?? []).toEqual([]);
    const today = await backend.admin('GET', '/api/v1/document/list', {
      query: { created_at: ['2000-01-01', '2999-12-31 23:59:59'], category_id: listCategory },
    });
    expect(today.body.total).toBe(3);
    const limited = await backend.admin('GET', '/api/v1/document/list', { query: { limit: 1, order: 'id asc' } });
    expect(limited.body.total).toBeUndefined();
    expect(limited.body.document).toHaveLength(1);
    const fields = await backend.admin('GET', '/api/v1/document/list', {
      query: { limit: 1, field: ['id', 'TITLE', 'nonsense'] },
    });
    expect(Object.keys(fields.body.document[0]).sort()).toEqual([
      'attachment',
      'category',
      'category_id',
      'id',
      'title',
      'username',
    ]);
  });

  it("finds the admin's 关键字 in the title, keywords or description, a whole word of one of them", async () => {
    const yearbook = await insertDocument(backend.dataDir, { userId: author.user.id, title: '黄河水利年报' });
    const shipping = await insertDocument(backend.dataDir, { userId: author.user.id, title: '长江航运' });
    const pending = await insertDocument(backend.dataDir, {
      userId: author.user.id,
      title: '水利工程（待审）',
      status: 0,
    });
    await withDatabase(backend.dataDir, async (db) => {
      await db
        .updateTable('document')
        .set({ keywords: '防汛,堤坝', description: '本年度黄河下游的 Flood Control 概况，2025年' })
        .where('id', '=', yearbook.id)
        .execute();
      await db.updateTable('document').set({ description: '港口吞吐量统计' }).where('id', '=', shipping.id).execute();
    });
    const found = async (wd: string) => {
      const res = await backend.admin('GET', '/api/v1/document/list', { query: { wd, size: 100 } });
      expect(res.status, res.text).toBe(200);
      return ((res.body.document ?? []) as { id: number }[]).map((d) => d.id).sort((a, b) => a - b);
    };
    const ids = (...documents: { id: number }[]) => documents.map((d) => d.id).sort((a, b) => a - b);
    expect(await found('水利')).toEqual(ids(yearbook, pending));
    expect(await found('河水')).toEqual(ids(yearbook));
    expect(await found('堤坝')).toEqual(ids(yearbook));
    expect(await found('防汛,堤')).toEqual(ids(yearbook));
    expect(await found('黄河下游')).toEqual(ids(yearbook));
    expect(await found('吞吐量')).toEqual(ids(shipping));
    expect(await found('2025年')).toEqual(ids(yearbook));
    // Words apart in the order typed, a wildcard typed, one character, Latin letters in any case.
    expect(await found('水利 年报')).toEqual(ids(yearbook));
    expect(await found('年报 水利')).toEqual([]);
    expect(await found('黄%利')).toEqual(ids(yearbook));
    expect(await found('_利工')).toEqual(ids(pending));
    expect(await found('坝')).toEqual(ids(yearbook));
    expect(await found('flood control')).toEqual(ids(yearbook));
    // The end of one column and the start of the next are not a word.
    expect(await found('年报防汛')).toEqual([]);
    expect(await found('堤坝本年')).toEqual([]);
  });

  it("lists the caller's own documents in every status (the privileged view)", async () => {
    const own = await api(backend.url, 'GET', '/api/v1/document/list', {
      token: reviewed.token,
      query: { user_id: reviewed.user.id, status: [6] },
    });
    expect(own.body.document.map((d: { title: string }) => d.title)).toContain('丙文档');
  });

  it('recommends: is_recommend filters, type 0 clears', async () => {
    const [first] = listed;
    expect(
      (await backend.admin('PUT', '/api/v1/document/recommend', { body: { id: [first!.id], type: 1 } })).status,
    ).toBe(200);
    const recommended = await api(backend.url, 'GET', '/api/v1/document/list', {
      query: { is_recommend: true, size: 24 },
    });
    expect(recommended.body.document.map((d: { id: number }) => d.id)).toContain(first!.id);
    await backend.admin('PUT', '/api/v1/document/recommend', { body: { id: [first!.id], type: 0 } });
    const after = await api(backend.url, 'GET', '/api/v1/document/list', { query: { is_recommend: true, size: 24 } });
    expect((after.body.document ?? []).map((d: { id: number }) => d.id)).not.toContain(first!.id);
    expect(
      (await backend.admin('PUT', '/api/v1/document/recommend', { body: { id: [first!.id], type: 7 } })).status,
    ).toBe(400);
  });
});

describe('home and related documents', () => {
  it("lists from a date up to the newest document, through a machine behind the database's clock too", async () => {
    const title = unique('刚上传的文档');
    const doc = await insertDocument(backend.dataDir, { userId: 1, title });
    const adminBehind = await signedInAgo(backend.dataDir, backend.adminToken, 15 * 60_000);
    const res = await withClockOff(-10 * 60_000, () =>
      api(backend.url, 'GET', '/api/v1/document/list', {
        token: adminBehind,
        query: { created_at: ['2000-01-01'], wd: title },
      }),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.document.map((d: { id: number }) => d.id)).toEqual([doc.id]);
  });

  it('lists converted documents per enabled top-level category with their cover', async () => {
    const category = await newCategory(unique('首页'));
    const doc = await createDocument(backend.url, author.token, textFile(unique('首页文档')), '首页文档.txt', {
      category_id: [category],
    });
    await waitForStatus(backend.url, author.token, doc.id, [2]);
    const home = await api(backend.url, 'GET', '/api/v1/document/home', { query: { limit: 3 } });
    const section = home.body.document.find((s: { category_id: number }) => s.category_id === category);
    expect(section.document).toEqual([
      { id: doc.id, title: '首页文档', ext: '.txt', uuid: doc.uuid, pages: 1, cover: `/view/cover/${doc.hash}` },
    ]);
  });

  it('finds related documents by keyword and keeps the answer for security.document_related_duration days', async () => {
    const a = await createDocument(backend.url, author.token, textFile(unique('古籍')), '古籍修复.txt', {
      keywords: '古籍，修复',
    });
    const b = await createDocument(backend.url, author.token, textFile(unique('古籍二')), '古籍保护.txt', {
      keywords: '古籍',
    });
    await waitForStatus(backend.url, author.token, a.id, [2]);
    await waitForStatus(backend.url, author.token, b.id, [2]);
    const related = await api(backend.url, 'GET', '/api/v1/document/related', { query: { id: a.id } });
    expect(related.body.document.map((d: { id: number }) => d.id)).toContain(b.id);
    expect(related.body.total).toBeUndefined();
    const c = await createDocument(backend.url, author.token, textFile(unique('古籍三')), '古籍三.txt', {
      keywords: '古籍',
    });
    await waitForStatus(backend.url, author.token, c.id, [2]);
    const cached = await api(backend.url, 'GET', '/api/v1/document/related', { query: { id: a.id } });
    expect(cached.body.document.map((d: { id: number }) => d.id)).not.toContain(c.id);
    await backend.setConfig({ 'security.document_related_duration': '0' });
    try {
      expect((await api(backend.url, 'GET', '/api/v1/document/related', { query: { id: a.id } })).body).toEqual({});
    } finally {
      await backend.setConfig({ 'security.document_related_duration': '7' });
    }
  });
});

describe('UpdateDocument', () => {
  it('lets the owner edit the texts, price, language and categories; admins the status too', async () => {
    const doc = await createDocument(backend.url, author.token, textFile(unique('编辑')), '编辑前.txt', {
      category_id: [topCategory],
    });
    // Converted first: a conversion that ends after the admin's edit writes the extracted text over it.
    await waitForStatus(backend.url, author.token, doc.id, [2]);
    const update = (token: string, fields: object) =>
      api(backend.url, 'PUT', '/api/v1/document', {
        token,
        body: {
          id: doc.id,
          title: '编辑后',
          keywords: '编辑，修改',
          description: '新的摘要',
          price: 2,
          language: 'education',
          category_id: [childCategory],
          ...fields,
        },
      });
    const stranger = await uploader(backend.url, backend.adminToken);
    expect((await update(stranger.token, {})).body).toMatchObject({ code: 7, message: '文档不存在或没有权限' });
    expect((await update(author.token, { status: 4 })).status).toBe(200);
    const edited = (await api(backend.url, 'GET', '/api/v1/document', { token: author.token, query: { id: doc.id } }))
      .body;
    expect(edited).toMatchObject({
      title: '编辑后',
      keywords: '编辑, 修改',
      description: '新的摘要',
      price: 2,
      category_id: [childCategory],
    });
    expect(edited.status).not.toBe(4);
    expect((await update(backend.adminToken, { status: 4, content: '管理员替换的正文' })).status).toBe(200);
    const disabled = (await api(backend.url, 'GET', '/api/v1/document', { token: author.token, query: { id: doc.id } }))
      .body;
    expect(disabled).toMatchObject({ status: 4, content: '管理员替换的正文' });
    expect((await update(backend.adminToken, { status: 3 })).status).toBe(400);
    expect(
      (await api(backend.url, 'PUT', '/api/v1/document', { token: author.token, body: { id: 999_999, title: 'x' } }))
        .status,
    ).toBe(404);
  });
  it("sends a reviewed member's published document back to review when its words change, not for its price", async () => {
    const doc = await createDocument(backend.url, reviewed.token, textFile(unique('复审')), '复审前.txt', {
      category_id: [topCategory],
    });
    await backend.admin('PUT', '/api/v1/document/check', { body: { id: [doc.id], status: 2 } });
    await waitForStatus(backend.url, reviewed.token, doc.id, [2]);
    const current = async () =>
      (await api(backend.url, 'GET', '/api/v1/document', { token: reviewed.token, query: { id: doc.id } })).body;
    const approved = await current();
    expect(approved.status).toBe(2);
    const update = (fields: object) =>
      api(backend.url, 'PUT', '/api/v1/document', {
        token: reviewed.token,
        body: {
          id: doc.id,
          title: approved.title,
          keywords: approved.keywords,
          description: approved.description,
          price: 0,
          language: '',
          category_id: [topCategory],
          ...fields,
        },
      });
    // The price and the categories are the owner's to set: the document stays published.
    expect((await update({ price: 3 })).status).toBe(200);
    expect(await current()).toMatchObject({ status: 2, price: 3 });
    // New words strangers would read wait for a reviewer, as a new upload of this member's.
    expect((await update({ title: '审核后改的标题' })).status).toBe(200);
    expect(await current()).toMatchObject({ status: 6, title: '审核后改的标题' });
    expect((await api(backend.url, 'GET', '/api/v1/document', { query: { id: doc.id } })).status).toBe(404);
    await backend.admin('PUT', '/api/v1/document/check', { body: { id: [doc.id], status: 2 } });
    expect((await update({ content: '审核后换掉的正文' })).status).toBe(200);
    expect((await current()).status).toBe(6);
    // A member whose groups skip the review publishes an edit at once.
    const free = await createDocument(backend.url, author.token, textFile(unique('免审')), '免审.txt');
    await waitForStatus(backend.url, author.token, free.id, [2]);
    const edit = await api(backend.url, 'PUT', '/api/v1/document', {
      token: author.token,
      body: { id: free.id, title: '免审改名', price: 0, category_id: [] },
    });
    expect(edit.status).toBe(200);
    expect((await api(backend.url, 'GET', '/api/v1/document', { query: { id: free.id } })).body).toMatchObject({
      status: 2,
      title: '免审改名',
    });
  });
});

describe('CheckDocument, categories and languages in bulk', () => {
  it('approves: converted where pages exist, back to the converter where none', async () => {
    const doc = await createDocument(backend.url, reviewed.token, textFile(unique('待审批')), '待审批.txt');
    expect((await backend.admin('PUT', '/api/v1/document/check', { body: { id: [], status: 2 } })).body.message).toBe(
      '文档ID不能为空',
    );
    await backend.admin('PUT', '/api/v1/document/check', { body: { id: [doc.id], status: 2 } });
    // No pages yet: it goes to the converter and ends converted.
    const done = await waitForStatus(backend.url, reviewed.token, doc.id, [2]);
    expect(done.pages).toBe(1);
  });

  it('files documents under categories and sets their language', async () => {
    const doc = await createDocument(backend.url, author.token, textFile(unique('归类')), '归类.txt');
    // Counted once converted (what visitors can list).
    await waitForStatus(backend.url, author.token, doc.id, [2]);
    expect(
      (await backend.admin('PUT', '/api/v1/document/category', { body: { document_id: [doc.id], category_id: [] } }))
        .body.message,
    ).toBe('文档ID和分类ID均不能为空');
    const before = await categoryCount(childCategory);
    await backend.admin('PUT', '/api/v1/document/category', {
      body: { document_id: [doc.id], category_id: [topCategory, childCategory] },
    });
    expect(await categoryCount(childCategory)).toBe(before + 1);
    await backend.admin('PUT', '/api/v1/document/language', { body: { document_id: [doc.id], language: 'internet' } });
    expect((await api(backend.url, 'GET', '/api/v1/document', { query: { id: doc.id } })).body).toMatchObject({
      language: 'internet',
      category_id: [topCategory, childCategory],
    });
    expect(
      (await backend.admin('PUT', '/api/v1/document/language', { body: { document_id: [], language: 'internet' } }))
        .status,
    ).toBe(400);
  });
});

describe('counts visitors see', () => {
  /** The total of a public list of converted documents (the library's request). */
  const listedTotal = async (query: Record<string, number>) =>
    (await api(backend.url, 'GET', '/api/v1/document/list', { query: { ...query, status: [2], size: 1 } })).body
      .total ?? 0;
  /** A category's figure as the home page shows it (the public category list). */
  const shownCount = async (id: number) =>
    (await api(backend.url, 'GET', '/api/v1/category/list')).body.category.find((c: { id: number }) => c.id === id)
      ?.doc_count ?? 0;
  const authorCard = async (docId: number) =>
    (await api(backend.url, 'GET', '/api/v1/document', { query: { id: docId, with_author: true } })).body.user
      .doc_count ?? 0;

  it('count what the lists list: converted documents outside the recycle bin, whatever happens to the others', async () => {
    const category = await newCategory(unique('计数分类'));
    const writer = await uploader(backend.url, backend.adminToken);
    const filed = { category_id: [category] };
    const readable = await createDocument(backend.url, writer.token, textFile(unique('能读')), '能读.txt', filed);
    const toDisable = await createDocument(backend.url, writer.token, textFile(unique('将禁用')), '将禁用.txt', filed);
    // A PDF MuPDF cannot open: its conversion fails.
    const broken = await createDocument(backend.url, writer.token, brokenPdf(unique('损坏')), 'broken.pdf', filed);
    await waitForStatus(backend.url, writer.token, readable.id, [2]);
    await waitForStatus(backend.url, writer.token, toDisable.id, [2]);
    await waitForStatus(backend.url, writer.token, broken.id, [3]);
    await backend.admin('PUT', '/api/v1/document/check', { body: { id: [toDisable.id], status: 4 } });

    const figures = async () => [
      await listedTotal({ category_id: category }),
      await shownCount(category),
      await listedTotal({ user_id: writer.user.id }),
      await authorCard(readable.id),
    ];
    expect(await figures()).toEqual([1, 1, 1, 1]);
    // The home page's 文档 figure and the library's 共 N 篇 (other tests' conversions may end between the two).
    await expect
      .poll(async () => {
        const stats = (await api(backend.url, 'GET', '/api/v1/stats')).body.document_count ?? 0;
        return stats - (await listedTotal({}));
      })
      .toBe(0);

    // Sent to the converter again, it is counted again once converted.
    await backend.admin('PUT', '/api/v1/document/reconvert', { body: { id: [readable.id] } });
    await waitForStatus(backend.url, writer.token, readable.id, [2]);
    expect(await figures()).toEqual([1, 1, 1, 1]);
    await backend.admin('PUT', '/api/v1/document/check', { body: { id: [toDisable.id], status: 2 } });
    expect(await figures()).toEqual([2, 2, 2, 2]);
    await api(backend.url, 'DELETE', '/api/v1/document', { token: writer.token, query: { id: toDisable.id } });
    expect(await figures()).toEqual([1, 1, 1, 1]);
    await backend.admin('PUT', '/api/v1/document/recycle', { body: { id: [toDisable.id] } });
    expect(await figures()).toEqual([2, 2, 2, 2]);
  });

  it('list in a category what is filed below it as well, as its count counts', async () => {
    // The site's forms file a document under the whole path; MOREDOC's API may file it under the sub-category alone.
    const parent = await newCategory(unique('上级分类'));
    const child = await newCategory(unique('下级分类'), parent);
    const grandchild = await newCategory(unique('末级分类'), child);
    const writer = await uploader(backend.url, backend.adminToken);
    const deep = await createDocument(backend.url, writer.token, textFile(unique('末级')), '末级.txt', {
      category_id: [grandchild],
    });
    await waitForStatus(backend.url, writer.token, deep.id, [2]);
    for (const category of [parent, child, grandchild]) {
      expect(await shownCount(category)).toBe(1);
      expect(await listedTotal({ category_id: category })).toBe(1);
      const list = await api(backend.url, 'GET', '/api/v1/document/list', { query: { category_id: category } });
      expect(list.body.document.map((d: { id: number }) => d.id)).toEqual([deep.id]);
    }
  });
});

describe('ratings', () => {
  it("one rating per member, the document's score is the average", async () => {
    const doc = await createDocument(backend.url, author.token, textFile(unique('评分')), '评分.txt');
    const raters = [await registerMember(backend.url), await registerMember(backend.url)];
    expect(
      (
        await api(backend.url, 'POST', '/api/v1/document/score', {
          token: raters[0]!.token,
          body: { document_id: doc.id, score: 500 },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await api(backend.url, 'POST', '/api/v1/document/score', {
          token: raters[1]!.token,
          body: { document_id: doc.id, score: 200 },
        })
      ).status,
    ).toBe(200);
    const again = await api(backend.url, 'POST', '/api/v1/document/score', {
      token: raters[0]!.token,
      body: { document_id: doc.id, score: 100 },
    });
    expect(again.body).toMatchObject({ code: 7, message: '您已经评分过了' });
    expect(
      (
        await api(backend.url, 'POST', '/api/v1/document/score', {
          token: raters[0]!.token,
          body: { document_id: doc.id, score: 600 },
        })
      ).status,
    ).toBe(400);
    expect((await api(backend.url, 'GET', '/api/v1/document', { query: { id: doc.id } })).body).toMatchObject({
      score: 350,
      score_count: 2,
    });
    const mine = await api(backend.url, 'GET', '/api/v1/document/score', {
      token: raters[0]!.token,
      query: { document_id: doc.id },
    });
    expect(mine.body).toMatchObject({ document_id: doc.id, user_id: raters[0]!.user.id, score: 500 });
    expect(
      (
        await api(backend.url, 'GET', '/api/v1/document/score', {
          token: backend.member.token,
          query: { document_id: doc.id },
        })
      ).body,
    ).toEqual({});
  });
});

describe('deleting and the recycle bin', () => {
  it('a member deletes only their own documents (MOREDOC would delete the others asked for too)', async () => {
    const mine = await createDocument(backend.url, author.token, textFile(unique('我的')), '我的.txt');
    const theirs = await createDocument(backend.url, reviewed.token, textFile(unique('他的')), '他的.txt');
    const creditsBefore = (await user(author.token)).credit_count;
    expect(
      (await api(backend.url, 'DELETE', '/api/v1/document', { token: reviewed.token, query: { id: [mine.id] } })).body,
    ).toMatchObject({ code: 7, message: '文档不存在或没有删除权限' });
    expect(
      (
        await api(backend.url, 'DELETE', '/api/v1/document', {
          token: author.token,
          query: { id: [mine.id, theirs.id] },
        })
      ).status,
    ).toBe(200);
    expect(
      (await api(backend.url, 'GET', '/api/v1/document', { token: reviewed.token, query: { id: theirs.id } })).body
        .deleted_at,
    ).toBeUndefined();
    // score.delete_document = 1 credit back.
    expect((await user(author.token)).credit_count).toBe(creditsBefore - 1);
    // The member's 最近动态, their credit history, says what the delete took.
    const latest = async (token: string) =>
      (await api(backend.url, 'GET', '/api/v1/user/dynamic', { token })).body.dynamic[0] as {
        type: number;
        content: string;
      };
    expect(await latest(author.token)).toMatchObject({ type: 14, content: '删除了文档《我的》，扣除 1 魔豆' });
    const recycle = await backend.admin('GET', '/api/v1/document/recycle', { query: { page: 1, size: 50 } });
    expect(recycle.body.document.find((d: { id: number }) => d.id === mine.id)).toMatchObject({
      deleted_user_id: author.user.id,
      deleted_username: author.username,
    });
  });

  it("an admin's delete of a member's document tells the member the credits it took, and none when none were left", async () => {
    const owner = await uploader(backend.url, backend.adminToken);
    const latest = async () =>
      (await api(backend.url, 'GET', '/api/v1/user/dynamic', { token: owner.token })).body.dynamic[0] as {
        type: number;
        content: string;
      };
    const doc = await createDocument(backend.url, owner.token, textFile(unique('管理员删除')), '管理员删除.txt');
    const before = (await user(owner.token)).credit_count;
    expect(before).toBeGreaterThan(0);
    expect((await backend.admin('DELETE', '/api/v1/document', { query: { id: doc.id } })).status).toBe(200);
    expect((await user(owner.token)).credit_count).toBe(before - 1);
    expect(await latest()).toMatchObject({ type: 14, content: '文档《管理员删除》被管理员删除，扣除 1 魔豆' });

    // With no credits left, a delete takes none and says none.
    const own = await createDocument(backend.url, owner.token, textFile(unique('余额为零')), '余额为零.txt');
    await withDatabase(backend.dataDir, (db) =>
      db.updateTable('user').set({ credit_count: 0 }).where('id', '=', owner.user.id).execute(),
    );
    await api(backend.url, 'DELETE', '/api/v1/document', { token: owner.token, query: { id: own.id } });
    expect((await user(owner.token)).credit_count ?? 0).toBe(0);
    expect(await latest()).toMatchObject({ type: 14, content: '删除了文档《余额为零》' });
  });

  it('recovers documents with their counts', async () => {
    const doc = await createDocument(backend.url, author.token, textFile(unique('恢复')), '恢复.txt', {
      category_id: [topCategory],
    });
    await waitForStatus(backend.url, author.token, doc.id, [2]);
    const count = await categoryCount(topCategory);
    const docCount = (await user(author.token)).doc_count;
    await api(backend.url, 'DELETE', '/api/v1/document', { token: author.token, query: { id: doc.id } });
    expect(await categoryCount(topCategory)).toBe(count - 1);
    expect((await user(author.token)).doc_count).toBe(docCount - 1);
    expect((await backend.admin('PUT', '/api/v1/document/recycle', { body: { id: [doc.id] } })).status).toBe(200);
    expect(await categoryCount(topCategory)).toBe(count);
    expect((await user(author.token)).doc_count).toBe(docCount);
    expect((await api(backend.url, 'GET', '/api/v1/document', { query: { id: doc.id } })).status).toBe(200);
  });

  it('purges for good; the files go only when no other document or upload uses them', async () => {
    await backend.setConfig({ 'security.attachment_retention_minute': '0' });
    try {
      const content = textFile(unique('共享内容'));
      const a = await createDocument(backend.url, author.token, content, '共享甲.txt');
      const b = await createDocument(backend.url, author.token, content, '共享乙.txt');
      expect(b.hash).toBe(a.hash);
      await waitForStatus(backend.url, author.token, b.id, [2]);
      const pageUrl = `${backend.url}/view/page/${a.hash}/1.svg`;
      expect((await fetch(pageUrl)).status).toBe(200);

      await api(backend.url, 'DELETE', '/api/v1/document', { token: author.token, query: { id: a.id } });
      await backend.admin('DELETE', '/api/v1/document/recycle', { query: { id: a.id } });
      expect(
        (await api(backend.url, 'GET', '/api/v1/document', { token: author.token, query: { id: a.id } })).status,
      ).toBe(404);
      await waitForJobs('document.purge-files');
      expect((await fetch(pageUrl)).status).toBe(200);

      await api(backend.url, 'DELETE', '/api/v1/document', { token: author.token, query: { id: b.id } });
      expect((await backend.admin('DELETE', '/api/v1/document/recycle/all')).status).toBe(200);
      await waitForJobs('document.purge-files');
      const keys = await withDatabase(backend.dataDir, (db) =>
        db
          .selectFrom('attachment')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('hash', '=', a.hash)
          .where('deleted_at', 'is', null)
          .executeTakeFirstOrThrow(),
      );
      expect(keys).toEqual({ n: 0 });
      expect((await fetch(pageUrl)).status).toBe(404);
      const fs = await import('node:fs');
      const folder = `${backend.dataDir}/documents/${a.hash.slice(0, 5).split('').join('/')}`;
      expect(fs.readdirSync(folder)).toEqual([]);
    } finally {
      await backend.setConfig({ 'security.attachment_retention_minute': '1440' });
    }
  });

  it('purges the same bytes made a .txt and a .csv (two hashes) and their upload once neither document is left', async () => {
    await backend.setConfig({ 'security.attachment_retention_minute': '0' });
    try {
      const content = textFile(unique('文本与表格'));
      const text = await createDocument(backend.url, author.token, content, '文本.txt');
      const table = await createDocument(backend.url, author.token, content, '表格.csv');
      expect(table.hash).not.toBe(text.hash);
      await waitForStatus(backend.url, author.token, text.id, [2, 3]);
      await waitForStatus(backend.url, author.token, table.id, [2, 3]);
      const fs = await import('node:fs');
      const shards = (hash: string) => `${backend.dataDir}/documents/${hash.slice(0, 5).split('').join('/')}`;
      const purge = async (id: number) => {
        await api(backend.url, 'DELETE', '/api/v1/document', { token: author.token, query: { id } });
        expect((await backend.admin('DELETE', '/api/v1/document/recycle', { query: { id } })).status).toBe(200);
        await waitForJobs('document.purge-files');
      };

      await purge(text.id);
      expect(fs.readdirSync(shards(text.hash))).toContain(`${text.hash}.csv`);
      await purge(table.id);
      expect(fs.readdirSync(shards(text.hash))).toEqual([]);
      expect(fs.existsSync(`${shards(table.hash)}/${table.hash}`)).toBe(false);
    } finally {
      await backend.setConfig({ 'security.attachment_retention_minute': '1440' });
    }
  });

  it("waits security.attachment_retention_minute from the database's now on a backend whose clock is 10 minutes ahead", async () => {
    const doc = await createDocument(backend.url, author.token, textFile(unique('时钟超前')), '时钟超前.txt');
    await api(backend.url, 'DELETE', '/api/v1/document', { token: author.token, query: { id: doc.id } });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 10 * 60_000);
    try {
      expect((await backend.admin('DELETE', '/api/v1/document/recycle', { query: { id: doc.id } })).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
    const job = await withDatabase(backend.dataDir, (db) =>
      db
        .selectFrom('job')
        .select(['run_after', 'created_at'])
        .where('kind', '=', 'document.purge-files')
        .where('payload', 'like', `%${doc.hash}%`)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow(),
    );
    // 1440 minutes (the setting here) after the database's now, not 10 minutes more.
    expect(Date.parse(job.run_after) - Date.parse(job.created_at)).toBe(1440 * 60_000);
  });

  it('empties the recycle bin right after a settings save (SQLite: its transaction once waited for itself)', async () => {
    const doc = await createDocument(backend.url, author.token, textFile(unique('设置后清空')), '设置后清空.txt');
    await api(backend.url, 'DELETE', '/api/v1/document', { token: author.token, query: { id: doc.id } });
    // Any settings save, then at once the purge, which reads the retention setting in its
    // transaction: before, the save emptied the settings cache and that read waited for the
    // one connection the transaction held; the site answered nothing more until restarted.
    await backend.setConfig({ 'security.attachment_retention_minute': '1440' });
    expect((await backend.admin('DELETE', '/api/v1/document/recycle', { query: { id: doc.id } })).status).toBe(200);
    expect((await api(backend.url, 'GET', '/api/v1/document', { query: { id: doc.id } })).status).toBe(404);
  }, 15_000);
});

describe('the search index follows every write', () => {
  /** The ids the backend's own index finds for `text` (read from its database). */
  async function found(text: string): Promise<number[]> {
    return withSearchIndex(backend.dataDir, 'document', async (index) =>
      (await index.search({ text })).hits.map((h) => h.id),
    );
  }

  it('create and convert, edit, disable and approve, delete and recover, purge', async () => {
    const doc = await createDocument(
      backend.url,
      author.token,
      Buffer.from(`${unique('正文')}里有一只穿山甲在散步。\n`),
      '索引测试.txt',
    );
    await waitForStatus(backend.url, author.token, doc.id, [2]);
    // The conversion's job files it in the index after the status it wrote committed, which the
    // status poll can see first; a request's own write files it before answering.
    await vi.waitFor(async () => expect(await found('穿山甲')).toContain(doc.id), { timeout: 10_000, interval: 50 });
    await api(backend.url, 'PUT', '/api/v1/document', {
      token: author.token,
      body: { id: doc.id, title: '新标题蝾螈' },
    });
    expect(await found('蝾螈')).toContain(doc.id);
    await backend.admin('PUT', '/api/v1/document/check', { body: { id: [doc.id], status: 4 } });
    expect(await found('穿山甲')).not.toContain(doc.id);
    await backend.admin('PUT', '/api/v1/document/check', { body: { id: [doc.id], status: 2 } });
    expect(await found('穿山甲')).toContain(doc.id);
    await api(backend.url, 'DELETE', '/api/v1/document', { token: author.token, query: { id: doc.id } });
    expect(await found('穿山甲')).not.toContain(doc.id);
    await backend.admin('PUT', '/api/v1/document/recycle', { body: { id: [doc.id] } });
    expect(await found('穿山甲')).toContain(doc.id);
    await api(backend.url, 'DELETE', '/api/v1/document', { token: author.token, query: { id: doc.id } });
    await backend.admin('DELETE', '/api/v1/document/recycle', { query: { id: doc.id } });
    expect(await found('穿山甲')).not.toContain(doc.id);
  });
});

/**
 * Waits until no job of `kind` (of these dedupe keys only, when given) is queued or running, 60 s at most as
 * waitForStatus (200 tries of 50 ms ran out on a machine where a conversion took 2 s).
 */
async function waitForJobs(kind: string, dedupeKeys?: readonly string[]): Promise<void> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const { n } = await withDatabase(backend.dataDir, (db) => {
      let query = db
        .selectFrom('job')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('kind', '=', kind)
        .where('state', 'in', ['queued', 'running']);
      if (dedupeKeys) query = query.where('dedupe_key', 'in', [...dedupeKeys]);
      return query.executeTakeFirstOrThrow();
    });
    if (n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`jobs of ${kind} still pending`);
}
