import { beforeAll, describe, expect, it } from 'vitest';
import { api, registerMember, useBackend, withDatabase, type Member } from '../helpers/backend';
import { withClockOff } from '../helpers/clock';
import { databaseNow } from '../../backend/db/dialect';
import { insertDocument } from '../helpers/document-fixtures';
import { pngHead } from '../helpers/images';

// ReportAPI (articles), FeedbackAPI (ours) and the two uploads that go with this part:
// article images and feedback screenshots.

const backend = useBackend();
const { admin } = backend;

let articleId = 0;
let reporter: Member;

/** A small PNG, distinct per `seed` so that each upload is a new file. */
async function upload(kind: string, file: Buffer, opts: { token?: string; ip?: string; name?: string } = {}) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), opts.name ?? 'screen.png');
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `bearer ${opts.token}`;
  if (opts.ip) headers['x-forwarded-for'] = opts.ip;
  const res = await fetch(`${backend.url}/api/v1/upload/${kind}`, { method: 'POST', body: form, headers });
  return { status: res.status, body: await res.json() };
}

const MINUTE_MS = 60_000;

/** Moves the rows of `table` from `ip` to `minutes` before the database's now. */
const sentAgo = (table: 'feedback' | 'attachment', ip: string, minutes: number) =>
  withDatabase(backend.dataDir, async (db) => {
    const at = new Date((await databaseNow(db)).getTime() - minutes * MINUTE_MS).toISOString();
    await db.updateTable(table).set({ created_at: at }).where('ip', '=', ip).execute();
  });

/** The time `work` stamped the newest row of `table` from `ip` with lies within the database's clock's reads around it. */
async function expectStampedByTheDatabase(table: 'feedback' | 'attachment', ip: string, work: () => Promise<unknown>) {
  const before = await withDatabase(backend.dataDir, (db) => databaseNow(db));
  await work();
  const after = await withDatabase(backend.dataDir, (db) => databaseNow(db));
  const row = await withDatabase(backend.dataDir, (db) =>
    db.selectFrom(table).select('created_at').where('ip', '=', ip).orderBy('id', 'desc').executeTakeFirstOrThrow(),
  );
  expect(Date.parse(row.created_at)).toBeGreaterThanOrEqual(before.getTime());
  expect(Date.parse(row.created_at)).toBeLessThanOrEqual(after.getTime());
}

const sendFeedback = (body: Record<string, unknown>, opts: { token?: string; ip?: string } = {}) =>
  api(backend.url, 'POST', '/api/v1/feedback', {
    body,
    token: opts.token,
    headers: { 'x-forwarded-for': opts.ip ?? '10.1.0.1' },
  });

beforeAll(async () => {
  articleId = (await admin('POST', '/api/v1/article', { body: { title: '被举报的文章', content: '<p>内容。</p>' } }))
    .body.id;
  reporter = await registerMember(backend.url);
});

