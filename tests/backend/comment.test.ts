import { beforeAll, describe, expect, it } from 'vitest';
import { api, registerMember, useBackend, withDatabase, type Member } from '../helpers/backend';
import { creditsOf, insertDocument } from '../helpers/document-fixtures';
import { databaseNow } from '../../backend/db/dialect';
import { signedInAgo, withClockOff } from '../helpers/clock';

// CommentAPI through HTTP on articles: review states, replies, counters, who may comment,
// the rate limit, the captcha, deleting, and the lists of the public, the author and admins.

const backend = useBackend();
const { admin } = backend;

let articleId = 0;
let alice: Member;
let bob: Member;

const comment = (member: Member | { token: string }, body: Record<string, unknown>) =>
  api(backend.url, 'POST', '/api/v1/comment', {
    token: member.token,
    body: { type: 1, document_id: articleId, ...body },
  });
const publicList = (query: Record<string, string | number | boolean | number[]> = {}) =>
  api(backend.url, 'GET', '/api/v1/comment/list', { query: { type: 1, document_id: articleId, ...query } });
const articleCount = async () =>
  (await api(backend.url, 'GET', '/api/v1/article', { query: { id: articleId } })).body.comment_count ?? 0;
/** The member's `comment_count` as their overview reads it (their approved comments). */
const userCount = async (member: Member) =>
  (await api(backend.url, 'GET', '/api/v1/user', { token: member.token })).body.comment_count ?? 0;

beforeAll(async () => {
  await backend.setConfig({ 'security.comment_interval': '0' });
  articleId = (
    await admin('POST', '/api/v1/article', { body: { title: '欢迎评论', content: '<p>说说你的看法。</p>' } })
  ).body.id;
  alice = await registerMember(backend.url);
  bob = await registerMember(backend.url);
});

describe('creating', () => {
  it('keeps a member’s comment pending, visible to its author and admins only, until approved', async () => {
    const res = await comment(alice, { content: '写得很好！' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      content: '写得很好！',
      type: 1,
      document_id: articleId,
      user_id: alice.user.id,
      user: { username: alice.username },
    });
    expect(res.body.status).toBeUndefined();
    expect(res.body.ip).toBeUndefined();
    expect((await publicList()).body).toEqual({});
    const own = await api(backend.url, 'GET', '/api/v1/comment/list', {
      token: alice.token,
      query: { type: 1, document_id: articleId, user_id: alice.user.id },
    });
    expect(own.body).toMatchObject({ total: 1, comment: [{ id: res.body.id, content: '写得很好！' }] });
    const pryingBob = await api(backend.url, 'GET', '/api/v1/comment/list', {
      token: bob.token,
      query: { type: 1, document_id: articleId, user_id: alice.user.id },
    });
    expect(pryingBob.body).toEqual({});
    expect((await admin('GET', '/api/v1/comment/list', { query: { status: 0 } })).body.total).toBe(1);
    expect(await articleCount()).toBe(0);
    expect(await userCount(alice)).toBe(0);

    expect((await admin('POST', '/api/v1/comment/check', { body: { id: [res.body.id], status: 1 } })).status).toBe(200);
    const visible = await publicList();
    expect(visible.body).toMatchObject({
      total: 1,
      comment: [{ id: res.body.id, status: 1, user: { id: alice.user.id, username: alice.username } }],
    });
    expect(await articleCount()).toBe(1);
    expect(await userCount(alice)).toBe(1);
    const profile = await api(backend.url, 'GET', '/api/v1/user', { token: bob.token, query: { id: alice.user.id } });
    expect(profile.body.comment_count).toBe(1);
  });

  it('approves the comments of admins (and of groups without review) at once', async () => {
    const res = await admin('POST', '/api/v1/comment', {
      body: { type: 1, document_id: articleId, content: '感谢支持。' },
    });
    expect(res.body.status).toBe(1);
    expect(await articleCount()).toBe(2);
  });

  it('hangs replies under the top-level comment and counts the approved ones', async () => {
    const top = (await publicList({ order: 'id asc' })).body.comment[0];
    const reply = await comment(bob, { parent_id: top.id, content: '同意楼上' });
    const replyToReply = await comment(alice, { parent_id: reply.body.id, content: '谢谢' });
    expect(replyToReply.status).toBe(400); // the reply is not approved yet: nothing to reply to
    await admin('POST', '/api/v1/comment/check', { body: { id: [reply.body.id], status: 1 } });
    const second = await comment(alice, { parent_id: reply.body.id, content: '谢谢' });
    expect(second.body.parent_id).toBe(top.id);
    await admin('POST', '/api/v1/comment/check', { body: { id: [second.body.id], status: 1 } });
    const replies = await publicList({ parent_id: [top.id] });
    expect(replies.body.total).toBe(2);
    expect(
      (await publicList({ order: 'id asc' })).body.comment.find((c: { id: number }) => c.id === top.id).comment_count,
    ).toBe(2);
    expect(await articleCount()).toBe(4);
  });

  it('keeps script in a comment as plain text', async () => {
    const res = await admin('POST', '/api/v1/comment', {
      body: { type: 1, document_id: articleId, content: '<img src=x onerror="window.__xss=1">' },
    });
    expect(res.body.content).toBe('<img src=x onerror="window.__xss=1">');
    await admin('DELETE', '/api/v1/comment', { query: { id: res.body.id } });
  });

  it.each([
    [{ content: '  ' }, 400, '评论内容不能为空'],
    [{ content: '好'.repeat(1001) }, 400, '评论内容长度不能超过 1000 个字符'],
    [{ content: 'x', document_id: 0 }, 400, '请指定要评论的文章'],
    [{ content: 'x', document_id: 99999 }, 404, '文章不存在'],
    [{ content: 'x', type: 7 }, 400, '评论类型必须是 0（文档）或 1（文章）'],
    [{ content: 'x', parent_id: 99999 }, 400, '回复的评论不存在'],
  ])('refuses %j with %i', async (body, status, message) => {
    const res = await comment(alice, body);
    expect(res.status).toBe(status);
    expect(res.body.message).toBe(message);
  });

  it('needs a login', async () => {
    expect((await comment({ token: '' }, { content: 'x' })).status).toBe(401);
  });

  it('refuses comments on articles readers cannot see', async () => {
    const pendingAuthor = await registerMember(backend.url);
    const group = await admin('POST', '/api/v1/group', {
      body: { title: '文章需审核', enable_article: true, enable_article_approval: true, enable_comment: true },
    });
    await admin('PUT', '/api/v1/user', { body: { id: pendingAuthor.user.id, group_id: [group.body.id] } });
    const pending = await api(backend.url, 'POST', '/api/v1/article', {
      token: pendingAuthor.token,
      body: { title: '待审', content: '<p>x</p>' },
    });
    const res = await comment(alice, { document_id: pending.body.id, content: 'x' });
    expect(res.status).toBe(404);
  });
});

