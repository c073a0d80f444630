// The member's 消息 centre in Chromium against the real gateway and embedded backend: the
// backend writes a message when a document is reviewed or a comment is reviewed or answered; the header
// counts the unread ones; /member/message lists them, leads to what they are about and marks
// them read, at 1280 and 390 px.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, login, registerMember, withDatabase, type Member } from '../helpers/backend';
import { createDocument, waitForStatus } from '../helpers/document-api';
import { textPdf } from '../helpers/documents';
import { useSiteInBrowser, setTokenCookie } from './browser';
import { commentInSight, commentsInSight, commentsOffset, holdUntilReleased, settled } from './comments-in-sight';

const site = useSiteInBrowser({ env: () => ({ CONFIG_SECURITY_COMMENT_INTERVAL: '0' }) });

/** A window of `width`: a phone's height at 640 px and below. */
const resize = (page: Page, width: number) => page.setViewportSize({ width, height: width > 640 ? 900 : 844 });

/**
 * A page of its own logged in as `member`, `width` wide. A test's later rounds load their
 * screens again in it (resized), not in a context of their own: a context costs Chromium a
 * renderer's start, and its cookie is all they need of a fresh one.
 */
async function memberPage(member: Member, width = 1280): Promise<Page> {
  const visit = await site.visit();
  await resize(visit.page, width);
  await setTokenCookie(visit.context, site.url, member.token);
  return visit.page;
}

/** A member's document sent to review (a new site's members upload into review), rejected by the admin. */
async function rejectedDocument(member: Member, title: string): Promise<number> {
  const doc = await createDocument(
    site.backendUrl,
    member.token,
    Buffer.from(`${title}\n一份用来测试消息的文档。\n`),
    `${title}.txt`,
  );
  const admin = await login(site.backendUrl, 'admin', site.adminPassword);
  expect(
    (await api(site.backendUrl, 'PUT', '/api/v1/document/check', { token: admin, body: { id: [doc.id], status: 7 } }))
      .status,
  ).toBe(200);
  return doc.id;
}

/** `by` answers `author`'s approved comment on the document or article (`type` 0 or 1) `targetId`: the reply's id. */
async function answeredComment(author: Member, by: string, type: number, targetId: number): Promise<number> {
  const comment = await api(site.backendUrl, 'POST', '/api/v1/comment', {
    token: author.token,
    body: { type, document_id: targetId, content: '写得真好，收藏了。' },
  });
  await api(site.backendUrl, 'POST', '/api/v1/comment/check', {
    token: by,
    body: { id: [comment.body.id], status: 1 },
  });
  const reply = await api(site.backendUrl, 'POST', '/api/v1/comment', {
    token: by,
    body: { type, document_id: targetId, content: '谢谢支持！', parent_id: comment.body.id },
  });
  return reply.body.id;
}