describe('ReportAPI', () => {
  const report = (member: Member, body: Record<string, unknown>) =>
    api(backend.url, 'POST', '/api/v1/report', {
      token: member.token,
      body: { type: 1, document_id: articleId, reason: 1, ...body },
    });

  it('records a report with the target’s title, the reporter and their words', async () => {
    const res = await report(reporter, { reason: 2, remark: '<b>含有不良内容</b>', document_title: '客户端随便写的' });
    expect(res.status).toBe(200);
    const list = await admin('GET', '/api/v1/report/list');
    expect(list.body).toMatchObject({
      total: 1,
      report: [
        {
          document_id: articleId,
          type: 1,
          user_id: reporter.user.id,
          username: reporter.username,
          reason: 2,
          document_title: '被举报的文章',
          description: '<b>含有不良内容</b>',
          document_uuid: expect.stringMatching(/^[0-9a-f]{16}$/),
        },
      ],
    });
    expect(list.body.report[0].status).toBeUndefined();
    expect(list.body.report[0].remark).toBeUndefined();
  });

  it("takes a copyright report (侵权（版权）) only with the rights holder's words", async () => {
    const holder = await registerMember(backend.url);
    const copied = (
      await admin('POST', '/api/v1/article', { body: { title: '转载的文章', content: '<p>未经授权转载。</p>' } })
    ).body.id;
    const report = (member: Member, body: Record<string, unknown>) =>
      api(backend.url, 'POST', '/api/v1/report', {
        token: member.token,
        body: { type: 1, document_id: copied, ...body },
      });
    const bare = await report(holder, { reason: 7, remark: '  ' });
    expect(bare.status).toBe(400);
    expect(bare.body.message).toBe('侵权举报请在补充说明中写明权利人、权属证明和联系方式');
    const told = await report(holder, {
      reason: 7,
      remark: '本人为《转载的文章》著作权人，作品登记号 2024-A-00123，联系电话 13800000000',
    });
    expect(told.status, told.text).toBe(200);
    const list = await admin('GET', '/api/v1/report/list', { query: { user_id: holder.user.id } });
    expect(list.body.report.find((r: { user_id: number }) => r.user_id === holder.user.id)).toMatchObject({
      reason: 7,
    });
    expect((await report(holder, { reason: 8, remark: 'x' })).body.message).toBe('请选择举报原因');
  });

  it('allows one open report per reader and item', async () => {
    const again = await report(reporter, { reason: 3 });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('您已举报过当前文章，请等待处理');
    expect((await report(await registerMember(backend.url), { reason: 3 })).status).toBe(200);
  });

  it('lets the admin mark a report handled with a note, after which the reader may report again', async () => {
    const open = await admin('GET', '/api/v1/report/list', { query: { status: false, type: 1 } });
    const mine = open.body.report.find((r: { user_id: number }) => r.user_id === reporter.user.id);
    expect(
      (await admin('PUT', '/api/v1/report', { body: { id: mine.id, status: true, remark: '已核实并处理' } })).status,
    ).toBe(200);
    const handled = await admin('GET', '/api/v1/report/list', { query: { status: true } });
    expect(handled.body).toMatchObject({
      total: 1,
      report: [{ id: mine.id, status: true, remark: '已核实并处理', description: '<b>含有不良内容</b>' }],
    });
    expect((await report(reporter, { reason: 1 })).status).toBe(200);
    expect((await admin('GET', '/api/v1/report/list', { query: { wd: '被举报' } })).body.total).toBe(3);
  });

  it('takes reports on documents too (MOREDOC’s only kind: `type` omitted)', async () => {
    const doc = await insertDocument(backend.dataDir, { userId: 1, title: '被举报的文档' });
    const member = await registerMember(backend.url);
    const res = await api(backend.url, 'POST', '/api/v1/report', {
      token: member.token,
      body: { document_id: doc.id, reason: 5, document_title: '客户端的标题' },
    });
    expect(res.status).toBe(200);
    const list = await admin('GET', '/api/v1/report/list', { query: { type: 0 } });
    expect(list.body.report[0]).toMatchObject({
      document_id: doc.id,
      document_title: '被举报的文档',
      document_uuid: doc.uuid,
      reason: 5,
    });
    expect(list.body.report[0].type).toBeUndefined();
    const again = await api(backend.url, 'POST', '/api/v1/report', {
      token: member.token,
      body: { document_id: doc.id, reason: 1 },
    });
    expect(again.body.message).toBe('您已举报过当前文档，请等待处理');
    const hidden = await insertDocument(backend.dataDir, { userId: 1, status: 7 });
    expect(
      (
        await api(backend.url, 'POST', '/api/v1/report', {
          token: member.token,
          body: { document_id: hidden.id, reason: 1 },
        })
      ).body.message,
    ).toBe('文档不存在');
  });

  it('records a report on another reader’s approved comment, titled by its text, and not on one in review', async () => {
    await backend.setConfig({ 'security.comment_interval': '0' });
    const author = await registerMember(backend.url);
    const comment = async (content: string) =>
      (
        await api(backend.url, 'POST', '/api/v1/comment', {
          token: author.token,
          body: { type: 1, document_id: articleId, content },
        })
      ).body.id as number;
    const approved = await comment('加微信领取免费资料');
    await admin('POST', '/api/v1/comment/check', { body: { id: [approved], status: 1 } });
    const pending = await comment('还在审核中的评论');
    const member = await registerMember(backend.url);
    const res = await report(member, { type: 2, document_id: approved, reason: 1, remark: '广告' });
    expect(res.status).toBe(200);
    const list = await admin('GET', '/api/v1/report/list', { query: { type: 2 } });
    expect(list.body.report).toEqual([
      expect.objectContaining({
        type: 2,
        document_id: approved,
        document_title: '加微信领取免费资料',
        description: '广告',
        username: member.user.username,
      }),
    ]);
    const again = await report(member, { type: 2, document_id: approved, reason: 1 });
    expect([again.status, again.body.message]).toEqual([409, '您已举报过当前评论，请等待处理']);
    const hidden = await report(member, { type: 2, document_id: pending, reason: 1 });
    expect([hidden.status, hidden.body.message]).toEqual([404, '评论不存在']);
  });

  it('refuses a report of one’s own comment, which the API takes though the page offers no 举报 on it', async () => {
    await backend.setConfig({ 'security.comment_interval': '0' });
    const author = await registerMember(backend.url);
    const id = (
      await api(backend.url, 'POST', '/api/v1/comment', {
        token: author.token,
        body: { type: 1, document_id: articleId, content: '我自己的评论' },
      })
    ).body.id as number;
    await admin('POST', '/api/v1/comment/check', { body: { id: [id], status: 1 } });
    const own = await report(author, { type: 2, document_id: id, reason: 1, remark: '试试' });
    expect([own.status, own.body.message]).toEqual([403, '不能举报自己的评论']);
    const list = await admin('GET', '/api/v1/report/list', { query: { type: 2 } });
    expect((list.body.report ?? []).filter((r: { document_id: number }) => r.document_id === id)).toEqual([]);
  });

  it.each([
    [{ reason: 0 }, 400, '请选择举报原因'],
    [{ reason: 8 }, 400, '请选择举报原因'],
    [{ document_id: 0 }, 400, '文章参数不正确'],
    [{ document_id: 99999 }, 404, '文章不存在'],
    [{ remark: '长'.repeat(501) }, 400, '举报说明长度不能超过 500 个字符'],
    [{ type: 5 }, 400, '举报类型必须是 0（文档）、1（文章）或 2（评论）'],
  ])('refuses %j with %i', async (body, status, message) => {
    const res = await report(await registerMember(backend.url), body);
    expect(res.status).toBe(status);
    expect(res.body.message).toBe(message);
  });

  it('needs a login to report and the permission to list, handle and delete', async () => {
    expect(
      (await api(backend.url, 'POST', '/api/v1/report', { body: { type: 1, document_id: articleId, reason: 1 } }))
        .status,
    ).toBe(401);
    expect((await api(backend.url, 'GET', '/api/v1/report/list', { token: reporter.token })).status).toBe(403);
    const list = await admin('GET', '/api/v1/report/list');
    expect(
      (await admin('DELETE', '/api/v1/report', { query: { id: list.body.report.map((r: { id: number }) => r.id) } }))
        .status,
    ).toBe(200);
    expect((await admin('GET', '/api/v1/report/list')).body).toEqual({});
    expect((await admin('PUT', '/api/v1/report', { body: { id: 99999, status: true } })).status).toBe(404);
  });
});