describe('who may comment', () => {
  it('refuses a punished member with the reason', async () => {
    const punished = await registerMember(backend.url);
    await admin('POST', '/api/v1/punishment', {
      body: { user_id: [punished.user.id], type: [2], enable: true, reason: '恶意刷屏' },
    });
    const res = await comment(punished, { content: '我又来了' });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('您已被禁止评论，原因：恶意刷屏');
  });

  it('tells a member whether they may comment, and why not, before they write (GET /api/v1/user/canicomment)', async () => {
    const canComment = (member: Member) => api(backend.url, 'GET', '/api/v1/user/canicomment', { token: member.token });
    const allowed = await canComment(bob);
    expect([allowed.status, allowed.body]).toEqual([200, {}]);
    const punished = await registerMember(backend.url);
    await admin('POST', '/api/v1/punishment', {
      body: { user_id: [punished.user.id], type: [2], enable: true, reason: '发布广告' },
    });
    const barred = await canComment(punished);
    expect(barred.status).toBe(403);
    expect(barred.body).toMatchObject({ code: 7, message: '您已被禁止评论，原因：发布广告' });
    const grouped = await registerMember(backend.url);
    const group = await admin('POST', '/api/v1/group', { body: { title: '只读组', enable_comment: false } });
    await admin('PUT', '/api/v1/user', { body: { id: grouped.user.id, group_id: [group.body.id] } });
    expect((await canComment(grouped)).body.message).toBe('您所在用户组不允许评论');
    expect((await api(backend.url, 'GET', '/api/v1/user/canicomment')).status).toBe(401);
  });

  it("ends a punishment when the database's clock reaches its end_time, whatever this machine's says", async () => {
    const OFF_MS = 10 * 60_000;
    const { user, token: fresh } = await registerMember(backend.url);
    await admin('POST', '/api/v1/punishment', {
      body: { user_id: [user.id], type: [2], enable: true, reason: '恶意刷屏' },
    });
    /** Makes the punishment end `ms` after the database's now (before it when negative). */
    const endIn = (ms: number) =>
      withDatabase(backend.dataDir, async (db) => {
        const end = new Date((await databaseNow(db)).getTime() + ms).toISOString();
        await db.updateTable('punishment').set({ end_time: end }).where('user_id', '=', user.id).execute();
      });
    // Signed in a quarter of an hour ago: a session both machines take.
    const token = await signedInAgo(backend.dataDir, fresh, 15 * 60_000);
    const canComment = () => api(backend.url, 'GET', '/api/v1/user/canicomment', { token });
    await endIn(5 * 60_000);
    expect((await withClockOff(OFF_MS, canComment)).status).toBe(403);
    await endIn(-5 * 60_000);
    expect((await withClockOff(-OFF_MS, canComment)).status).toBe(200);
  });

  it('refuses members whose groups do not allow comments', async () => {
    const member = await registerMember(backend.url);
    const group = await admin('POST', '/api/v1/group', { body: { title: '禁止评论组', enable_comment: false } });
    await admin('PUT', '/api/v1/user', { body: { id: member.user.id, group_id: [group.body.id] } });
    const res = await comment(member, { content: 'x' });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('您所在用户组不允许评论');
  });

  it('limits how often a member comments (security.comment_interval)', async () => {
    await backend.setConfig({ 'security.comment_interval': '60' });
    const member = await registerMember(backend.url);
    expect((await comment(member, { content: '第一条' })).status).toBe(200);
    const tooFast = await comment(member, { content: '第二条' });
    expect(tooFast.status).toBe(403);
    expect(tooFast.body.message).toMatch(/^您的评论太快了，请等待 (60|59) 秒后再试$/);
    // Ten sent at once by another member: one passes, the others wait their turn and find it.
    const quick = await registerMember(backend.url);
    const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => comment(quick, { content: `同时${i}` })));
    expect(burst.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(403)]);
    await backend.setConfig({ 'security.comment_interval': '0' });
  });

  it("counts the interval by the database's clock, whichever machine took the last comment", async () => {
    const BEHIND_MS = -10 * 60_000;
    /** A member signed in a quarter of an hour ago: a session the machine behind takes too. */
    const memberBehind = async () => ({
      token: await signedInAgo(backend.dataDir, (await registerMember(backend.url)).token, 15 * 60_000),
    });
    await backend.setConfig({ 'security.comment_interval': '60' });
    try {
      // The next comment comes through a machine 10 minutes behind: a minute to wait, not eleven.
      const member = await memberBehind();
      expect((await comment(member, { content: '准时' })).status).toBe(200);
      const behind = await withClockOff(BEHIND_MS, () => comment(member, { content: '慢十分钟' }));
      expect(behind.status).toBe(403);
      expect(behind.body.message).toMatch(/^您的评论太快了，请等待 (60|59) 秒后再试$/);
      // The last one came through that machine: the next one on time still waits its minute.
      const other = await memberBehind();
      expect((await withClockOff(BEHIND_MS, () => comment(other, { content: '慢十分钟' }))).status).toBe(200);
      const onTime = await comment(other, { content: '准时' });
      expect(onTime.status).toBe(403);
      expect(onTime.body.message).toMatch(/^您的评论太快了，请等待 (60|59) 秒后再试$/);
    } finally {
      await backend.setConfig({ 'security.comment_interval': '0' });
    }
  });

  it('asks for the captcha when the security config does', async () => {
    await backend.setConfig({ 'security.enable_captcha_comment': 'true' });
    expect((await comment(bob, { content: 'x' })).body.message).toBe('请输入验证码');
    const captcha = await api(backend.url, 'GET', '/api/v1/user/captcha', { query: { type: 'comment' } });
    expect(captcha.body.enable).toBe(true);
    expect((await comment(bob, { content: 'x', captcha_id: captcha.body.id, captcha: 'wrong' })).body.message).toBe(
      '验证码错误',
    );
    await backend.setConfig({ 'security.enable_captcha_comment': 'false' });
  });
});

