import { describe, expect, it } from 'vitest';
import { api, useBackend, withDatabase } from '../helpers/backend';

// NavigationAPI and CategoryAPI: the two trees of the site.

const backend = useBackend();
const { admin } = backend;

describe('NavigationAPI', () => {
  it('seeds the three fixed entries', async () => {
    const res = await api(backend.url, 'GET', '/api/v1/navigation/list', { query: { page: 1, size: 10000 } });
    expect(res.body.total).toBe(3);
    expect(
      res.body.navigation.map((n: { title: string; href: string; fixed: boolean; enable: boolean; target: string }) => [
        n.title,
        n.href,
        n.fixed,
        n.enable,
        n.target,
      ]),
    ).toEqual([
      ['首页', '/', true, true, '_self'],
      ['文库资料', '/library', true, true, '_self'],
      ['文章资讯', '/article', true, true, '_self'],
    ]);
  });

  it('creates children, never fixed, and lists disabled rows too', async () => {
    const parent = await admin('POST', '/api/v1/navigation', {
      body: { title: '专题', href: '/topic', sort: 5, enable: true, fixed: true },
    });
    expect(parent.status).toBe(200);
    expect(parent.body).toMatchObject({ title: '专题', href: '/topic', sort: 5, enable: true, target: '_self' });
    expect(parent.body.fixed).toBeUndefined();
    const child = await admin('POST', '/api/v1/navigation', {
      body: { title: '考研', href: 'https://kaoyan.example.com', target: '_blank', parent_id: parent.body.id },
    });
    expect(child.body.parent_id).toBe(parent.body.id);
    const res = await api(backend.url, 'GET', '/api/v1/navigation/list', {
      query: { field: ['id', 'parent_id', 'enable'] },
    });
    expect(res.body.navigation).toContainEqual({ id: child.body.id, parent_id: parent.body.id });
    const got = await api(backend.url, 'GET', '/api/v1/navigation', { query: { id: child.body.id } });
    expect(got.body).toMatchObject({ title: '考研', target: '_blank' });
    expect((await api(backend.url, 'GET', '/api/v1/navigation', { query: { id: 4242 } })).body).toEqual({});
  });

  it('updates all columns except fixed, and refuses cycles', async () => {
    const a = await admin('POST', '/api/v1/navigation', { body: { title: 'A', href: '/a' } });
    const b = await admin('POST', '/api/v1/navigation', { body: { title: 'B', href: '/b', parent_id: a.body.id } });
    const cycle = await admin('PUT', '/api/v1/navigation', {
      body: { id: a.body.id, title: 'A', href: '/a', parent_id: b.body.id },
    });
    expect(cycle.body.message).toBe('不能把导航移动到它自己的下级');
    const self = await admin('PUT', '/api/v1/navigation', {
      body: { id: a.body.id, title: 'A2', href: '/a2', parent_id: a.body.id, color: '#ff0000' },
    });
    expect(self.status).toBe(200);
    const got = await api(backend.url, 'GET', '/api/v1/navigation', { query: { id: a.body.id } });
    expect(got.body).toMatchObject({ title: 'A2', href: '/a2', color: '#ff0000' });
    expect(got.body.parent_id).toBeUndefined();
    expect(got.body.enable).toBeUndefined();
    const home = await admin('PUT', '/api/v1/navigation', {
      body: { id: 1, title: '首页', href: '/', enable: true, sort: 102400 },
    });
    expect(home.status).toBe(200);
    expect((await api(backend.url, 'GET', '/api/v1/navigation', { query: { id: 1 } })).body.fixed).toBe(true);
  });

  it('deletes entries with their children but never fixed ones', async () => {
    const top = await admin('POST', '/api/v1/navigation', { body: { title: '待删', href: '/gone' } });
    const child = await admin('POST', '/api/v1/navigation', {
      body: { title: '子项', href: '/gone/child', parent_id: top.body.id },
    });
    expect((await admin('DELETE', '/api/v1/navigation', { query: { id: [top.body.id, 1] } })).status).toBe(200);
    expect((await api(backend.url, 'GET', '/api/v1/navigation', { query: { id: child.body.id } })).body).toEqual({});
    expect((await api(backend.url, 'GET', '/api/v1/navigation', { query: { id: 1 } })).body.id).toBe(1);
  });

  it('orders by the order parameter and filters wd for permission holders', async () => {
    const byTitle = await api(backend.url, 'GET', '/api/v1/navigation/list', { query: { order: 'title asc,id' } });
    const titles = byTitle.body.navigation.map((n: { title: string }) => n.title);
    expect(titles).toEqual([...titles].sort());
    const wd = await admin('GET', '/api/v1/navigation/list', { query: { wd: 'library' } });
    expect(wd.body.navigation.map((n: { title: string }) => n.title)).toEqual(['文库资料']);
    const anonymous = await api(backend.url, 'GET', '/api/v1/navigation/list', { query: { wd: 'library' } });
    expect(anonymous.body.total).toBeGreaterThan(1);
  });

  it.each([
    ['POST', { href: '/x' }, 400, '导航名称不能为空'],
    ['POST', { title: 'x' }, 400, '导航链接不能为空'],
    ['POST', { title: 'x', href: 'javascript:alert(1)' }, 400, '导航链接必须是以 / 开头的站内路径或 http(s):// 链接'],
    ['POST', { title: 'x', href: '//evil.example' }, 400, '导航链接必须是以 / 开头的站内路径或 http(s):// 链接'],
    ['POST', { title: 'x', href: '/x', target: '_top' }, 400, '打开方式只能是 _self 或 _blank'],
    ['POST', { title: 'x', href: '/x', color: 'red;background:url(x)' }, 400, '颜色格式不正确'],
    ['POST', { title: 'x', href: '/x', parent_id: 9999 }, 400, '上级导航不存在'],
    ['PUT', { title: 'x', href: '/x' }, 400, '请选择导航（参数 id）'],
    ['PUT', { id: 9999, title: 'x', href: '/x' }, 404, '导航不存在'],
  ])('%s %j → %i', async (method, body, status, message) => {
    const res = await admin(method, '/api/v1/navigation', { body });
    expect(res.status).toBe(status);
    expect(res.body.message).toBe(message);
  });
});

