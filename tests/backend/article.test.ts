import { sql } from 'kysely';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  api,
  login,
  registerMember,
  setConfig,
  startBackend,
  useBackend,
  withDatabase,
  withSearchIndex,
  type Member,
  type StartedBackend,
} from '../helpers/backend';

// ArticleAPI through HTTP: the seeded footer pages, writing with the sanitiser, review,
// lists, categories, recommending, the recycle bin and related articles.

const backend = useBackend();
const { admin } = backend;

let categoryId = 0;
let childCategoryId = 0;
let publishGroupId = 0;
let reviewGroupId = 0;
let noArticleGroupId = 0;

async function createCategory(title: string, parentId = 0): Promise<number> {
  expect((await admin('POST', '/api/v1/category', { body: { title, type: 1, parent_id: parentId } })).status).toBe(200);
  const list = await admin('GET', '/api/v1/category/list', { query: { type: 1, wd: title } });
  return list.body.category.find((c: { title: string }) => c.title === title).id;
}

async function createGroup(title: string, flags: Record<string, boolean>): Promise<number> {
  const res = await admin('POST', '/api/v1/group', { body: { title, ...flags } });
  expect(res.status).toBe(200);
  return res.body.id;
}

async function memberIn(groupId: number): Promise<Member> {
  const member = await registerMember(backend.url);
  expect((await admin('PUT', '/api/v1/user', { body: { id: member.user.id, group_id: [groupId] } })).status).toBe(200);
  return member;
}

const write = (token: string, body: Record<string, unknown>, method = 'POST') =>
  api(backend.url, method, '/api/v1/article', { token, body });

beforeAll(async () => {
  categoryId = await createCategory('公告');
  childCategoryId = await createCategory('站内公告', categoryId);
  reviewGroupId = await createGroup('需审核作者', {
    enable_article: true,
    enable_article_approval: true,
    enable_comment: true,
  });
  noArticleGroupId = await createGroup('不能写文章', { enable_article: false, enable_comment: true });
  publishGroupId = await createGroup('直接发布作者', {
    enable_article: true,
    enable_article_approval: false,
    enable_comment: true,
  });
});

describe('the footer pages', () => {
  it('seeds about, contact, agreement, privacy, copyright, feedback and help, published by the admin', async () => {
    for (const [identifier, title] of [
      ['about', '关于我们'],
      ['contact', '联系我们'],
      ['agreement', '文库协议'],
      ['privacy', '隐私政策'],
      ['copyright', '免责声明'],
      ['feedback', '意见反馈'],
      ['help', '使用帮助'],
    ]) {
      const res = await api(backend.url, 'GET', '/api/v1/article', { query: { identifier } });
      expect(res.status, identifier).toBe(200);
      expect(res.body).toMatchObject({ identifier, title, status: 1, user_id: 1, user: { id: 1, username: 'admin' } });
      expect(res.body.content).toMatch(/^<p>.+<\/p>$/);
      expect(res.body.content).not.toContain('请输入');
      expect(res.body.description.length).toBeGreaterThan(10);
    }
    const adminUser = await admin('GET', '/api/v1/user', { query: { id: 1 } });
    expect(adminUser.body.article_count).toBe(7);
  });

  it('seeds a 隐私政策 saying what is collected, why, how long, with whom it is shared, the rights and whom to ask', async () => {
    const { content } = (await api(backend.url, 'GET', '/api/v1/article', { query: { identifier: 'privacy' } })).body;
    for (const part of [
      '个人信息保护法',
      '电子邮箱、手机号码',
      '您上传的文档',
      '下载记录',
      '交易记录',
      'Cookie',
      '统计',
      '使用目的',
      '保存期限',
      '支付机构',
      '短信服务商和邮件服务商',
      '查阅和更正',
      '删除账号',
      '撤回对本政策的同意',
      '“联系我们”页面',
    ])
      expect(content, part).toContain(part);
    const { footer } = (await api(backend.url, 'GET', '/api/v1/settings')).body;
    expect(footer).toMatchObject({ agreement: '/article/agreement', privacy: '/article/privacy' });
  });

  it('links a footer page only while it is published: deleted or withdrawn, no link leads to it', async () => {
    const footer = async () => (await api(backend.url, 'GET', '/api/v1/settings')).body.footer;
    const { id } = (await api(backend.url, 'GET', '/api/v1/article', { query: { identifier: 'privacy' } })).body;
    expect((await admin('DELETE', '/api/v1/article', { query: { id } })).status).toBe(200);
    expect((await footer()).privacy).toBeUndefined();
    expect(await footer()).toMatchObject({ about: '/article/about', agreement: '/article/agreement' });
    expect((await admin('POST', '/api/v1/article/recycle/restore', { body: { id: [id] } })).status).toBe(200);
    expect((await footer()).privacy).toBe('/article/privacy');

    expect((await admin('PUT', '/api/v1/article/check', { body: { article_id: [id], status: 0 } })).status).toBe(200);
    expect((await footer()).privacy).toBeUndefined();
    expect((await admin('PUT', '/api/v1/article/check', { body: { article_id: [id], status: 1 } })).status).toBe(200);
    expect((await footer()).privacy).toBe('/article/privacy');

    // An address the admin chose that is not an article page is the admin's to keep.
    await setConfig(backend.url, backend.adminToken, { 'footer.privacy': 'https://example.com/privacy' });
    expect((await footer()).privacy).toBe('https://example.com/privacy');
    await setConfig(backend.url, backend.adminToken, { 'footer.privacy': '/article/privacy' });
  });

  it('counts a visitor’s reading, by identifier or by id, but not the admin’s', async () => {
    // Two readers (a reader's views count once a day: decision 119).
    const first = await api(backend.url, 'GET', '/api/v1/article', {
      query: { identifier: 'contact' },
      headers: { 'x-forwarded-for': '203.0.113.1' },
    });
    const second = await api(backend.url, 'GET', '/api/v1/article', {
      query: { id: first.body.id },
      headers: { 'x-forwarded-for': '203.0.113.2' },
    });
    expect(second.body.view_count).toBe((first.body.view_count ?? 0) + 1);
    const byAdmin = await admin('GET', '/api/v1/article', { query: { id: first.body.id } });
    expect(byAdmin.body.view_count).toBe(second.body.view_count);
  });

  it('answers 404 for an unknown article and 400 without id or identifier', async () => {
    expect((await api(backend.url, 'GET', '/api/v1/article', { query: { identifier: 'nope' } })).body).toMatchObject({
      code: 5,
      message: '文章不存在',
    });
    expect((await api(backend.url, 'GET', '/api/v1/article')).status).toBe(400);
  });
});