describe('comments on documents', () => {
  const commentCountOf = (id: number) =>
    withDatabase(
      backend.dataDir,
      async (db) =>
        (await db.selectFrom('document').select('comment_count').where('id', '=', id).executeTakeFirstOrThrow())
          .comment_count,
    );

  it('follow the same rules, and the document’s comment count follows the approved ones', async () => {
    const doc = await insertDocument(backend.dataDir, { userId: 1, title: '期末复习资料' });
    const member = await registerMember(backend.url);
    const pending = await api(backend.url, 'POST', '/api/v1/comment', {
      token: member.token,
      body: { type: 0, document_id: doc.id, content: '资料很全' },
    });
    expect(pending.status).toBe(200);
    expect(await commentCountOf(doc.id)).toBe(0);
    await admin('POST', '/api/v1/comment/check', { body: { id: [pending.body.id], status: 1 } });
    expect(await commentCountOf(doc.id)).toBe(1);
    const listed = await admin('GET', '/api/v1/comment/list', {
      query: { type: 0, document_id: doc.id, with_document_title: true },
    });
    expect(listed.body.comment[0]).toMatchObject({
      content: '资料很全',
      document_title: '期末复习资料',
      document_uuid: doc.uuid,
    });
    await admin('DELETE', '/api/v1/comment', { query: { id: pending.body.id } });
    expect(await commentCountOf(doc.id)).toBe(0);
  });

  it('reward the uploader score.document_commented credits per other member’s comment, at most score.document_commented_limit a day', async () => {
    await backend.setConfig({ 'score.document_commented': '3', 'score.document_commented_limit': '2' });
    const owner = await registerMember(backend.url);
    const docs = [
      await insertDocument(backend.dataDir, { userId: owner.user.id, title: '线性代数笔记' }),
      await insertDocument(backend.dataDir, { userId: owner.user.id, title: '概率论<习题>' }),
    ];
    const before = await creditsOf(backend.dataDir, owner.user.id);
    // The uploader's own comment earns nothing, nor counts.
    expect((await comment(owner, { type: 0, document_id: docs[0]!.id, content: '补充说明' })).status).toBe(200);
    expect(await creditsOf(backend.dataDir, owner.user.id)).toBe(before);
    for (let i = 0; i < 3; i += 1) {
      const reader = await registerMember(backend.url);
      const res = await comment(reader, { type: 0, document_id: docs[1 - (i % 2)]!.id, content: `第 ${i + 1} 条评论` });
      expect(res.status).toBe(200);
    }
    expect(await creditsOf(backend.dataDir, owner.user.id)).toBe(before + 6);
    // The uploader's 最近动态 (their credit history) says where each reward came from, and only the rewarded ones.
    const dynamics = await api(backend.url, 'GET', '/api/v1/user/dynamic', { token: owner.token });
    const awards = (dynamics.body.dynamic as { type: number; content: string }[]).filter((d) => d.type === 18);
    expect(awards.map((d) => d.content)).toEqual([
      '文档《线性代数笔记》被评论，获得 3 魔豆',
      '文档《概率论&lt;习题&gt;》被评论，获得 3 魔豆',
    ]);
    await backend.setConfig({ 'score.document_commented': '1', 'score.document_commented_limit': '1' });
  });

  it("count the day of the uploader's award limit by the database's clock, whatever the machine's says", async () => {
    await backend.setConfig({ 'score.document_commented': '3', 'score.document_commented_limit': '1' });
    try {
      const owner = await registerMember(backend.url);
      const doc = await insertDocument(backend.dataDir, { userId: owner.user.id, title: '数值分析' });
      const before = await creditsOf(backend.dataDir, owner.user.id);
      const first = await registerMember(backend.url);
      expect((await comment(first, { type: 0, document_id: doc.id, content: '第一条' })).status).toBe(200);
      expect(await creditsOf(backend.dataDir, owner.user.id)).toBe(before + 3);
      // Through a machine whose clock is a day ahead: still the database's day, whose one award is paid.
      const second = await registerMember(backend.url);
      const res = await withClockOff(24 * 3600_000, () =>
        comment(second, { type: 0, document_id: doc.id, content: '第二条' }),
      );
      expect(res.status, res.text).toBe(200);
      expect(await creditsOf(backend.dataDir, owner.user.id)).toBe(before + 3);
    } finally {
      await backend.setConfig({ 'score.document_commented': '1', 'score.document_commented_limit': '1' });
    }
  });

  it('refuse documents strangers may not see', async () => {
    const hidden = await insertDocument(backend.dataDir, { userId: 1, status: 6 });
    const res = await comment(alice, { type: 0, document_id: hidden.id, content: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('文档不存在');
  });
});

describe('admins and lists', () => {
  it('names the target with with_document_title and searches with wd for admins only', async () => {
    const list = await admin('GET', '/api/v1/comment/list', { query: { with_document_title: true, wd: '同意' } });
    expect(list.body).toMatchObject({
      total: 1,
      comment: [
        { content: '同意楼上', document_title: '欢迎评论', document_uuid: expect.stringMatching(/^[0-9a-f]{16}$/) },
      ],
    });
    const visitor = await api(backend.url, 'GET', '/api/v1/comment/list', { query: { wd: '同意' } });
    expect(visitor.body.total).toBeGreaterThan(1);
  });

  it('reads one comment with its author, edits it, and answers 404 for unknown ids', async () => {
    const top = (await publicList({ order: 'id asc' })).body.comment[0];
    const got = await admin('GET', '/api/v1/comment', { query: { id: top.id } });
    expect(got.body).toMatchObject({ id: top.id, user: { username: alice.username } });
    expect(
      (await admin('PUT', '/api/v1/comment', { body: { id: top.id, content: '写得很好！（已编辑）', status: 1 } }))
        .status,
    ).toBe(200);
    expect((await admin('GET', '/api/v1/comment', { query: { id: top.id } })).body.content).toBe(
      '写得很好！（已编辑）',
    );
    expect((await admin('GET', '/api/v1/comment', { query: { id: 99999 } })).status).toBe(404);
  });

  it('rejects in a batch and takes rejected comments out of the counters', async () => {
    const before = await articleCount();
    const alices = await userCount(alice);
    const mine = await comment(alice, { content: '再来一条' });
    await admin('POST', '/api/v1/comment/check', { body: { id: [mine.body.id], status: 1 } });
    expect(await articleCount()).toBe(before + 1);
    expect(await userCount(alice)).toBe(alices + 1);
    await admin('POST', '/api/v1/comment/check', { body: { id: [mine.body.id], status: 2 } });
    expect(await articleCount()).toBe(before);
    expect(await userCount(alice)).toBe(alices);
    expect((await admin('POST', '/api/v1/comment/check', { body: { id: [mine.body.id], status: 3 } })).status).toBe(
      400,
    );
  });

  it('lets members delete their own comments only (403 for another’s or an unknown id), admins any (with the replies)', async () => {
    const top = (await publicList({ order: 'id asc' })).body.comment[0];
    const [alices, bobs] = [await userCount(alice), await userCount(bob)];
    const replies: { user_id: number }[] = (await publicList({ parent_id: [top.id] })).body.comment;
    const [alicesReplies = 0, bobsReplies = 0] = [alice, bob].map(
      (m) => replies.filter((c) => c.user_id === m.user.id).length,
    );
    expect(bobsReplies).toBeGreaterThan(0);
    const refused = await api(backend.url, 'DELETE', '/api/v1/comment', { token: bob.token, query: { id: top.id } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: 7, message: '评论不存在或没有删除权限', error: '评论不存在或没有删除权限' });
    expect((await admin('GET', '/api/v1/comment', { query: { id: top.id } })).status).toBe(200);
    const unknown = await api(backend.url, 'DELETE', '/api/v1/comment', { token: bob.token, query: { id: 999_999 } });
    expect(unknown.status).toBe(403);
    await api(backend.url, 'DELETE', '/api/v1/comment', { token: alice.token, query: { id: top.id } });
    expect((await admin('GET', '/api/v1/comment', { query: { id: top.id } })).status).toBe(404);
    expect((await publicList({ parent_id: [top.id] })).body).toEqual({});
    expect(await articleCount()).toBe(1);
    // The replies went with the comment: their authors' counters too.
    expect(await userCount(alice)).toBe(alices - 1 - alicesReplies);
    expect(await userCount(bob)).toBe(bobs - bobsReplies);
  });

  it('drops the comments of an article purged from the recycle bin', async () => {
    await admin('DELETE', '/api/v1/article', { query: { id: articleId } });
    await admin('DELETE', '/api/v1/article/recycle', { query: { id: articleId } });
    expect((await admin('GET', '/api/v1/comment/list', { query: { type: 1, document_id: articleId } })).body).toEqual(
      {},
    );
    expect(await userCount(alice)).toBe(0);
    expect(await userCount(bob)).toBe(0);
  });
});

describe('telling the authors of a review (decision 077)', () => {
  let article: { id: number; identifier: string };
  const onArticle = (member: Member | { token: string }, body: Record<string, unknown>) =>
    api(backend.url, 'POST', '/api/v1/comment', {
      token: member.token,
      body: { type: 1, document_id: article.id, ...body },
    });
  const check = (ids: number[], status: number) =>
    admin('POST', '/api/v1/comment/check', { body: { id: ids, status } });
  const update = (id: number, content: string, status: number) =>
    admin('PUT', '/api/v1/comment', { body: { id, content, status } });
  /** The member's messages, oldest first. */
  const told = async (member: Member | { token: string }) =>
    (
      ((await api(backend.url, 'GET', '/api/v1/message/list', { token: member.token, query: { size: 100 } })).body
        .message ?? []) as { type: number; title: string; content: string }[]
    ).reverse();
  const adminUser = {
    get token() {
      return backend.adminToken;
    },
  };

  beforeAll(async () => {
    const created = await admin('POST', '/api/v1/article', {
      body: { title: '读书的方法', content: '<p>慢慢读。</p>' },
    });
    expect(created.status, created.text).toBe(200);
    article = (await api(backend.url, 'GET', '/api/v1/article', { query: { id: created.body.id } })).body;
    expect(article.identifier).toBeTruthy();
  });

  it('tells the authors of an approval in a batch and of a rejection of one comment, with a link to the article', async () => {
    const [carol, dave] = [await registerMember(backend.url), await registerMember(backend.url)];
    const first = (await onArticle(carol, { content: '慢读才有收获。' })).body;
    const second = (await onArticle(dave, { content: '做笔记很重要。' })).body;
    expect(await told(carol)).toEqual([]);

    expect((await check([first.id, second.id], 1)).status).toBe(200);
    expect(await told(carol)).toEqual([
      expect.objectContaining({
        type: 7,
        title: '评论审核通过',
        content: '您在文章《读书的方法》中的评论已通过审核，现在所有人都可以看到：慢读才有收获。',
        target_type: 1,
        target_id: article.id,
        target_key: article.identifier,
      }),
    ]);
    expect((await told(dave)).map((m) => m.type)).toEqual([7]);

    // The admin's comment screen rejects one comment through UpdateComment, its text edited.
    expect((await update(second.id, '做笔记很重要！', 2)).status).toBe(200);
    expect((await told(dave)).slice(1)).toEqual([
      expect.objectContaining({
        type: 8,
        title: '评论审核未通过',
        content: '您在文章《读书的方法》中的评论未通过审核，只有您自己看得到：做笔记很重要！',
        target_type: 1,
        target_id: article.id,
        target_key: article.identifier,
      }),
    ]);
    expect((await told(carol)).length).toBe(1);
  });

  it('tells each verdict once: an approval put back in review and approved again tells nothing more', async () => {
    const [erin, frank] = [await registerMember(backend.url), await registerMember(backend.url)];
    const top = (await onArticle(erin, { content: '先读目录。' })).body;
    await check([top.id], 1);
    const reply = (await onArticle(frank, { content: '目录是地图。', parent_id: top.id })).body;
    expect(reply.status ?? 0).toBe(0);

    await check([reply.id], 1);
    await check([reply.id], 0);
    await check([reply.id], 1);
    await update(reply.id, '目录是一张地图。', 0);
    await update(reply.id, '目录是一张地图。', 1);
    // Approved again (the same status): no change, nothing told.
    await check([reply.id], 1);
    expect((await told(erin)).map((m) => m.type)).toEqual([7, 4]);
    expect((await told(frank)).map((m) => m.type)).toEqual([7]);

    // A rejection after the approval is told, and an approval after the rejection; 待审核 tells nobody.
    await check([reply.id], 2);
    await check([reply.id], 0);
    await check([reply.id], 2);
    await update(reply.id, '目录是一张地图。', 1);
    expect((await told(frank)).map((m) => m.type)).toEqual([7, 8, 7]);
    expect((await told(erin)).map((m) => m.type)).toEqual([7, 4]);
  });

  it('tells the member a reply approved through UpdateComment answers, as a batch approval does', async () => {
    const [grace, heidi] = [await registerMember(backend.url), await registerMember(backend.url)];
    const top = (await onArticle(grace, { content: '读完要复述。' })).body;
    await update(top.id, '读完要复述。', 1);
    const reply = (await onArticle(heidi, { content: '复述最难。', parent_id: top.id })).body;
    await update(reply.id, '复述最难。', 1);
    expect(await told(grace)).toEqual([
      expect.objectContaining({ type: 7 }),
      expect.objectContaining({
        type: 4,
        content: `${heidi.username} 在文章《读书的方法》中回复了您：复述最难。`,
        target_key: article.identifier,
      }),
    ]);
  });

  it('names the comment each message is about: the one reviewed, the reply that answers (migration 040)', async () => {
    const [judy, karl] = [await registerMember(backend.url), await registerMember(backend.url)];
    const top = (await onArticle(judy, { content: '读书要有计划。' })).body;
    const other = (await onArticle(judy, { content: '每天读一点。' })).body;
    await check([top.id, other.id], 1);
    const reply = (await onArticle(karl, { content: '计划要能坚持。', parent_id: top.id })).body;
    await update(reply.id, '计划要能坚持。', 2);
    await check([reply.id], 1);
    // The admin's reply is approved at once: its notice is written as it is created.
    const answer = (await onArticle(adminUser, { content: '说得对。', parent_id: other.id })).body;
    const about = (messages: { type: number; comment_id?: number }[]) => messages.map((m) => [m.type, m.comment_id]);
    expect(about(await told(judy))).toEqual([
      [7, top.id],
      [7, other.id],
      [4, reply.id],
      [4, answer.id],
    ]);
    expect(about(await told(karl))).toEqual([
      [8, reply.id],
      [7, reply.id],
    ]);
  });

  it('tells nobody of an admin’s review of their own comment, of comments approved at once, nor a deleted member', async () => {
    const before = (await told(adminUser)).length;
    const own = (await onArticle(adminUser, { content: '欢迎大家分享读书方法。' })).body;
    expect(own.status).toBe(1);
    await check([own.id], 0);
    await check([own.id], 2);
    await check([own.id], 1);
    expect((await told(adminUser)).length).toBe(before);

    const ivan = await registerMember(backend.url);
    const pending = (await onArticle(ivan, { content: '我会回来看看。' })).body;
    const deleted = await api(backend.url, 'DELETE', '/api/v1/user', {
      token: backend.adminToken,
      query: { id: ivan.user.id, password: backend.adminPassword },
    });
    expect(deleted.status, deleted.text).toBe(200);
    expect((await check([pending.id], 1)).status).toBe(200);
    const messages = await withDatabase(backend.dataDir, (db) =>
      db.selectFrom('message').select('id').where('user_id', '=', ivan.user.id).execute(),
    );
    expect(messages).toEqual([]);
  });
});

describe('the thread of one comment (GetCommentThread, decision 108)', () => {
  /** Inserts approved comments on the document straight into the database, oldest first; answers their ids. */
  const insertComments = (documentId: number, rows: { user: number; parent?: number; status?: number }[]) =>
    withDatabase(backend.dataDir, async (db) => {
      const ids: number[] = [];
      for (let at = 0; at < rows.length; at += 200) {
        const inserted = await db
          .insertInto('comment')
          .values(
            rows.slice(at, at + 200).map((row, i) => ({
              parent_id: row.parent ?? 0,
              content: `第 ${at + i + 1} 条评论`,
              document_id: documentId,
              type: 0,
              status: row.status ?? 1,
              user_id: row.user,
              ip: '127.0.0.1',
              created_at: '2026-01-01 08:00:00',
              updated_at: '2026-01-01 08:00:00',
            })),
          )
          .returning('id')
          .execute();
        ids.push(...inserted.map((r) => Number(r.id)));
      }
      return ids;
    });
  const thread = (id: number, token?: string) =>
    api(backend.url, 'GET', '/api/v1/comment/thread', { token, query: { id } });

  it('finds a comment older than the 1,000 newest the page lists: its thread, approved replies, oldest first', async () => {
    const doc = await insertDocument(backend.dataDir, { userId: 1, title: '评论很多的文档' });
    const [top = 0] = await insertComments(doc.id, [{ user: alice.user.id }]);
    const [reply = 0, pending = 0, own = 0] = await insertComments(doc.id, [
      { user: bob.user.id, parent: top },
      { user: bob.user.id, parent: top, status: 0 },
      { user: alice.user.id, parent: top, status: 2 },
    ]);
    await insertComments(
      doc.id,
      Array.from({ length: 1000 }, () => ({ user: bob.user.id })),
    );
    const listed = await api(backend.url, 'GET', '/api/v1/comment/list', {
      query: { type: 0, document_id: doc.id, status: 1, order: 'id desc' },
    });
    expect(listed.body.comment).toHaveLength(1000);
    expect(listed.body.comment.some((c: { id: number }) => c.id === top || c.id === reply)).toBe(false);

    for (const asked of [top, reply]) {
      const res = await thread(asked);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        total: 2,
        comment: [
          { id: top, content: '第 1 条评论', user: { username: alice.username } },
          { id: reply, parent_id: top, user: { username: bob.username } },
        ],
      });
      expect(res.body.comment[0].ip).toBeUndefined();
    }
    // Its author finds their own comment refused by the review (a message says so), in its thread; nobody else does.
    expect((await thread(own, alice.token)).body.comment.map((c: { id: number }) => c.id)).toEqual([top, reply, own]);
    // One the caller may not see is as one gone: nothing, with no error status (decision 099).
    for (const res of [await thread(own, bob.token), await thread(pending)]) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
    }
  });

  it('answers nothing for a comment gone or on a document strangers may not see, and 400 without an id', async () => {
    const hidden = await insertDocument(backend.dataDir, { userId: 1, title: '已禁用的文档', status: 4 });
    const [onHidden = 0] = await insertComments(hidden.id, [{ user: alice.user.id }]);
    for (const res of [await thread(onHidden), await thread(99_999_999)]) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
    }
    const none = await api(backend.url, 'GET', '/api/v1/comment/thread');
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('请指定评论（参数 id）');
  });
});