describe('FeedbackAPI', () => {
  it('takes a visitor’s feedback and shows it to admins', async () => {
    const res = await sendFeedback(
      { content: '搜索结果能否按时间排序？', contact: 'reader@example.com', page: '/article/about' },
      { ip: '10.1.0.2' },
    );
    expect(res.status).toBe(200);
    const list = await admin('GET', '/api/v1/feedback/list');
    expect(list.body).toMatchObject({
      total: 1,
      feedback: [
        { content: '搜索结果能否按时间排序？', contact: 'reader@example.com', page: '/article/about', ip: '10.1.0.2' },
      ],
    });
    expect(list.body.feedback[0].user_id).toBeUndefined();
    expect(list.body.feedback[0].status).toBeUndefined();
  });

  it('names the member who wrote', async () => {
    const member = await registerMember(backend.url);
    expect((await sendFeedback({ content: '会员的建议' }, { token: member.token, ip: '10.1.0.3' })).status).toBe(200);
    const list = await admin('GET', '/api/v1/feedback/list', { query: { wd: '会员的建议' } });
    expect(list.body.feedback[0]).toMatchObject({ user_id: member.user.id, username: member.username });
  });

  it.each([
    [{ content: ' ' }, 400, '反馈内容不能为空'],
    [{ content: '多'.repeat(2001) }, 400, '反馈内容长度不能超过 2000 个字符'],
    [{ content: 'x', contact: '联'.repeat(101) }, 400, '联系方式长度不能超过 100 个字符'],
    [{ content: 'x', image: 'https://evil.example/x.png' }, 400, '截图必须是上传后的图片地址'],
    [{ content: 'x', image: '/uploads/../../etc/passwd' }, 400, '截图必须是上传后的图片地址'],
  ])('refuses %j with %i', async (body, status, message) => {
    const res = await sendFeedback(body, { ip: '10.1.0.4' });
    expect(res.status).toBe(status);
    expect(res.body.message).toBe(message);
  });

  it('keeps script as text and drops a page that is no site path', async () => {
    await sendFeedback({ content: '<script>window.__xss=1</script>', page: 'javascript:alert(1)' }, { ip: '10.1.0.5' });
    const list = await admin('GET', '/api/v1/feedback/list', { query: { wd: 'script' } });
    expect(list.body.feedback[0].content).toBe('<script>window.__xss=1</script>');
    expect(list.body.feedback[0].page).toBeUndefined();
  });

  it('takes at most five a hour from one address (429)', async () => {
    for (let i = 0; i < 5; i += 1)
      expect((await sendFeedback({ content: `第${i}条` }, { ip: '10.1.0.6' })).status).toBe(200);
    const sixth = await sendFeedback({ content: '第六条' }, { ip: '10.1.0.6' });
    expect(sixth.status).toBe(429);
    expect(sixth.body).toMatchObject({ code: 8, message: '提交太频繁了，每小时最多提交 5 条反馈，请稍后再试' });
    expect((await sendFeedback({ content: '换个地址' }, { ip: '10.1.0.7' })).status).toBe(200);
  });

  it('counts an IPv6 client by its /64, and keeps each full address', async () => {
    for (let i = 1; i <= 5; i += 1)
      expect((await sendFeedback({ content: `第${i}条` }, { ip: `2001:db8:6::${i}` })).status).toBe(200);
    // Another address of the same /64 is the same client; one of the next /64 is another.
    expect((await sendFeedback({ content: '第六条' }, { ip: '2001:db8:6::99' })).status).toBe(429);
    expect((await sendFeedback({ content: '隔壁' }, { ip: '2001:db8:6:1::1' })).status).toBe(200);
    const stored = await withDatabase(backend.dataDir, (db) =>
      db.selectFrom('feedback').select('ip').where('ip', 'like', '2001:db8:6:%').orderBy('id').execute(),
    );
    expect(stored.map((row) => row.ip)).toEqual([
      '2001:db8:6::1',
      '2001:db8:6::2',
      '2001:db8:6::3',
      '2001:db8:6::4',
      '2001:db8:6::5',
      '2001:db8:6:1::1',
    ]);
  });

  it('still counts an address a proxy spells unlike RFC 5952 (capitals, leading zeros) as itself', async () => {
    const spelled = '2001:0DB8:0:6B::1';
    for (let i = 0; i < 5; i += 1)
      expect((await sendFeedback({ content: `第${i}条` }, { ip: spelled })).status).toBe(200);
    expect((await sendFeedback({ content: '第六条' }, { ip: spelled })).status).toBe(429);
  });

  it('counts an IPv4-mapped address as its IPv4 address', async () => {
    for (let i = 0; i < 5; i += 1)
      expect(
        (await sendFeedback({ content: `第${i}条` }, { ip: i % 2 ? '10.1.0.11' : '::ffff:10.1.0.11' })).status,
      ).toBe(200);
    expect((await sendFeedback({ content: '第六条' }, { ip: '10.1.0.11' })).status).toBe(429);
    expect((await sendFeedback({ content: '第六条' }, { ip: '::ffff:10.1.0.11' })).status).toBe(429);
  });

  it("counts the hour by the database's clock, whatever the machine's says", async () => {
    for (let i = 0; i < 5; i += 1)
      expect((await sendFeedback({ content: `第${i}条` }, { ip: '10.1.0.9' })).status).toBe(200);
    // Sent 55 minutes ago: within the hour, for a machine 10 minutes ahead too.
    await sentAgo('feedback', '10.1.0.9', 55);
    const ahead = await withClockOff(10 * MINUTE_MS, () => sendFeedback({ content: '第六条' }, { ip: '10.1.0.9' }));
    expect(ahead.status).toBe(429);
    // One through a machine 10 minutes behind is stamped by the database's clock.
    await expectStampedByTheDatabase('feedback', '10.1.0.10', async () => {
      const res = await withClockOff(-10 * MINUTE_MS, () => sendFeedback({ content: '慢十分钟' }, { ip: '10.1.0.10' }));
      expect(res.status, res.text).toBe(200);
    });
  });

  it('asks visitors, not members, for the captcha when the security config does', async () => {
    await backend.setConfig({ 'security.enable_captcha_feedback': 'true' });
    expect((await sendFeedback({ content: '游客' }, { ip: '10.1.0.8' })).body.message).toBe('请输入验证码');
    const captcha = await api(backend.url, 'GET', '/api/v1/user/captcha', { query: { type: 'feedback' } });
    expect(captcha.body).toMatchObject({ enable: true, id: expect.any(String) });
    expect(
      (await sendFeedback({ content: '游客', captcha_id: captcha.body.id, captcha: 'no' }, { ip: '10.1.0.8' })).body
        .message,
    ).toBe('验证码错误');
    expect((await sendFeedback({ content: '会员' }, { token: reporter.token, ip: '10.1.0.8' })).status).toBe(200);
    await backend.setConfig({ 'security.enable_captcha_feedback': 'false' });
  });

  it('lets admins mark feedback handled with a reply, filter by status and delete', async () => {
    const [first] = (await admin('GET', '/api/v1/feedback/list', { query: { wd: '按时间排序' } })).body.feedback;
    const res = await admin('PUT', '/api/v1/feedback', {
      body: { id: first.id, status: 1, reply: '已加入排期，下个版本上线。' },
    });
    expect(res.status).toBe(200);
    const handled = await admin('GET', '/api/v1/feedback/list', { query: { status: 1 } });
    expect(handled.body).toMatchObject({
      total: 1,
      feedback: [{ id: first.id, status: 1, reply: '已加入排期，下个版本上线。', handled_at: expect.any(String) }],
    });
    expect((await admin('PUT', '/api/v1/feedback', { body: { id: first.id, status: 4 } })).status).toBe(400);
    expect((await admin('DELETE', '/api/v1/feedback', { query: { id: first.id } })).status).toBe(200);
    expect((await admin('GET', '/api/v1/feedback/list', { query: { status: 1 } })).body).toEqual({});
    expect((await api(backend.url, 'GET', '/api/v1/feedback/list', { token: reporter.token })).status).toBe(403);
  });
});

