import { describe, expect, it } from 'vitest';
import type { ConverterSettings, DocumentConverter } from '../../backend/platform/convert/converter';
import { api, login, registerMember, startBackend, useBackend, type Member } from '../helpers/backend';
import { createDocument, uploader, waitForStatus } from '../helpers/document-api';
import { insertDocument } from '../helpers/document-fixtures';
import { brokenPdf } from '../helpers/documents';
import { recordedConversions } from '../helpers/recorded-conversions';

// MessageAPI (ours, docs/api.md §15): the members' 消息 centre, written by the backend when a
// document is approved, rejected or fails to convert, and when a comment is answered.

const backend = useBackend({ env: { CONFIG_SECURITY_COMMENT_INTERVAL: '0' } });

let seq = 0;
const textFile = (title: string) => Buffer.from(`${title}${++seq}\n图书馆里的读者安静地读书。\n`, 'utf8');

const messages = async (member: Member, query: Record<string, string | number | boolean> = {}) => {
  const res = await api(backend.url, 'GET', '/api/v1/message/list', { token: member.token, query });
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const unread = async (member: Member) =>
  (await api(backend.url, 'GET', '/api/v1/message/unread', { token: member.token })).body.count ?? 0;
/** How many messages told the member of a reply (type 4), beside those about their own comments' reviews. */
const answers = async (member: Member) =>
  ((await messages(member, { size: 100 })).message ?? []).filter((m: { type: number }) => m.type === 4).length;

describe('messages about documents', () => {
  it('tells the uploader of an approval and a rejection; the centre counts, marks and deletes them', async () => {
    const member = await uploader(backend.url, backend.adminToken, { review: true });
    // Converted while it waited for the review (the reviewer reads it): public once approved.
    const approved = await insertDocument(backend.dataDir, { userId: member.user.id, title: '读书笔记', status: 6 });
    const rejected = await createDocument(backend.url, member.token, textFile('拒绝'), '广告传单.txt');
    expect(await unread(member)).toBe(0);
    await backend.admin('PUT', '/api/v1/document/check', { body: { id: [approved.id], status: 2 } });
    await backend.admin('PUT', '/api/v1/document/check', { body: { id: [rejected.id], status: 7 } });
    // Reviewing again what is already decided tells nobody twice.
    await backend.admin('PUT', '/api/v1/document/check', { body: { id: [rejected.id], status: 7 } });

    const list = await messages(member);
    expect(list).toMatchObject({ total: 2, unread: 2 });
    expect(list.message).toEqual([
      expect.objectContaining({
        type: 2,
        title: '文档审核未通过',
        content: '您上传的文档《广告传单》未通过审核，可在“我的文档”中查看。',
        target_id: rejected.id,
      }),
      expect.objectContaining({
        type: 1,
        title: '文档审核通过',
        content: '您上传的文档《读书笔记》已通过审核，现在所有人都可以阅读。',
        target_id: approved.id,
      }),
    ]);
    expect(list.message[0].read_at).toBeUndefined();

    expect(
      (
        await api(backend.url, 'PUT', '/api/v1/message/read', {
          token: member.token,
          body: { id: [list.message[1].id] },
        })
      ).status,
    ).toBe(200);
    expect(await unread(member)).toBe(1);
    expect((await messages(member, { unread: true })).message.map((m: { id: number }) => m.id)).toEqual([
      list.message[0].id,
    ]);
    await api(backend.url, 'PUT', '/api/v1/message/read', { token: member.token, body: {} });
    expect(await unread(member)).toBe(0);
    expect((await messages(member)).message[0].read_at).toEqual(expect.any(String));

    await api(backend.url, 'DELETE', '/api/v1/message', { token: member.token, query: { id: [list.message[0].id] } });
    expect((await messages(member)).total).toBe(1);
  });

  it("tells the uploader the reviewer's reason for a rejection, and refuses a reason over 255 characters", async () => {
    const member = await uploader(backend.url, backend.adminToken, { review: true });
    const rejected = await createDocument(backend.url, member.token, textFile('原因'), '复印的教材.txt');
    const tooLong = await backend.admin('PUT', '/api/v1/document/check', {
      body: { id: [rejected.id], status: 7, reason: '侵'.repeat(256) },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toContain('拒绝原因');
    expect(await unread(member)).toBe(0);

    const res = await backend.admin('PUT', '/api/v1/document/check', {
      body: { id: [rejected.id], status: 7, reason: '  整本教材的扫描件，涉嫌侵权。 ' },
    });
    expect(res.status, res.text).toBe(200);
    expect((await messages(member)).message).toEqual([
      expect.objectContaining({
        type: 2,
        content: '您上传的文档《复印的教材》未通过审核，可在“我的文档”中查看。原因：整本教材的扫描件，涉嫌侵权。',
      }),
    ]);
  });

  it('tells the uploader of an approval before the conversion that it is public once converted', async () => {
    const member = await uploader(backend.url, backend.adminToken, { review: true });
    const waiting = await insertDocument(backend.dataDir, {
      userId: member.user.id,
      title: '尚未转换',
      status: 6,
      pages: 0,
    });
    await backend.admin('PUT', '/api/v1/document/check', { body: { id: [waiting.id], status: 2 } });
    const approvals = (await messages(member)).message.filter((m: { type: number }) => m.type === 1);
    expect(approvals).toEqual([
      expect.objectContaining({
        content: '您上传的文档《尚未转换》已通过审核，转换完成后所有人都可以阅读。',
        target_id: waiting.id,
      }),
    ]);
  });

  it('tells the uploader why a document failed to convert', async () => {
    const member = await uploader(backend.url, backend.adminToken);
    const broken = await createDocument(backend.url, member.token, brokenPdf(`损坏${++seq}`), '损坏的文件.pdf');
    const failed = await waitForStatus(backend.url, member.token, broken.id, [3]);
    const [message] = (await messages(member)).message;
    expect(message).toMatchObject({ type: 3, title: '文档转换失败', target_id: broken.id });
    expect(message.content).toBe(`您上传的文档《损坏的文件》转换失败：${failed.convert_error}`);
  });

  it('tells the uploader that an approval converts a document that failed in review again, and that it failed again', async () => {
    const member = await uploader(backend.url, backend.adminToken, { review: true });
    const broken = await createDocument(backend.url, member.token, brokenPdf(`审核中损坏${++seq}`), '审核中损坏.pdf');
    const failures = async () => ((await messages(member)).message ?? []).filter((m: { type: number }) => m.type === 3);
    // The conversion in review fails: the document keeps its status, the uploader is told.
    for (let tries = 0; (await failures()).length === 0; tries++) {
      expect(tries, 'the conversion in review never failed').toBeLessThan(600);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const inReview = (
      await api(backend.url, 'GET', '/api/v1/document', { token: member.token, query: { id: broken.id } })
    ).body;
    expect(inReview).toMatchObject({ status: 6 });
    const reason = inReview.convert_error;
    expect(reason).toEqual(expect.any(String));

    await backend.admin('PUT', '/api/v1/document/check', { body: { id: [broken.id], status: 2 } });
    await waitForStatus(backend.url, member.token, broken.id, [3]);
    const told = ((await messages(member)).message ?? []).map((m: { content: string }) => m.content);
    expect(told).toEqual([
      `您上传的文档《审核中损坏》再次转换失败：${reason}`,
      '您上传的文档《审核中损坏》已通过审核，此前转换失败，现将重新转换，转换成功后所有人都可以阅读。',
      `您上传的文档《审核中损坏》转换失败：${reason}`,
    ]);
  });

  it('still says 再次转换失败 when the site restarted while the approved document converted again', async () => {
    const failures = async (url: string, member: Member) =>
      ((await api(url, 'GET', '/api/v1/message/list', { token: member.token })).body.message ?? []).filter(
        (m: { type: number }) => m.type === 3,
      );
    const first = await startBackend();
    const { dataDir } = first;
    let reason: string;
    let member: Member;
    let broken: { id: number };
    try {
      member = await uploader(first.url, await login(first.url, 'admin', first.adminPassword), { review: true });
      broken = await createDocument(first.url, member.token, brokenPdf('重启时重新转换'), '重启.pdf');
      for (let tries = 0; (await failures(first.url, member)).length === 0; tries++) {
        expect(tries, 'the conversion in review never failed').toBeLessThan(600);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      reason = (await api(first.url, 'GET', '/api/v1/document', { token: member.token, query: { id: broken.id } })).body
        .convert_error;
      expect(reason).toEqual(expect.any(String));
    } finally {
      await first.close({ keepData: true });
    }

    // The approval's job starts converting, and the site stops (a deployment) before it ends.
    let reached!: () => void;
    const converting = new Promise<void>((resolve) => (reached = resolve));
    const held = (settings: ConverterSettings): DocumentConverter => ({
      ...recordedConversions(settings),
      convertDocument: (request) => {
        reached();
        return new Promise((_, reject) =>
          request.signal?.addEventListener('abort', () => reject(request.signal?.reason as Error)),
        );
      },
    });
    const second = await startBackend({ dataDir, build: { converter: held } });
    try {
      const adminToken = await login(second.url, 'admin', second.adminPassword);
      await api(second.url, 'PUT', '/api/v1/document/check', {
        token: adminToken,
        body: { id: [broken.id], status: 2 },
      });
      await converting;
    } finally {
      await second.close({ keepData: true });
    }

    // The next start runs the job again; the file fails as before.
    const third = await startBackend({ dataDir });
    try {
      await waitForStatus(third.url, member.token, broken.id, [3]);
      expect((await failures(third.url, member)).map((m: { content: string }) => m.content)).toEqual([
        `您上传的文档《重启》再次转换失败：${reason}`,
        `您上传的文档《重启》转换失败：${reason}`,
      ]);
    } finally {
      await third.close();
    }
  }, 60_000);

  it("keeps each member's messages their own, and asks for a login", async () => {
    const member = await uploader(backend.url, backend.adminToken, { review: true });
    const doc = await createDocument(backend.url, member.token, textFile('私信'), '私人文档.txt');
    await backend.admin('PUT', '/api/v1/document/check', { body: { id: [doc.id], status: 7 } });
    const [mine] = (await messages(member)).message;
    const other = await registerMember(backend.url);
    expect((await messages(other)).total).toBeUndefined();
    await api(backend.url, 'PUT', '/api/v1/message/read', { token: other.token, body: { id: [mine.id] } });
    await api(backend.url, 'DELETE', '/api/v1/message', { token: other.token, query: { id: [mine.id] } });
    expect(await messages(member)).toMatchObject({ total: 1, unread: 1 });
    expect((await api(backend.url, 'GET', '/api/v1/message/unread')).status).toBe(401);
  });
});

describe('messages about comments', () => {
  it('tells the author of a comment once a reply to it is visible, never of their own replies', async () => {
    const owner = await registerMember(backend.url);
    const doc = await insertDocument(backend.dataDir, { userId: owner.user.id, title: '城市图书馆的一天' });
    const comment = (body: object, token = backend.adminToken) =>
      api(backend.url, 'POST', '/api/v1/comment', { token, body: { type: 0, document_id: doc.id, ...body } });
    const admin = { token: backend.adminToken } as Member;
    const before = await unread(admin);

    const first = await comment({ content: '写得很好，推荐大家阅读。' });
    expect(first.body.status).toBe(1);
    const reader = await registerMember(backend.url);
    // Members' comments wait for review: the reply is not visible yet, nobody is told.
    const reply = await comment(
      { content: '同意，我也从书中学到了很多东西。', parent_id: first.body.id },
      reader.token,
    );
    expect(reply.body.status ?? 0).toBe(0);
    expect(await unread(admin)).toBe(before);
    await backend.admin('POST', '/api/v1/comment/check', { body: { id: [reply.body.id], status: 1 } });
    const [told] = (await messages(admin)).message;
    expect(told).toMatchObject({
      type: 4,
      title: '评论有了新回复',
      target_id: doc.id,
      target_key: doc.uuid,
      content: `${reader.username} 在文档《城市图书馆的一天》中回复了您：同意，我也从书中学到了很多东西。`,
    });
    expect(await unread(admin)).toBe(before + 1);

    // The admin's reply is visible at once: the reader hears of it at once.
    await comment({ content: '欢迎常来交流。', parent_id: reply.body.id });
    expect((await messages(reader)).message[0]).toMatchObject({
      type: 4,
      content: `admin 在文档《城市图书馆的一天》中回复了您：欢迎常来交流。`,
    });
    // Answering oneself tells nobody.
    await comment({ content: '补充一点：第三章最精彩。', parent_id: first.body.id });
    expect(await unread(admin)).toBe(before + 1);
  });
});

describe('messages about replies to replies', () => {
  it('tells the member a reviewed reply answers (回复 @name：), not the author of the thread', async () => {
    const owner = await registerMember(backend.url);
    const doc = await insertDocument(backend.dataDir, { userId: owner.user.id, title: '乡村小学的黑板' });
    const comment = (body: object, token: string) =>
      api(backend.url, 'POST', '/api/v1/comment', { token, body: { type: 0, document_id: doc.id, ...body } });
    const approve = (id: number) => backend.admin('POST', '/api/v1/comment/check', { body: { id: [id], status: 1 } });
    const first = await registerMember(backend.url);
    const second = await registerMember(backend.url);
    const third = await registerMember(backend.url);

    const top = await comment({ content: '这篇文章让我想起了小时候。' }, first.token);
    await approve(top.body.id);
    const reply = await comment({ content: '我也是，那时的黑板是水泥的。', parent_id: top.body.id }, second.token);
    await approve(reply.body.id);
    expect(await answers(first)).toBe(1);

    // The SPA sends a reply to a reply after 回复 @name：; it hangs under the thread's first comment.
    const answer = await comment(
      { content: `回复 @${second.username}：水泥黑板擦起来很费劲。`, parent_id: reply.body.id },
      third.token,
    );
    expect(answer.body.status ?? 0).toBe(0);
    expect(answer.body.parent_id).toBe(top.body.id);
    await approve(answer.body.id);
    expect((await messages(second)).message[0]).toMatchObject({
      type: 4,
      content: `${third.username} 在文档《乡村小学的黑板》中回复了您：水泥黑板擦起来很费劲。`,
    });
    expect(await answers(second)).toBe(1);
    expect(await answers(first)).toBe(1);

    // A name that answers nobody in the thread (or none at all) tells the thread's first author, as before.
    const stray = await comment(
      { content: `回复 @${owner.username}：谁还记得粉笔的味道？`, parent_id: top.body.id },
      third.token,
    );
    await approve(stray.body.id);
    expect(await answers(first)).toBe(2);
    expect(await answers(owner)).toBe(0);
  });
});