describe('CategoryAPI', () => {
  it('creates one category per line, a line typed twice once, and always enabled', async () => {
    const res = await admin('POST', '/api/v1/category', {
      body: { title: '教育\n 考试 \n\n教育', enable: false, sort: 3, description: '说明', show_description: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    const list = await api(backend.url, 'GET', '/api/v1/category/list');
    expect(list.body.total).toBeUndefined();
    expect(list.body.category.map((c: { title: string }) => c.title).sort()).toEqual(['教育', '考试'].sort());
    expect(list.body.category[0]).toMatchObject({ enable: true, sort: 3, description: '说明', show_description: true });
  });

  it('refuses a title that exists under the same parent with 409, creating none of the batch', async () => {
    const first = await admin('POST', '/api/v1/category', { body: { title: '重复测试', type: 0 } });
    expect(first.status).toBe(200);
    const again = await admin('POST', '/api/v1/category', { body: { title: '重复测试', type: 0 } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ code: 6, message: '分类名称已存在', error: '分类名称已存在' });
    const batch = await admin('POST', '/api/v1/category', { body: { title: '重复测试新\n重复测试', type: 0 } });
    expect(batch.status).toBe(409);
    expect(batch.body.message).toBe('分类名称已存在');
    const found = await admin('GET', '/api/v1/category/list', { query: { wd: '重复测试', field: ['title'] } });
    expect(found.body.category).toEqual([{ title: '重复测试' }]);
    // The same title elsewhere (an article category, or under another parent) is another category.
    const article = await admin('POST', '/api/v1/category', { body: { title: '重复测试', type: 1 } });
    expect(article.status).toBe(200);
    await admin('DELETE', '/api/v1/category', {
      query: {
        id: (
          await admin('GET', '/api/v1/category/list', { query: { wd: '重复测试', type: [0, 1] } })
        ).body.category.map((c: { id: number }) => c.id),
      },
    });
  });

  it('lists categories created together in the order they were typed', async () => {
    const parent = await admin('POST', '/api/v1/category', { body: { title: '年级' } });
    expect(parent.status).toBe(200);
    const list = async () =>
      (await api(backend.url, 'GET', '/api/v1/category/list')).body.category as {
        id: number;
        title: string;
        parent_id?: number;
      }[];
    const parentId = (await list()).find((c) => c.title === '年级')!.id;
    await admin('POST', '/api/v1/category', { body: { title: '一年级\n二年级\n三年级\n四年级', parent_id: parentId } });
    expect((await list()).filter((c) => c.parent_id === parentId).map((c) => c.title)).toEqual([
      '一年级',
      '二年级',
      '三年级',
      '四年级',
    ]);
  });

  it('builds a tree through parent_id and keeps document and article categories apart', async () => {
    await admin('POST', '/api/v1/category', { body: { title: '资讯', type: 1 } });
    const all = await api(backend.url, 'GET', '/api/v1/category/list', { query: { type: [0, 1] } });
    const news = all.body.category.find((c: { title: string }) => c.title === '资讯');
    expect(news.type).toBe(1);
    const education = all.body.category.find((c: { title: string }) => c.title === '教育');
    const wrongType = await admin('POST', '/api/v1/category', {
      body: { title: '政策', type: 1, parent_id: education.id },
    });
    expect(wrongType.body.message).toBe('上级分类的类型与本分类不一致');
    await admin('POST', '/api/v1/category', { body: { title: '小学\n中学', parent_id: education.id } });
    const children = await api(backend.url, 'GET', '/api/v1/category/list', { query: { parent_id: education.id } });
    expect(children.body.category.map((c: { title: string; parent_id: number }) => [c.title, c.parent_id])).toEqual([
      ['小学', education.id],
      ['中学', education.id],
    ]);
    const documents = await api(backend.url, 'GET', '/api/v1/category/list');
    expect(documents.body.category.every((c: { type?: number }) => c.type === undefined)).toBe(true);
    const articles = await api(backend.url, 'GET', '/api/v1/category/list', {
      query: { type: 1, field: ['id', 'title', 'type'] },
    });
    expect(articles.body.category).toEqual([{ id: news.id, title: '资讯', type: 1 }]);
  });

  it('hides disabled categories from visitors but not from admins', async () => {
    await admin('POST', '/api/v1/category', { body: { title: '隐藏分类' } });
    const row = (await admin('GET', '/api/v1/category/list', { query: { wd: '隐藏' } })).body.category[0];
    expect((await admin('PUT', '/api/v1/category', { body: { ...row, enable: false } })).status).toBe(200);
    const visitor = await api(backend.url, 'GET', '/api/v1/category/list');
    expect(visitor.body.category.some((c: { title: string }) => c.title === '隐藏分类')).toBe(false);
    const disabled = await admin('GET', '/api/v1/category/list', { query: { enable: false } });
    expect(disabled.body.category.map((c: { title: string }) => c.title)).toEqual(['隐藏分类']);
    const got = await admin('GET', '/api/v1/category', { query: { id: row.id } });
    expect(got.body.enable).toBeUndefined();
    expect(got.body.doc_count).toBeUndefined();
  });

  it('updates with duplicate and cycle checks', async () => {
    const list = (await admin('GET', '/api/v1/category/list', { query: { type: 0 } })).body.category;
    const education = list.find((c: { title: string }) => c.title === '教育');
    const primary = list.find((c: { title: string }) => c.title === '小学');
    const exam = list.find((c: { title: string }) => c.title === '考试');
    const dup = await admin('PUT', '/api/v1/category', { body: { id: exam.id, title: '教育', enable: true } });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('分类名称已存在');
    const cycle = await admin('PUT', '/api/v1/category', {
      body: { id: education.id, title: '教育', parent_id: primary.id, enable: true },
    });
    expect(cycle.body.message).toBe('不能把分类移动到它自己的下级');
    const moved = await admin('PUT', '/api/v1/category', {
      body: {
        id: exam.id,
        title: '考试',
        parent_id: education.id,
        enable: true,
        icon: '/uploads/i.png',
        cover: '/uploads/c.png',
      },
    });
    expect(moved.status).toBe(200);
    expect((await admin('GET', '/api/v1/category', { query: { id: exam.id } })).body).toMatchObject({
      parent_id: education.id,
      icon: '/uploads/i.png',
      cover: '/uploads/c.png',
    });
  });

  it('deletes categories without documents, with their document-less children', async () => {
    await admin('POST', '/api/v1/category', { body: { title: '待删根' } });
    const root = (await admin('GET', '/api/v1/category/list', { query: { wd: '待删根' } })).body.category[0];
    await admin('POST', '/api/v1/category', { body: { title: '待删子', parent_id: root.id } });
    expect((await admin('DELETE', '/api/v1/category', { query: { id: root.id } })).status).toBe(200);
    expect((await admin('GET', '/api/v1/category/list', { query: { wd: '待删' } })).body).toEqual({});
  });

  it('refuses to delete a category that still holds documents visitors cannot list, naming it, and deletes none of the request', async () => {
    await admin('POST', '/api/v1/category', { body: { title: '留存空\n留存根' } });
    const roots = (await admin('GET', '/api/v1/category/list', { query: { wd: '留存' } })).body.category;
    const empty = roots.find((c: { title: string }) => c.title === '留存空').id as number;
    const root = roots.find((c: { title: string }) => c.title === '留存根').id as number;
    await admin('POST', '/api/v1/category', { body: { title: '留存子', parent_id: root } });
    const child = (await admin('GET', '/api/v1/category/list', { query: { wd: '留存子' } })).body.category[0]
      .id as number;
    await withDatabase(backend.dataDir, async (db) => {
      const ts = new Date().toISOString();
      // Under the child: one converted document, one failed, one in review, and one recycled
      // (which holds nothing back); the column shows 1.
      for (const [uuid, status, deleted_at] of [
        ['d0000000000000b1', 2, null],
        ['d0000000000000b2', 3, null],
        ['d0000000000000b3', 6, null],
        ['d0000000000000b4', 0, ts],
      ] as const) {
        const doc = await db
          .insertInto('document')
          .values({ title: uuid, user_id: 1, uuid, status, created_at: ts, updated_at: ts, deleted_at })
          .returning('id')
          .executeTakeFirstOrThrow();
        await db
          .insertInto('document_category')
          .values({ document_id: doc.id, category_id: child, created_at: ts, updated_at: ts })
          .execute();
      }
    });
    const remaining = async () =>
      ((await admin('GET', '/api/v1/category/list', { query: { wd: '留存' } })).body.category ?? []).map(
        (c: { title: string }) => c.title,
      );
    // The parent names what it holds below it; the child, asked for too, is not named again.
    const refused = await admin('DELETE', '/api/v1/category', { query: { id: [empty, root, child] } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 9,
      message:
        '分类“留存根”下还有 3 篇文档（其中 2 篇未公开，不计入文档数），不能删除；请先把它们移到其他分类或删除后再试',
    });
    expect((await remaining()).sort()).toEqual(['留存子', '留存根', '留存空'].sort());
    const alone = await admin('DELETE', '/api/v1/category', { query: { id: child } });
    expect(alone.body.message).toMatch(/^分类“留存子”下还有 3 篇文档/);
    expect((await admin('DELETE', '/api/v1/category', { query: { id: empty } })).status).toBe(200);
    expect((await remaining()).sort()).toEqual(['留存子', '留存根'].sort());
  });

  it('names three categories that still hold something and counts the others', async () => {
    await admin('POST', '/api/v1/category', { body: { title: '多留一\n多留二\n多留三\n多留四\n多留五', type: 1 } });
    const ids = (await admin('GET', '/api/v1/category/list', { query: { wd: '多留', type: 1 } })).body.category.map(
      (c: { id: number }) => c.id,
    ) as number[];
    for (const [n, id] of ids.entries()) {
      const res = await admin('POST', '/api/v1/article', {
        body: { title: `多留文章${n}`, content: '<p>正文</p>', category_id: [id] },
      });
      expect(res.status).toBe(200);
    }
    const refused = await admin('DELETE', '/api/v1/category', { query: { id: ids } });
    expect(refused.body.message).toBe(
      '分类“多留一”下还有 1 篇文章、“多留二”下还有 1 篇文章、“多留三”下还有 1 篇文章，另有 2 个分类也还有内容，不能删除；请先把它们移到其他分类或删除后再试',
    );
  });

  it.each([
    ['POST', { title: '   ' }, 400, '分类名称不能为空'],
    ['POST', { title: 'x', type: 2 }, 400, '分类类型必须是 0（文档分类）或 1（文章分类）'],
    ['POST', { title: 'x', parent_id: 9999 }, 400, '上级分类不存在'],
    ['POST', { title: 'x', cover: 'data:image/png;base64,xx' }, 400, '分类封面必须是上传后的图片地址'],
    ['POST', { title: 'x'.repeat(65) }, 400, '分类名称长度不能超过 64 个字符'],
    ['PUT', { title: 'x' }, 400, '请选择分类（参数 id）'],
    ['PUT', { id: 9999, title: 'x' }, 404, '分类不存在'],
    ['PUT', { id: 1, title: '' }, 400, '分类名称不能为空'],
  ])('%s %j → %i', async (method, body, status, message) => {
    const res = await admin(method, '/api/v1/category', { body });
    expect(res.status).toBe(status);
    expect(res.body.message).toBe(message);
  });

  it('answers 404 for an unknown id', async () => {
    expect((await admin('GET', '/api/v1/category', { query: { id: 9999 } })).status).toBe(404);
  });
});

describe('category counts', () => {
  it('count the listed documents of a category and of its descendants, and follow moves', async () => {
    await admin('POST', '/api/v1/category', { body: { title: '计数根A\n计数根B\n计数根C' } });
    const roots = (await admin('GET', '/api/v1/category/list', { query: { wd: '计数根' } })).body.category;
    const a = roots.find((c: { title: string }) => c.title === '计数根A');
    const b = roots.find((c: { title: string }) => c.title === '计数根B');
    const pendingOnly = roots.find((c: { title: string }) => c.title === '计数根C');
    await admin('POST', '/api/v1/category', { body: { title: '计数子', parent_id: a.id } });
    const child = (await admin('GET', '/api/v1/category/list', { query: { wd: '计数子' } })).body.category[0];
    await withDatabase(backend.dataDir, async (db) => {
      const ts = new Date().toISOString();
      // Two converted documents under the child, and one waiting for the converter under C.
      for (const [uuid, status, categoryId] of [
        ['c0000000000000a1', 2, child.id],
        ['c0000000000000a2', 2, child.id],
        ['c0000000000000a3', 0, pendingOnly.id],
      ] as const) {
        const doc = await db
          .insertInto('document')
          .values({ title: uuid, user_id: 1, uuid, status, created_at: ts, updated_at: ts })
          .returning('id')
          .executeTakeFirstOrThrow();
        await db
          .insertInto('document_category')
          .values({ document_id: doc.id, category_id: categoryId, created_at: ts, updated_at: ts })
          .execute();
      }
    });
    await admin('PUT', '/api/v1/category', { body: { ...child, parent_id: a.id } });
    const count = async (id: number) => (await admin('GET', '/api/v1/category', { query: { id } })).body.doc_count ?? 0;
    expect([await count(a.id), await count(child.id), await count(b.id), await count(pendingOnly.id)]).toEqual([
      2, 2, 0, 0,
    ]);
    await admin('PUT', '/api/v1/category', { body: { ...child, parent_id: b.id } });
    expect([await count(a.id), await count(child.id), await count(b.id), await count(pendingOnly.id)]).toEqual([
      0, 2, 2, 0,
    ]);
    // Categories with documents are kept, also those whose documents visitors cannot list yet:
    // the delete says so.
    const refused = await admin('DELETE', '/api/v1/category', { query: { id: [b.id, pendingOnly.id] } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      '分类“计数根B”下还有 2 篇文档、“计数根C”下还有 1 篇文档（其中 1 篇未公开，不计入文档数），不能删除；请先把它们移到其他分类或删除后再试',
    );
    expect(await count(b.id)).toBe(2);
    expect((await admin('GET', '/api/v1/category', { query: { id: pendingOnly.id } })).status).toBe(200);
  });

  it('count the published articles of an article category and of its descendants; deleting refuses any filed article', async () => {
    await admin('POST', '/api/v1/category', { body: { title: '文章计数根\n文章计数审\n文章计数拒', type: 1 } });
    const roots = (await admin('GET', '/api/v1/category/list', { query: { wd: '文章计数', type: 1 } })).body.category;
    const idOf = (title: string): number => roots.find((c: { title: string }) => c.title === title).id;
    const [root, pendingOnly, refusedOnly] = [idOf('文章计数根'), idOf('文章计数审'), idOf('文章计数拒')];
    await admin('POST', '/api/v1/category', { body: { title: '文章计数子', type: 1, parent_id: root } });
    const child = (await admin('GET', '/api/v1/category/list', { query: { wd: '文章计数子', type: 1 } })).body
      .category[0].id as number;
    const article = async (title: string, categoryId: number, status: number) => {
      const res = await admin('POST', '/api/v1/article', {
        body: { title, content: `<p>${title}</p>`, category_id: [categoryId] },
      });
      expect(res.status).toBe(200);
      if (status !== 1)
        await admin('PUT', '/api/v1/article/check', {
          body: { article_id: [res.body.id], status, rejeact_reason: '不符合要求' },
        });
      return res.body.id as number;
    };
    await article('已发布一', child, 1);
    await article('已发布二', root, 1);
    await article('审核中', child, 0);
    await article('被拒绝', child, 2);
    await article('只有审核中', pendingOnly, 0);
    await article('只有被拒绝', refusedOnly, 2);
    const count = async (id: number) => (await admin('GET', '/api/v1/category', { query: { id } })).body;
    expect(
      await Promise.all([root, child, pendingOnly, refusedOnly].map(async (id) => (await count(id)).doc_count ?? 0)),
    ).toEqual([2, 1, 0, 0]);
    // Categories with articles are kept, also those whose articles visitors cannot list: the delete says so.
    const refused = await admin('DELETE', '/api/v1/category', { query: { id: [pendingOnly, refusedOnly] } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      '分类“文章计数审”下还有 1 篇文章（其中 1 篇未发布，不计入文章数）、“文章计数拒”下还有 1 篇文章（其中 1 篇未发布，不计入文章数），不能删除；请先把它们移到其他分类或删除后再试',
    );
    for (const id of [pendingOnly, refusedOnly])
      expect((await admin('GET', '/api/v1/category', { query: { id } })).status).toBe(200);
  });
});