describe('a site open to members only (decision 097)', () => {
  it('lists to visitors who commented and when, not what; members read the comments', async () => {
    const article = await admin('POST', '/api/v1/article', {
      body: { title: '会员讨论', content: '<p>欢迎讨论。</p>' },
    });
    const on = { type: 1, document_id: article.body.id as number };
    const res = await api(backend.url, 'POST', '/api/v1/comment', {
      token: alice.token,
      body: { ...on, content: '只有会员才能读到的评论' },
    });
    expect(res.status, res.text).toBe(200);
    expect((await admin('POST', '/api/v1/comment/check', { body: { id: [res.body.id], status: 1 } })).status).toBe(200);
    const list = (token?: string) => api(backend.url, 'GET', '/api/v1/comment/list', { token, query: on });
    await backend.setConfig({ 'security.login_required': 'true' });
    try {
      const visitor = await list();
      expect(visitor.status).toBe(200);
      expect(visitor.body.comment).toHaveLength(1);
      expect(visitor.body.comment[0]).toMatchObject({ id: res.body.id, user: { username: alice.username } });
      expect(visitor.body.comment[0].content).toBeUndefined();
      expect((await list(bob.token)).body.comment[0].content).toBe('只有会员才能读到的评论');
      // A link's thread (decision 108) as the list.
      const thread = (token?: string) =>
        api(backend.url, 'GET', '/api/v1/comment/thread', { token, query: { id: res.body.id } });
      expect((await thread()).body.comment).toMatchObject([{ id: res.body.id, user: { username: alice.username } }]);
      expect((await thread()).body.comment[0].content).toBeFalsy();
      expect((await thread(bob.token)).body.comment[0].content).toBe('只有会员才能读到的评论');
    } finally {
      await backend.setConfig({ 'security.login_required': 'false' });
    }
  });
});