describe('uploads of this part', () => {
  it('takes a visitor’s feedback screenshot (type 8) that the feedback may then name', async () => {
    const res = await upload('feedback', pngHead(1), { ip: '10.2.0.1' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ type: 8, ext: '.png', ip: '10.2.0.1' });
    expect(res.body.data.user_id).toBeUndefined();
    expect((await sendFeedback({ content: '附截图', image: res.body.data.path }, { ip: '10.2.0.1' })).status).toBe(200);
    expect((await upload('feedback', Buffer.from('not an image'), { ip: '10.2.0.1' })).status).toBe(400);
  });

  it('limits a visitor’s screenshots to ten an hour per address', async () => {
    for (let i = 0; i < 10; i += 1)
      expect((await upload('feedback', pngHead(100 + i), { ip: '10.2.0.2' })).status).toBe(200);
    const eleventh = await upload('feedback', pngHead(200), { ip: '10.2.0.2' });
    expect(eleventh.status).toBe(429);
    expect(eleventh.body.message).toBe('上传太频繁了，每小时最多上传 10 张图片，请稍后再试');
  });

  it('limits an IPv6 visitor’s screenshots by the /64, not by the address', async () => {
    for (let i = 0; i < 10; i += 1)
      expect((await upload('feedback', pngHead(600 + i), { ip: `2001:db8:7::${i + 1}` })).status).toBe(200);
    expect((await upload('feedback', pngHead(620), { ip: '2001:db8:7::abcd' })).status).toBe(429);
    const next = await upload('feedback', pngHead(621), { ip: '2001:db8:7:1::1' });
    expect(next.status).toBe(200);
    expect(next.body.data.ip).toBe('2001:db8:7:1::1');
  });

  it("counts a visitor's hour by the database's clock, whatever the machine's says", async () => {
    for (let i = 0; i < 10; i += 1)
      expect((await upload('feedback', pngHead(400 + i), { ip: '10.2.0.3' })).status).toBe(200);
    await sentAgo('attachment', '10.2.0.3', 55);
    const ahead = await withClockOff(10 * MINUTE_MS, () => upload('feedback', pngHead(420), { ip: '10.2.0.3' }));
    expect(ahead.status).toBe(429);
    await expectStampedByTheDatabase('attachment', '10.2.0.4', async () => {
      const res = await withClockOff(-10 * MINUTE_MS, () => upload('feedback', pngHead(421), { ip: '10.2.0.4' }));
      expect(res.status).toBe(200);
    });
  });

  it('takes article images from admins and from members who may write, nobody else', async () => {
    const adminUpload = await upload('article', pngHead(300), { token: backend.adminToken });
    expect(adminUpload.body.data).toMatchObject({ type: 3, user_id: 1 });
    const member = await registerMember(backend.url);
    expect((await upload('article', pngHead(301), { token: member.token })).status).toBe(200);
    const group = await admin('POST', '/api/v1/group', { body: { title: '只读会员', enable_article: false } });
    await admin('PUT', '/api/v1/user', { body: { id: member.user.id, group_id: [group.body.id] } });
    const refused = await upload('article', pngHead(302), { token: member.token });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('您没有权限发布文章');
    expect((await upload('article', pngHead(303))).status).toBe(401);
  });
});