describe('the 消息 centre', () => {
  it('counts the unread messages in the header, lists them and marks them read; fits a phone, the bell beside the upload link and the user menu', async () => {
    const member = await registerMember(site.backendUrl);
    await rejectedDocument(member, '季度工作总结');
    const page = await memberPage(member);
    await page.goto('/');
    const bell = page.getByRole('link', { name: '消息，1 条未读' });
    await bell.waitFor();
    expect(await bell.locator('.app-message-link__badge').textContent()).toBe('1');
    await bell.click();
    await page.waitForURL((url) => url.pathname === '/member/message');
    const item = page.locator('.app-messages__item').first();
    await item.getByRole('heading', { name: /文档审核未通过/ }).waitFor();
    expect(await item.getAttribute('class')).toContain('app-messages__item--unread');
    expect(await item.locator('.app-messages__content').textContent()).toBe(
      '您上传的文档《季度工作总结》未通过审核，可在“我的文档”中查看。',
    );
    await item.getByRole('button', { name: '标为已读' }).click();
    await page.getByRole('link', { name: '消息', exact: true }).waitFor();
    await expect.poll(() => item.getAttribute('class')).not.toContain('app-messages__item--unread');
    expect(await item.getByRole('button', { name: '标为已读' }).count()).toBe(0);
    await item.getByRole('link', { name: '查看我的文档' }).click();
    await page.waitForURL((url) => url.pathname === '/member/document');

    // On a phone: the bell beside the upload link and the user menu, the list within the screen.
    await rejectedDocument(member, '一个标题相当长的文档用来检查手机上的消息列表是否会超出屏幕宽度');
    await resize(page, 390);
    await page.goto('/member/message');
    await page.locator('.app-messages__item').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const phoneBell = await page.getByRole('link', { name: '消息，1 条未读' }).boundingBox();
    const brand = await page.locator('.app-header__brand').boundingBox();
    expect(Math.abs(phoneBell!.y + phoneBell!.height / 2 - (brand!.y + brand!.height / 2))).toBeLessThan(8);
    await page.getByRole('button', { name: '全部标为已读' }).click();
    await page.getByRole('link', { name: '消息', exact: true }).waitFor();
    await page.getByRole('tab', { name: '未读消息' }).click();
    await page.getByText('没有未读消息').waitFor();
  });

  it('tells the author of a comment of a reply and leads to the document, to the reply kept in sight while the page images above the comments come, at 1280 and 390 px', async () => {
    const author = await registerMember(site.backendUrl);
    const admin = await login(site.backendUrl, 'admin', site.adminPassword);
    // A landscape first page, whose shape every page's box takes until its own image has come:
    // the portrait pages after it grow to about twice their height as they load.
    const title = '横版封面的八页报告';
    const doc = await createDocument(
      site.backendUrl,
      admin,
      textPdf(8, (n) => (n === 1 ? [842, 595] : [595, 842])),
      `${title}.pdf`,
    );
    await waitForStatus(site.backendUrl, admin, doc.id, [2]);
    const reply = await answeredComment(author, admin, 0, doc.id);

    // A context each round: the page images must not be known to the page beforehand.
    for (const width of [1280, 390]) {
      const page = await memberPage(author, width);
      const release = await holdUntilReleased(page, '**/view/page/**');
      await page.goto('/member/message');
      const item = page.locator('.app-messages__item').first();
      await item.getByText(`admin 在文档《${title}》中回复了您：谢谢支持！`).waitFor();
      await item.getByRole('link', { name: '查看文档' }).click();
      await page.waitForURL((url) => url.pathname.endsWith(`/${doc.id}`) && url.hash === `#comment-${reply}`);
      await page.getByRole('heading', { name: title, level: 1 }).waitFor();
      // The reply read; the approval of the comment before it (type 7) is still unread.
      await page.getByRole('link', { name: '消息，1 条未读' }).waitFor();
      await expect.poll(() => commentInSight(page, reply)).toBe(true);
      const before = await commentsOffset(page);
      await release();
      // The pages near the comments have their images, in boxes of their own (portrait) shape.
      await page.waitForFunction(() => {
        const last = document.querySelector<HTMLElement>('figure[data-page="8"]');
        const image = last?.querySelector('img');
        const box = last?.getBoundingClientRect();
        return Boolean(image?.complete && image.naturalWidth > 0 && box && box.height > box.width);
      });
      await settled(page);
      expect(await commentsOffset(page)).toBeGreaterThan(before + 200);
      expect(await commentInSight(page, reply)).toBe(true);
    }

    // Scrolled away by the reader before the images come: they stay where they went.
    const page = await memberPage(author);
    const release = await holdUntilReleased(page, '**/view/page/**');
    await page.goto('/member/message');
    await page.getByRole('link', { name: '查看文档' }).first().click();
    await expect.poll(() => commentInSight(page, reply)).toBe(true);
    const atComments = await page.evaluate(() => window.scrollY);
    await page.mouse.move(640, 450);
    await page.mouse.wheel(0, -1500);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeLessThan(atComments - 1000);
    await release();
    await page.locator('figure[data-page="8"] img').waitFor();
    await page.waitForFunction(() => document.querySelector<HTMLImageElement>('figure[data-page="8"] img')?.complete);
    await settled(page);
    expect(await commentsInSight(page)).toBe(false);
    // Back to it from another screen: where the reader left it, not at the comments again.
    await page.locator('.app-message-link').click();
    await page.waitForURL((url) => url.pathname === '/member/message');
    await page.goBack();
    await page.waitForURL((url) => url.pathname.endsWith(`/${doc.id}`));
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await settled(page);
    expect(await commentsInSight(page)).toBe(false);
  }, 120_000);

  it('opens a document at the comment a review names, past the first 20 threads, at 1280 and 390 px', async () => {
    const author = await registerMember(site.backendUrl);
    const admin = await login(site.backendUrl, 'admin', site.adminPassword);
    const doc = await createDocument(site.backendUrl, admin, textPdf(3), '读者留言很多的讲义.pdf');
    await waitForStatus(site.backendUrl, admin, doc.id, [2]);
    const comment = (token: string, content: string) =>
      api(site.backendUrl, 'POST', '/api/v1/comment', { token, body: { type: 0, document_id: doc.id, content } });
    const mine = (await comment(author.token, '第三页的图表很清楚。')).body;
    // 25 newer threads: the member's comment is in the second step of the list.
    for (let i = 1; i <= 25; i++) await comment(admin, `第 ${i} 条留言`);
    await api(site.backendUrl, 'POST', '/api/v1/comment/check', { token: admin, body: { id: [mine.id], status: 1 } });

    const page = await memberPage(author);
    for (const width of [1280, 390]) {
      await resize(page, width);
      await page.goto('/member/message');
      await page.getByText(/您在文档《读者留言很多的讲义》中的评论已通过审核/).waitFor();
      await page.getByRole('link', { name: '查看文档' }).first().click();
      await page.waitForURL((url) => url.pathname.endsWith(`/${doc.id}`) && url.hash === `#comment-${mine.id}`);
      await expect.poll(() => commentInSight(page, mine.id)).toBe(true);
      // The second step of 20 threads opened for it (the first shows 20): the 26 threads, the member's last.
      expect(await page.locator('.app-comments__thread').count()).toBe(26);
    }
  }, 120_000);

  it('opens an article at the reply a message names, and at the comments once it is deleted, at 1280 and 390 px', async () => {
    const author = await registerMember(site.backendUrl);
    const admin = await login(site.backendUrl, 'admin', site.adminPassword);
    const created = await api(site.backendUrl, 'POST', '/api/v1/article', {
      token: admin,
      body: { title: '湖边散步的好处', content: `<p>${'每天傍晚在湖边走一走。'.repeat(200)}</p>` },
    });
    expect(created.status, created.text).toBe(200);
    const articleId = created.body.id as number;
    const comment = (token: string, content: string, parent_id?: number) =>
      api(site.backendUrl, 'POST', '/api/v1/comment', {
        token,
        body: { type: 1, document_id: articleId, content, ...(parent_id ? { parent_id } : {}) },
      });
    const top = (await comment(author.token, '散步让人放松。')).body;
    await api(site.backendUrl, 'POST', '/api/v1/comment/check', { token: admin, body: { id: [top.id], status: 1 } });
    const reply = (await comment(admin, '坚持下来更有收获。', top.id)).body;
    const page = await memberPage(author);
    const openReply = async (width: number) => {
      await resize(page, width);
      await page.goto('/member/message');
      await page.getByText(/中回复了您：坚持下来更有收获。/).waitFor();
      await page.getByRole('link', { name: '查看文章' }).first().click();
      await page.waitForURL((url) => url.pathname.startsWith('/article/') && url.hash === `#comment-${reply.id}`);
    };

    for (const width of [1280, 390]) {
      await openReply(width);
      await expect.poll(() => commentInSight(page, reply.id)).toBe(true);
    }

    await api(site.backendUrl, 'DELETE', '/api/v1/comment', { token: admin, query: { id: reply.id } });
    for (const width of [1280, 390]) {
      await openReply(width);
      await page.getByText('散步让人放松。').waitFor();
      await expect.poll(() => commentsInSight(page)).toBe(true);
      expect(await page.getByText('评论加载失败').count()).toBe(0);
    }
  }, 120_000);

  it('opens an article at a reply older than the 1,000 comments its page lists, at 1280 and 390 px', async () => {
    const reader = await registerMember(site.backendUrl);
    const admin = await login(site.backendUrl, 'admin', site.adminPassword);
    const created = await api(site.backendUrl, 'POST', '/api/v1/article', {
      token: admin,
      body: { title: '评论很多的文章', content: `<p>${'大家都来说几句。'.repeat(100)}</p>` },
    });
    const articleId = created.body.id as number;
    const top = (
      await api(site.backendUrl, 'POST', '/api/v1/comment', {
        token: admin,
        body: { type: 1, document_id: articleId, content: '最早的一条评论。' },
      })
    ).body;
    const reply = (
      await api(site.backendUrl, 'POST', '/api/v1/comment', {
        token: admin,
        body: { type: 1, document_id: articleId, content: '很早以前的回复。', parent_id: top.id },
      })
    ).body;
    // Newer than the reply, through the database: the list the page asks for ends before it.
    await withDatabase(site.dataDir, async (db) => {
      for (let at = 0; at < 1000; at += 200)
        await db
          .insertInto('comment')
          .values(
            Array.from({ length: 200 }, (_, i) => ({
              parent_id: 0,
              content: `较新的评论 ${at + i + 1}`,
              document_id: articleId,
              type: 1,
              status: 1,
              user_id: 1,
              ip: '127.0.0.1',
              created_at: '2026-01-01 08:00:00',
              updated_at: '2026-01-01 08:00:00',
            })),
          )
          .execute();
    });
    const page = await memberPage(reader);
    for (const width of [1280, 390]) {
      // The address a message about the reply links to (decision 088).
      await resize(page, width);
      await page.goto(`/article/detail/${created.body.identifier as string}#comment-${reply.id}`);
      await expect.poll(() => commentInSight(page, reply.id), { timeout: 15_000 }).toBe(true);
      // Its thread, the 1,001st, with the step before it: not the 1,000 newer threads drawn above it.
      expect(await page.locator('.app-comments__thread').count()).toBe(21);
      await page.getByRole('button', { name: '查看较新的评论（还有 980 条）' }).waitFor();
    }
  }, 120_000);
});