describe('the titles a list gives with with_document_title', () => {
  it('names to strangers only what they may see: not an article moved to the recycle bin since', async () => {
    const article = await admin('POST', '/api/v1/article', {
      body: { title: '后来删除的公告', content: '<p>公告。</p>' },
    });
    const on = { type: 1, document_id: article.body.id as number };
    const res = await api(backend.url, 'POST', '/api/v1/comment', {
      token: alice.token,
      body: { ...on, content: '收到' },
    });
    expect(res.status, res.text).toBe(200);
    expect((await admin('POST', '/api/v1/comment/check', { body: { id: [res.body.id], status: 1 } })).status).toBe(200);
    const listed = async (token?: string) =>
      (
        await api(backend.url, 'GET', '/api/v1/comment/list', {
          token,
          query: { user_id: alice.user.id, with_document_title: true, size: 100 },
        })
      ).body.comment.find((c: { id: number }) => c.id === res.body.id);
    expect(await listed()).toMatchObject({ document_title: '后来删除的公告' });
    expect((await admin('DELETE', '/api/v1/article', { query: { id: on.document_id } })).status).toBe(200);
    const stranger = await listed();
    expect(stranger).toMatchObject({ id: res.body.id, content: '收到' });
    expect(stranger.document_title).toBeUndefined();
    expect(stranger.document_uuid).toBeUndefined();
    expect((await listed(bob.token)).document_title).toBeUndefined();
    const forAdmin = await admin('GET', '/api/v1/comment/list', {
      query: { user_id: alice.user.id, with_document_title: true, size: 100 },
    });
    expect(forAdmin.body.comment.find((c: { id: number }) => c.id === res.body.id)).toMatchObject({
      document_title: '后来删除的公告',
    });
  });
});