describe('writing', () => {
  it('lets the admin publish with an identifier, categories and a recommendation', async () => {
    const res = await admin('POST', '/api/v1/article', {
      body: {
        title: '站点升级公告',
        identifier: 'upgrade-2024',
        content: '<p>本站将于周末升级。</p>',
        category_id: [childCategoryId],
        is_recommend: true,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      identifier: 'upgrade-2024',
      title: '站点升级公告',
      status: 1,
      user_id: 1,
      category_id: [childCategoryId],
      category: [{ id: childCategoryId, title: '站内公告', parent_id: categoryId }],
      description: '本站将于周末升级。',
    });
    // Empty keywords come from the title's words (ICU's dictionary decides the splits).
    expect(res.body.keywords.split(', ')).toEqual(expect.arrayContaining(['升级', '公告']));
    expect(res.body.recommend_at).toBeDefined();
    const categories = await admin('GET', '/api/v1/category/list', { query: { type: 1 } });
    const counts = Object.fromEntries(
      categories.body.category.map((c: { id: number; doc_count?: number }) => [c.id, c.doc_count ?? 0]),
    );
    expect(counts).toMatchObject({ [categoryId]: 1, [childCategoryId]: 1 });
  });

  it('refuses a taken identifier (409), an all-digit one and a bad one (400)', async () => {
    const taken = await admin('POST', '/api/v1/article', {
      body: { title: 'x', identifier: 'about', content: '<p>x</p>' },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('文章标识符已存在');
    expect(
      (await admin('POST', '/api/v1/article', { body: { title: 'x', identifier: '123', content: '<p>x</p>' } })).body
        .message,
    ).toBe('文章标识不能是纯数字');
    expect(
      (await admin('POST', '/api/v1/article', { body: { title: 'x', identifier: 'a/b', content: '<p>x</p>' } })).status,
    ).toBe(400);
  });

  it('stores the body through the allow-list: no script, handler, javascript: link or foreign http image survives', async () => {
    const dirty = [
      '<h1>标题</h1><p onclick="alert(1)" style="color:red">正文<script>window.__xss=1</script></p>',
      '<img src="/uploads/a/b/c/d/e/0123abcd.png" onerror="alert(1)" alt="图">',
      '<img src="http://evil.example/x.png"><img src="javascript:alert(1)"><img src="x" onerror="alert(1)">',
      '<a href="javascript:alert(1)">坏链接</a><a href="https://example.com" target="_blank">好链接</a>',
      '<iframe src="https://evil.example"></iframe><svg onload="alert(1)"></svg><style>p{}</style>',
    ].join('');
    const res = await admin('POST', '/api/v1/article', { body: { title: '清洗测试', content: dirty } });
    expect(res.status).toBe(200);
    expect(res.body.content).toBe(
      [
        '<h2>标题</h2><p>正文</p>',
        '<img src="/uploads/a/b/c/d/e/0123abcd.png" alt="图" />',
        '<a>坏链接</a><a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">好链接</a>',
      ].join(''),
    );
    expect(res.body.identifier).toMatch(/^[0-9a-f]{16}$/);
  });

  it('answers over-long and empty input with a clear 400', async () => {
    const long = await admin('POST', '/api/v1/article', {
      body: { title: '长文', content: `<p>${'字'.repeat(200_000)}</p>` },
    });
    expect(long.status).toBe(400);
    expect(long.body.message).toBe('文章内容长度不能超过 200000 个字符');
    expect((await admin('POST', '/api/v1/article', { body: { title: ' ', content: '<p>x</p>' } })).body.message).toBe(
      '文章标题不能为空',
    );
    expect(
      (await admin('POST', '/api/v1/article', { body: { title: 'x', content: '<script>x</script>' } })).body.message,
    ).toBe('文章内容不能为空');
    expect(
      (await admin('POST', '/api/v1/article', { body: { title: 'x', content: '<p>x</p>', category_id: [999] } })).body
        .message,
    ).toBe('文章分类不存在');
  });

  it("sends a new site's members' articles to review, as their documents and comments; the identifier is not theirs to choose", async () => {
    const member = await registerMember(backend.url);
    const res = await write(member.token, { title: '会员的文章', identifier: 'mine', content: '<p>会员写的。</p>' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user_id: member.user.id });
    expect(res.body.status).toBeUndefined(); // 0 = pending, omitted on the wire
    expect(res.body.identifier).toMatch(/^[0-9a-f]{16}$/);
    const me = await api(backend.url, 'GET', '/api/v1/user', { token: member.token, query: { id: member.user.id } });
    expect(me.body.article_count).toBe(1);
  });

  it('refuses members whose groups do not allow articles, and punished members with the reason', async () => {
    const outsider = await memberIn(noArticleGroupId);
    const refused = await write(outsider.token, { title: 'x', content: '<p>x</p>' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('您没有权限发布文章');
    const punished = await registerMember(backend.url);
    await admin('POST', '/api/v1/punishment', {
      body: { user_id: [punished.user.id], type: [6], enable: true, reason: '发布广告' },
    });
    const barred = await write(punished.token, { title: 'x', content: '<p>x</p>' });
    expect(barred.status).toBe(403);
    expect(barred.body.message).toBe('您已被禁止发布文章，原因：发布广告');
  });
});

describe('review', () => {
  let author: Member;
  let articleId = 0;

  beforeAll(async () => {
    author = await memberIn(reviewGroupId);
    const res = await write(author.token, { title: '待审核的文章', content: '<p>等待审核。</p>' });
    expect(res.body.status).toBeUndefined(); // 0 = pending, omitted on the wire
    articleId = res.body.id;
  });

  it('hides a pending article from visitors and other members, shows it to its author and admins', async () => {
    const other = await registerMember(backend.url);
    expect((await api(backend.url, 'GET', '/api/v1/article', { query: { id: articleId } })).body).toMatchObject({
      code: 5,
      message: '文章不存在或没有权限查看',
    });
    expect(
      (await api(backend.url, 'GET', '/api/v1/article', { token: other.token, query: { id: articleId } })).status,
    ).toBe(404);
    expect(
      (await api(backend.url, 'GET', '/api/v1/article', { token: author.token, query: { id: articleId } })).status,
    ).toBe(200);
    expect((await admin('GET', '/api/v1/article', { query: { id: articleId } })).status).toBe(200);
    const publicList = await api(backend.url, 'GET', '/api/v1/article/list', { query: { size: 100 } });
    expect(publicList.body.article.map((a: { id: number }) => a.id)).not.toContain(articleId);
    const own = await api(backend.url, 'GET', '/api/v1/article/list', {
      token: author.token,
      query: { user_id: author.user.id },
    });
    expect(own.body).toMatchObject({ total: 1, article: [{ id: articleId }] });
    const othersView = await api(backend.url, 'GET', '/api/v1/article/list', {
      token: other.token,
      query: { user_id: author.user.id },
    });
    expect(othersView.body).toEqual({});
  });

  it('publishes on approval, records a rejection with its reason, and sends an edited rejected article back to review', async () => {
    expect((await admin('PUT', '/api/v1/article/check', { body: { article_id: [articleId], status: 1 } })).status).toBe(
      200,
    );
    expect((await api(backend.url, 'GET', '/api/v1/article', { query: { id: articleId } })).body.status).toBe(1);
    await admin('PUT', '/api/v1/article/check', {
      body: { article_id: [articleId], status: 2, rejeact_reason: '内容不完整' },
    });
    expect((await admin('GET', '/api/v1/article', { query: { id: articleId } })).body).toMatchObject({
      status: 2,
      reject_reason: '内容不完整',
    });
    expect(
      (await write(author.token, { id: articleId, title: '改好的文章', content: '<p>补充完整。</p>' }, 'PUT')).status,
    ).toBe(200);
    const edited = await admin('GET', '/api/v1/article', { query: { id: articleId } });
    expect(edited.body).toMatchObject({ title: '改好的文章', identifier: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(edited.body.status).toBeUndefined();
    expect(edited.body.reject_reason).toBeUndefined();
    expect((await admin('PUT', '/api/v1/article/check', { body: { article_id: [articleId], status: 5 } })).status).toBe(
      400,
    );
  });

  it('lets only the author or an admin edit or delete', async () => {
    const other = await registerMember(backend.url);
    const edit = await write(other.token, { id: articleId, title: 'x', content: '<p>x</p>' }, 'PUT');
    expect(edit.status).toBe(403);
    expect(edit.body.message).toBe('您没有权限修改此文章');
    const del = await api(backend.url, 'DELETE', '/api/v1/article', { token: other.token, query: { id: articleId } });
    expect(del.status).toBe(403);
    expect(del.body.message).toBe('您没有权限删除指定文章');
  });
});

describe('lists', () => {
  it('never carries the body, filters by category (with the children the caller passes) and recommendation', async () => {
    const all = await api(backend.url, 'GET', '/api/v1/article/list', { query: { size: 100 } });
    expect(all.status).toBe(200);
    expect(all.body.article.every((a: { content?: string }) => a.content === undefined)).toBe(true);
    expect(all.body.article[0].user).toEqual({ id: expect.any(Number), username: expect.any(String) });
    const inCategory = await api(backend.url, 'GET', '/api/v1/article/list', {
      query: { category_id: [categoryId, childCategoryId] },
    });
    expect(inCategory.body.article.map((a: { identifier: string }) => a.identifier)).toEqual(['upgrade-2024']);
    const recommended = await api(backend.url, 'GET', '/api/v1/article/list', { query: { is_recommend: true } });
    expect(recommended.body.article.map((a: { identifier: string }) => a.identifier)).toEqual(['upgrade-2024']);
    const notRecommended = await api(backend.url, 'GET', '/api/v1/article/list', {
      query: { is_recommend: false, size: 100 },
    });
    expect(notRecommended.body.article.map((a: { identifier: string }) => a.identifier)).not.toContain('upgrade-2024');
  });

  it('searches with wd and filters by status only for admins', async () => {
    const visitor = await api(backend.url, 'GET', '/api/v1/article/list', { query: { wd: '升级', size: 100 } });
    expect(visitor.body.total).toBeGreaterThan(1);
    const byAdmin = await admin('GET', '/api/v1/article/list', { query: { wd: '升级' } });
    expect(byAdmin.body.article.map((a: { identifier: string }) => a.identifier)).toEqual(['upgrade-2024']);
    const pending = await admin('GET', '/api/v1/article/list', { query: { status: 0 } });
    expect(pending.body.article.every((a: { status?: number }) => a.status === undefined)).toBe(true);
  });

  it('orders by a whitelisted column and pages', async () => {
    const byViews = await api(backend.url, 'GET', '/api/v1/article/list', {
      query: { order: 'view_count desc', size: 2, page: 1 },
    });
    expect(byViews.body.article).toHaveLength(2);
    expect(byViews.body.article[0].view_count).toBeGreaterThanOrEqual(byViews.body.article[1].view_count ?? 0);
    const evil = await api(backend.url, 'GET', '/api/v1/article/list', {
      query: { order: 'content; drop table article' },
    });
    expect(evil.status).toBe(200);
  });
});

describe('categories, recommendation, related articles', () => {
  it('refiles articles in a batch and recounts the categories', async () => {
    const about = await api(backend.url, 'GET', '/api/v1/article', { query: { identifier: 'about' } });
    expect(
      (
        await admin('PUT', '/api/v1/article/category', {
          body: { article_id: [about.body.id], category_id: [childCategoryId] },
        })
      ).status,
    ).toBe(200);
    const categories = await admin('GET', '/api/v1/category/list', { query: { type: 1 } });
    expect(categories.body.category.find((c: { id: number }) => c.id === childCategoryId).doc_count).toBe(2);
    expect(
      (await admin('PUT', '/api/v1/article/category', { body: { article_id: [about.body.id], category_id: [] } }))
        .status,
    ).toBe(200);
  });

  it('recommends and un-recommends', async () => {
    const agreement = await api(backend.url, 'GET', '/api/v1/article', { query: { identifier: 'agreement' } });
    await admin('PUT', '/api/v1/article/recommend', { body: { article_id: [agreement.body.id], is_recommend: true } });
    expect((await api(backend.url, 'GET', '/api/v1/article/list', { query: { is_recommend: true } })).body.total).toBe(
      2,
    );
    await admin('PUT', '/api/v1/article/recommend', { body: { article_id: [agreement.body.id], is_recommend: false } });
    expect((await api(backend.url, 'GET', '/api/v1/article/list', { query: { is_recommend: true } })).body.total).toBe(
      1,
    );
  });

  it('finds related articles by shared category and keywords', async () => {
    await admin('POST', '/api/v1/article', {
      body: { title: '升级后的新功能', content: '<p>新功能。</p>', category_id: [childCategoryId] },
    });
    const related = await api(backend.url, 'GET', '/api/v1/article/related', { query: { identifier: 'upgrade-2024' } });
    expect(related.status).toBe(200);
    expect(related.body.article.map((a: { title: string }) => a.title)).toContain('升级后的新功能');
    expect(related.body.total).toBeUndefined();
    expect((await api(backend.url, 'GET', '/api/v1/article/related')).body.message).toBe('参数错误:文章标识为空');
    const lonely = await admin('POST', '/api/v1/article', { body: { title: 'Zyxw', content: '<p>孤立。</p>' } });
    expect(
      (await api(backend.url, 'GET', '/api/v1/article/related', { query: { id: lonely.body.id } })).body.message,
    ).toBe('相关文章不存在');
  });
});

describe('the recycle bin', () => {
  it('takes deleted articles, gives them back, and removes them for good', async () => {
    const author = await memberIn(publishGroupId);
    const ids: number[] = [];
    for (const title of ['回收一', '回收二', '回收三'])
      ids.push((await write(author.token, { title, content: `<p>${title}</p>` })).body.id);
    expect(
      (await api(backend.url, 'DELETE', '/api/v1/article', { token: author.token, query: { id: ids } })).status,
    ).toBe(200);
    expect((await api(backend.url, 'GET', '/api/v1/article', { query: { id: ids[0]! } })).status).toBe(404);
    expect(
      (await api(backend.url, 'GET', '/api/v1/user', { token: author.token, query: { id: author.user.id } })).body
        .article_count,
    ).toBeUndefined();

    expect((await api(backend.url, 'GET', '/api/v1/article/recycle/list')).status).toBe(401);
    const recycled = await admin('GET', '/api/v1/article/recycle/list', { query: { wd: '回收' } });
    expect(recycled.body.total).toBe(3);
    expect(recycled.body.article[0].deleted_at).toBeDefined();

    expect((await admin('POST', '/api/v1/article/recycle/restore', { body: { id: [ids[0]] } })).status).toBe(200);
    expect((await api(backend.url, 'GET', '/api/v1/article', { query: { id: ids[0]! } })).status).toBe(200);
    expect((await admin('DELETE', '/api/v1/article/recycle', { query: { id: [ids[1]!] } })).status).toBe(200);
    expect((await admin('GET', '/api/v1/article/recycle/list', { query: { wd: '回收' } })).body.total).toBe(1);
    expect((await admin('DELETE', '/api/v1/article/recycle/empty')).status).toBe(200);
    expect((await admin('GET', '/api/v1/article/recycle/list')).body).toEqual({});
    expect((await admin('GET', '/api/v1/article', { query: { id: ids[2]! } })).status).toBe(404);
  });
});

describe('full-text search', () => {
  const search = (query: Record<string, string | number | number[]>) =>
    api(backend.url, 'GET', '/api/v1/article/search', { query });

  it('finds two-character Chinese words in titles and bodies, title matches first, with highlights', async () => {
    const inBody = await admin('POST', '/api/v1/article', {
      body: { title: '站点维护通知', content: '<p>本周六进行数据库迁移，期间暂停服务。</p>' },
    });
    const inTitle = await admin('POST', '/api/v1/article', {
      body: { title: '数据库迁移说明', content: '<p>详见正文。</p>' },
    });
    const res = await search({ wd: '迁移' });
    expect(res.status).toBe(200);
    expect(res.body.article.map((a: { id: number }) => a.id)).toEqual([inTitle.body.id, inBody.body.id]);
    expect(res.body.total).toBe(2);
    expect(res.body.spend).toMatch(/^\d+\.\d{3}$/);
    expect(res.body.article[0].title_highlight).toBe('数据库<em>迁移</em>说明');
    expect(res.body.article[1].snippet).toContain('<em>迁移</em>');
    expect(res.body.article[1].content).toBeUndefined();
  });

  it("keeps a table's cells apart: a number of a cell is found, and the summary made of the body does not join them", async () => {
    const table = await admin('POST', '/api/v1/article', {
      body: {
        title: '馆藏统计表',
        content: '<table><tr><th>年份</th><th>馆藏</th></tr><tr><td>2024</td><td>120000</td></tr></table>',
      },
    });
    expect(table.status).toBe(200);
    expect(table.body.description).toBe('年份 馆藏 2024 120000');
    const res = await search({ wd: '120000' });
    expect(res.body.article.map((a: { id: number }) => a.id)).toEqual([table.body.id]);
    expect(res.body.article[0].snippet).toContain('2024 <em>120000</em>');
  });

  it('finds a word inside a run of letters and digits: python finds an article saying Python3', async () => {
    const article = await admin('POST', '/api/v1/article', {
      body: { title: '脚本入门', content: '<p>本文用 Python3 写一个爬虫。</p>' },
    });
    const res = await search({ wd: 'python' });
    expect(res.body.article.map((a: { id: number }) => a.id)).toEqual([article.body.id]);
    expect(res.body.article[0].snippet).toContain('用 <em>Python</em>3 写');
  });

  it('leaves out the articles holding a word typed with a leading -, and marks none of it', async () => {
    const withWord = await admin('POST', '/api/v1/article', {
      body: { title: '城市阅览室', content: '<p>阅览室里新到了量子物理的书。</p>' },
    });
    const without = await admin('POST', '/api/v1/article', {
      body: { title: '阅览室开放时间', content: '<p>阅览室每天开放。</p>' },
    });
    const res = await search({ wd: '阅览室 -量子' });
    expect(res.body.article.map((a: { id: number }) => a.id)).toEqual([without.body.id]);
    expect(JSON.stringify(res.body.article)).not.toContain('量子');
    expect((await search({ wd: '阅览室' })).body.article.map((a: { id: number }) => a.id).sort()).toEqual(
      [withWord.body.id, without.body.id].sort(),
    );
  });

  it('finds only published articles outside the recycle bin, and follows edits', async () => {
    const author = await memberIn(reviewGroupId);
    await write(author.token, { title: '未审核的草稿', content: '<p>独角兽</p>' });
    expect((await search({ wd: '独角兽' })).body.total).toBeUndefined();
    const gone = await admin('POST', '/api/v1/article', { body: { title: '即将删除', content: '<p>凤凰涅槃</p>' } });
    expect((await search({ wd: '凤凰' })).body.total).toBe(1);
    await admin('DELETE', '/api/v1/article', { query: { id: gone.body.id } });
    expect((await search({ wd: '凤凰' })).body.total).toBeUndefined();
    await admin('POST', '/api/v1/article/recycle/restore', { body: { id: [gone.body.id] } });
    expect((await search({ wd: '凤凰' })).body.total).toBe(1);
    await admin('PUT', '/api/v1/article', { body: { id: gone.body.id, title: '改名了', content: '<p>麒麟</p>' } });
    expect((await search({ wd: '凤凰' })).body.total).toBeUndefined();
    expect((await search({ wd: '麒麟' })).body.article[0].title).toBe('改名了');
  });

  it('filters by category and answers nothing for an empty query', async () => {
    const filed = await admin('POST', '/api/v1/article', {
      body: { title: '分类里的公告', content: '<p>公告正文</p>', category_id: [childCategoryId] },
    });
    const res = await search({ wd: '公告', category_id: [childCategoryId] });
    expect(res.body.article.map((a: { id: number }) => a.id)).toContain(filed.body.id);
    expect(res.body.article.every((a: { category_id: number[] }) => a.category_id.includes(childCategoryId))).toBe(
      true,
    );
    expect((await search({ wd: '  ' })).body).toEqual({});
  });

  it('sorts by the views that reading moves and the favourites that members add', async () => {
    const older = await admin('POST', '/api/v1/article', { body: { title: '先发的白鹭观察', content: '<p>白鹭</p>' } });
    const newer = await admin('POST', '/api/v1/article', { body: { title: '后发的白鹭观察', content: '<p>白鹭</p>' } });
    const order = async (sort: string) =>
      (await search({ wd: '白鹭', sort })).body.article.map((a: { id: number }) => a.id);
    // Both at 0: the newer first. A visitor reads the older one, a member favourites it.
    expect(await order('view_count')).toEqual([newer.body.id, older.body.id]);
    expect((await api(backend.url, 'GET', '/api/v1/article', { query: { id: older.body.id } })).status).toBe(200);
    expect(await order('view_count')).toEqual([older.body.id, newer.body.id]);
    const member = await registerMember(backend.url);
    const favorite = await api(backend.url, 'POST', '/api/v1/favorite', {
      token: member.token,
      body: { type: 1, document_id: older.body.id },
    });
    expect(favorite.status).toBe(200);
    expect(await order('favorite_count')).toEqual([older.body.id, newer.body.id]);
  });

  it('counts every one of the reads made at once in the index', async () => {
    const READS = 8;
    // Made in this order: a tie in views goes to the newer, so `fewer` would pass `read` at READS - 1.
    const made: number[] = [];
    for (const title of ['多读的鸬鹚笔记', '同时读的鸬鹚笔记', '少读的鸬鹚笔记'])
      made.push(
        (await admin('POST', '/api/v1/article', { body: { title, content: '<p>鸬鹚</p>' } })).body.id as number,
      );
    const [more, read, fewer] = made as [number, number, number];
    // Each read from its own address: one address's reads count once a day (decision 119).
    let reader = 0;
    const view = (id: number) =>
      api(backend.url, 'GET', '/api/v1/article', {
        query: { id },
        headers: { 'x-forwarded-for': `10.0.${++reader}.1` },
      });
    // One read either side of READS, one after another: `read` sorts between them only when the index holds exactly READS.
    for (let i = 0; i < READS + 1; i += 1) await view(more);
    for (let i = 0; i < READS - 1; i += 1) await view(fewer);
    const reads = await Promise.all(Array.from({ length: READS }, () => view(read)));
    expect(reads.map((r) => r.status)).toEqual(Array.from({ length: READS }, () => 200));
    const order = (await search({ wd: '鸬鹚', sort: 'view_count' })).body.article.map((a: { id: number }) => a.id);
    expect(order).toEqual([more, read, fewer]);
  });

  it('indexes the seeded footer pages after the start', async () => {
    for (let i = 0; i < 50; i += 1) {
      if ((await search({ wd: '免责声明' })).body.total) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await search({ wd: '免责声明' })).body.article[0].identifier).toBe('copyright');
  });

  it('gives the articles saved before the cells were kept apart the spaced summary and search text at start (041)', async () => {
    const TABLE = '<table><tr><th>年份</th><th>馆藏</th></tr><tr><td>2024</td><td>130000</td></tr></table>';
    const first = await startBackend();
    let running: StartedBackend | undefined = first;
    try {
      const token = await login(first.url, 'admin', first.adminPassword);
      const post = async (body: Record<string, string>) =>
        (await api(first.url, 'POST', '/api/v1/article', { token, body })).body as { id: number; title: string };
      const made = await post({ title: '旧馆藏表', content: TABLE });
      const written = await post({ title: '另一张馆藏表', description: '馆藏一览', content: TABLE });
      await first.close({ keepData: true });
      running = undefined;
      // As the site saved them before: the summary made of the cells run together, and the index's text too.
      await withDatabase(first.dataDir, async (db) => {
        await db.updateTable('article').set({ description: '年份馆藏 2024130000' }).where('id', '=', made.id).execute();
        await sql`DELETE FROM kysely_migration WHERE name = '041_article_table_summaries'`.execute(db);
      });
      await withSearchIndex(first.dataDir, 'article', (index) =>
        index.upsert(
          [made, written].map((article) => ({
            id: article.id,
            title: article.title,
            keywords: '',
            description: article.id === made.id ? '年份馆藏 2024130000' : '馆藏一览',
            content: '年份馆藏\n2024130000',
            attributes: { createdAt: new Date().toISOString() },
          })),
        ),
      );
      running = await startBackend({ dataDir: first.dataDir });
      const url = running.url;
      const found = async () =>
        ((await api(url, 'GET', '/api/v1/article/search', { query: { wd: '130000' } })).body.article ?? []) as {
          id: number;
          snippet: string;
        }[];
      await vi.waitFor(async () => expect((await found()).map((a) => a.id).sort()).toEqual([made.id, written.id]), {
        timeout: 20_000,
        interval: 200,
      });
      expect((await found()).find((a) => a.id === made.id)!.snippet).toContain('2024 <em>130000</em>');
      const read = async (id: number) => (await api(url, 'GET', '/api/v1/article', { query: { id } })).body;
      expect((await read(made.id)).description).toBe('年份 馆藏 2024 130000');
      // A summary the author wrote stays as written.
      expect((await read(written.id)).description).toBe('馆藏一览');
    } finally {
      await running?.close();
    }
  }, 60_000);
});

describe('counts visitors see', () => {
  it('count the published articles outside the recycle bin, as the public lists list them', async () => {
    const parentId = await createCategory('计数文章根');
    const childId = await createCategory('计数文章子', parentId);
    const otherId = await createCategory('计数文章另');
    const counts = async () => {
      const { body } = await api(backend.url, 'GET', '/api/v1/category/list', { query: { type: 1, size: 1000 } });
      const of = (id: number) => body.category.find((c: { id: number }) => c.id === id).doc_count ?? 0;
      return [of(parentId), of(childId), of(otherId)];
    };
    // What a visitor's list of the category (with the children it passes) says.
    const listed = async (categoryIds: number[]) =>
      (await api(backend.url, 'GET', '/api/v1/article/list', { query: { category_id: categoryIds, size: 100 } })).body
        .total ?? 0;
    const expectCounts = async (expected: number[]) => {
      expect(await counts()).toEqual(expected);
      expect([await listed([parentId, childId]), await listed([childId]), await listed([otherId])]).toEqual(expected);
    };
    const check = async (status: number) =>
      expect(
        (
          await admin('PUT', '/api/v1/article/check', {
            body: { article_id: [articleId], status, rejeact_reason: status === 2 ? '内容不完整' : '' },
          })
        ).status,
      ).toBe(200);

    const author = await memberIn(reviewGroupId);
    const articleId = (await write(author.token, { title: '计数待审', content: '<p>待审</p>', category_id: [childId] }))
      .body.id;
    await expectCounts([0, 0, 0]); // in review
    await check(1);
    await expectCounts([1, 1, 0]); // published
    await check(2);
    await expectCounts([0, 0, 0]); // refused
    await check(1);
    const published = await admin('POST', '/api/v1/article', {
      body: { title: '计数已发布', content: '<p>已发布</p>', category_id: [parentId] },
    });
    await expectCounts([2, 1, 0]);

    // Its author edits it: back to review, out of the lists and the counts.
    expect(
      (await write(author.token, { id: articleId, title: '计数改稿', content: '<p>改稿</p>' }, 'PUT')).status,
    ).toBe(200);
    await expectCounts([1, 0, 0]);
    await check(1);
    // Filed elsewhere by an edit (an admin's: it stays published), then by the batch.
    expect(
      (
        await admin('PUT', '/api/v1/article', {
          body: { id: articleId, title: '计数改稿', content: '<p>改稿</p>', category_id: [otherId] },
        })
      ).status,
    ).toBe(200);
    await expectCounts([1, 0, 1]);
    await admin('PUT', '/api/v1/article/category', { body: { article_id: [articleId], category_id: [childId] } });
    await expectCounts([2, 1, 0]);

    // Recycled, restored.
    expect((await admin('DELETE', '/api/v1/article', { query: { id: articleId } })).status).toBe(200);
    await expectCounts([1, 0, 0]);
    expect((await admin('POST', '/api/v1/article/recycle/restore', { body: { id: [articleId] } })).status).toBe(200);
    await expectCounts([2, 1, 0]);
    await admin('DELETE', '/api/v1/article', { query: { id: published.body.id } });
    await admin('DELETE', '/api/v1/article/recycle', { query: { id: [published.body.id] } });
    await expectCounts([1, 1, 0]);

    // The site's total (GetStats, as a visitor gets it) counts what the whole list lists.
    await write(author.token, { title: '计数另一篇待审', content: '<p>待审</p>' });
    const stats = await api(backend.url, 'GET', '/api/v1/stats');
    const all = await api(backend.url, 'GET', '/api/v1/article/list', { query: { size: 1 } });
    expect(stats.body.article_count).toBe(all.body.total);
  });
});

describe('上一篇 and 下一篇 (ours, GetArticleNeighbours)', () => {
  const neighbours = async (query: Record<string, string | number>) =>
    api(backend.url, 'GET', '/api/v1/article/neighbours', { query });
  const titles = (body: { previous?: { title: string }; next?: { title: string } }) => [
    body.previous?.title,
    body.next?.title,
  ];
  const publish = async (title: string, categoryIds: number[]): Promise<number> => {
    const res = await admin('POST', '/api/v1/article', {
      body: { title, content: `<p>${title}。</p>`, category_id: categoryIds },
    });
    expect(res.status).toBe(200);
    return res.body.id;
  };
  let news = 0;
  let fairs = 0;
  let other = 0;
  const ids: Record<string, number> = {};
  const idOf = (title: string) => ids[title] ?? 0;

  beforeAll(async () => {
    news = await createCategory('行业动态');
    fairs = await createCategory('展会', news);
    other = await createCategory('其他栏目');
    for (const [title, categories] of [
      ['动态一', [news]],
      ['栏目外', [other]],
      ['展会一', [fairs]],
      ['待审动态', [news]],
      ['动态二', [news]],
      ['删掉的动态', [news]],
      ['两栏动态', [other, news]],
    ] as const)
      ids[title] = await publish(title, [...categories]);
    const pending = await admin('PUT', '/api/v1/article/check', {
      body: { article_id: [idOf('待审动态')], status: 0 },
    });
    expect(pending.status).toBe(200);
    expect((await admin('DELETE', '/api/v1/article', { query: { id: idOf('删掉的动态') } })).status).toBe(200);
  });

  it('names the articles listed just before and after it in its category’s list, the categories below it included', async () => {
    // The list a reader of 行业动态 sees: newest first, published only.
    const list = await api(backend.url, 'GET', '/api/v1/article/list', {
      query: { category_id: [news, fairs], status: 1, size: 100 },
    });
    const listed: string[] = list.body.article.map((a: { title: string }) => a.title);
    expect(listed).toEqual(['两栏动态', '动态二', '展会一', '动态一']);
    const middle = await neighbours({ id: idOf('动态二'), category_id: news });
    expect(middle.status).toBe(200);
    expect(titles(middle.body)).toEqual(['两栏动态', '展会一']);
    // Lists carry no body; the links need the identifier and the categories.
    expect(middle.body.next).toMatchObject({ id: idOf('展会一'), category_id: [fairs] });
    expect(middle.body.next.identifier).toMatch(/^[0-9a-f]{16}$/);
    expect(middle.body.next.content).toBeUndefined();
    expect(titles((await neighbours({ id: idOf('动态一'), category_id: news })).body)).toEqual(['展会一', undefined]);
    const identifier = (await api(backend.url, 'GET', '/api/v1/article', { query: { id: idOf('两栏动态') } })).body
      .identifier;
    expect(titles((await neighbours({ identifier, category_id: news })).body)).toEqual([undefined, '动态二']);
  });

  it('never names an article that is not published or is in the recycle bin, and has none for them', async () => {
    const around = await neighbours({ id: idOf('动态二'), category_id: news });
    expect(titles(around.body)).not.toContain('删掉的动态');
    expect(titles((await neighbours({ id: idOf('动态一'), category_id: news })).body)).not.toContain('待审动态');
    for (const id of [idOf('待审动态'), idOf('删掉的动态')]) {
      const res = await neighbours({ id, category_id: news });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('文章不存在');
    }
    const bare = await neighbours({});
    expect(bare.status).toBe(400);
    expect(bare.body.message).toBe('请指定文章（参数 id 或 identifier）');
  });

  it('follows the category of the address, or else the article’s own last one; a page under no category has none', async () => {
    // Read under 其他栏目, 两栏动态 is that list's newest, 栏目外 after it.
    expect(titles((await neighbours({ id: idOf('两栏动态'), category_id: other })).body)).toEqual([
      undefined,
      '栏目外',
    ]);
    // Under a category it is not in, or none named: its last category, 行业动态.
    expect(titles((await neighbours({ id: idOf('两栏动态'), category_id: fairs })).body)).toEqual([
      undefined,
      '动态二',
    ]);
    expect(titles((await neighbours({ id: idOf('两栏动态') })).body)).toEqual([undefined, '动态二']);
    // 展会 lists itself alone: 展会一 has no neighbour there.
    expect((await neighbours({ id: idOf('展会一') })).body).toEqual({});
    const about = await neighbours({ identifier: 'about' });
    expect(about.status).toBe(200);
    expect(about.body).toEqual({});
  });
});

describe('a site open to members only (decision 097)', () => {
  it('gives visitors the titles and metadata of articles, not their summaries or bodies; members read them', async () => {
    const category = await createCategory('会员专栏');
    const body = '<p>仅限会员阅读的年度馆藏报告全文。</p>';
    const first = await admin('POST', '/api/v1/article', {
      body: { title: '年度馆藏报告', content: body, category_id: [category] },
    });
    const second = await admin('POST', '/api/v1/article', {
      body: { title: '馆藏报告附录', content: '<p>附录：年度馆藏报告的数据来源。</p>', category_id: [category] },
    });
    expect([first.status, second.status]).toEqual([200, 200]);
    const member = await registerMember(backend.url);
    const read = (path: string, query: Record<string, string | number | number[]>, token?: string) =>
      api(backend.url, 'GET', `/api/v1/article${path}`, { query, token });
    const asked: [string, Record<string, string | number | number[]>][] = [
      ['', { id: first.body.id }],
      ['/list', { category_id: [category] }],
      ['/related', { id: first.body.id }],
      ['/neighbours', { id: first.body.id, category_id: category }],
      ['/search', { wd: '馆藏报告' }],
    ];
    await setConfig(backend.url, backend.adminToken, { 'security.login_required': 'true' });
    try {
      for (const [path, query] of asked) {
        const visitor = await read(path, query);
        expect(visitor.status, path).toBe(200);
        const text = JSON.stringify(visitor.body);
        expect(text, path).toMatch(/年度馆藏报告|馆藏报告附录/);
        expect(text, path).not.toMatch(/仅限会员|数据来源|description|content|snippet/);
        const signedIn = JSON.stringify((await read(path, query, member.token)).body);
        expect(signedIn, path).toMatch(/仅限会员|数据来源/);
      }
      // The footer's pages stay whole: a visitor agrees to two of them when registering. 使用帮助 is no footer page.
      for (const identifier of ['agreement', 'privacy', 'about']) {
        const page = await read('', { identifier });
        expect(page.body.content, identifier).toMatch(/^<p>.+<\/p>$/);
        expect(page.body.description.length, identifier).toBeGreaterThan(10);
      }
      const help = await read('', { identifier: 'help' });
      expect(help.body).toMatchObject({ identifier: 'help', title: '使用帮助' });
      expect(help.body.content).toBeUndefined();
      // So are their snippets in a search, and only theirs: 使用帮助 and the members' articles are found without one.
      const found = await read('/search', { wd: '下载' });
      const snippets = Object.fromEntries(
        (found.body.article as { title: string; snippet?: string }[]).map((a) => [a.title, a.snippet ?? '']),
      );
      expect(Object.keys(snippets)).toEqual(expect.arrayContaining(['关于我们', '文库协议', '隐私政策', '使用帮助']));
      for (const open of ['关于我们', '文库协议', '隐私政策']) expect(snippets[open], open).toMatch(/下载/);
      expect(snippets['使用帮助']).toBe('');
      const memberOnly = await read('/search', { wd: '馆藏报告' });
      expect(JSON.stringify(memberOnly.body)).not.toMatch(/snippet/);
    } finally {
      await setConfig(backend.url, backend.adminToken, { 'security.login_required': 'false' });
    }
  });
});