describe('the comments on a document hidden since', () => {
  it('are listed to its owner and the admins, not to strangers (decision 096)', async () => {
    const owner = await registerMember(backend.url);
    const doc = await insertDocument(backend.dataDir, { userId: owner.user.id, title: '后来禁用的资料' });
    const res = await api(backend.url, 'POST', '/api/v1/comment', {
      token: alice.token,
      body: { type: 0, document_id: doc.id, content: '禁用之前的评论' },
    });
    expect(res.status, res.text).toBe(200);
    expect((await admin('POST', '/api/v1/comment/check', { body: { id: [res.body.id], status: 1 } })).status).toBe(200);
    const list = (token?: string, type?: number) =>
      api(backend.url, 'GET', '/api/v1/comment/list', {
        token,
        query: { document_id: doc.id, ...(type === undefined ? {} : { type }) },
      });
    expect((await list(undefined, 0)).body.comment).toHaveLength(1);
    await withDatabase(backend.dataDir, (db) =>
      db.updateTable('document').set({ status: 4 }).where('id', '=', doc.id).execute(),
    );
    for (const token of [undefined, bob.token]) {
      const stranger = await list(token, 0);
      expect(stranger.status).toBe(200);
      expect(stranger.body).toEqual({});
      expect(JSON.stringify((await list(token)).body)).not.toContain('禁用之前的评论');
    }
    expect((await list(owner.token, 0)).body.comment).toMatchObject([{ id: res.body.id, content: '禁用之前的评论' }]);
    expect((await admin('GET', '/api/v1/comment/list', { query: { type: 0, document_id: doc.id } })).body.total).toBe(
      1,
    );
  });
});
