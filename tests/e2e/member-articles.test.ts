// A member's articles in Chromium against the real gateway and embedded backend: written in
// the member area, waiting in 我的文章 while the admin reviews, then published and read; and
// both screens at 390 px and 1280 px.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openInApp, useSiteInBrowser } from './browser';

const site = useSiteInBrowser();

let seq = 0;
const unique = (prefix: string) => `${prefix}${Date.now() % 1_000_000}x${++seq}`;

const adminRow = (page: Page, text: string) => page.locator('.app-resource-table tbody tr', { hasText: text });
const myRow = (page: Page, text: string) => page.locator('.app-member__list tbody tr', { hasText: text });
const dialog = (page: Page, title: string) =>
  page.locator('.semi-modal', { has: page.locator('.semi-modal-title', { hasText: title }) });
const expectToast = (page: Page, title: string) => page.locator('.app-toast', { hasText: title }).first().waitFor();

/** A newly registered member, logged in on a page of its own at `path`. */
async function memberPage(path: string): Promise<Page> {
  const page = await site.open();
  const res = await page.request.post('/api/v1/user/register', {
    data: { username: unique('author'), password: 'author-pass' },
    headers: { origin: site.url },
  });
  expect(res.status()).toBe(200);
  await page.goto(path);
  return page;
}

/** Calls the API as whoever the page is logged in as (the cookie goes along; the origin passes CSRF). */
async function call(page: Page, method: 'POST' | 'PUT', path: string, data: unknown) {
  const res = await page.request.fetch(path, { method, data, headers: { origin: site.url } });
  const body = (await res.json()) as Record<string, unknown>;
  expect(res.status(), JSON.stringify(body)).toBe(200);
  return body;
}

describe('a member’s articles', () => {
  it('lets a registered member write an article that waits in 我的文章 until the admin approves it, then opens it', async () => {
    // New members' group reviews articles on a new site; set here too, so the test says what it needs.
    const admin = await site.adminPage();
    const groups = (await (await admin.request.get('/api/v1/group/list')).json()) as {
      group: Record<string, unknown>[];
    };
    const defaultGroup = groups.group.find((g) => g.is_default);
    expect(defaultGroup).toBeTruthy();
    await call(admin, 'PUT', '/api/v1/group', { ...defaultGroup, enable_article_approval: true });

    const page = await memberPage('/member');
    await page.getByRole('navigation', { name: '个人中心菜单' }).getByRole('link', { name: '我的文章' }).click();
    await page.getByRole('heading', { name: '我的文章', level: 1 }).waitFor();
    await page.getByText('暂无文章').waitFor();
    await page.getByRole('link', { name: '写文章' }).click();
    await page.getByRole('heading', { name: '写文章', level: 1 }).waitFor();

    const title = unique('会员投稿');
    await page.getByRole('button', { name: '发布' }).click();
    await page.getByText('文章标题不能为空').waitFor();
    await page.getByLabel('标题', { exact: true }).fill(title);
    await page.getByTestId('rich-text-editor').click();
    await page.keyboard.type('这是会员写的第一篇文章。');
    await page.getByRole('button', { name: '发布' }).click();
    await expectToast(page, '文章已提交，等待审核');
    await page.waitForURL((url) => url.pathname === '/member/article');
    await myRow(page, title).getByText('待审核').waitFor();
    expect(await myRow(page, title).getByRole('link', { name: title, exact: true }).count()).toBe(0);

    await admin.goto('/admin/article/list');
    await adminRow(admin, title).getByText('待审核', { exact: true }).waitFor();
    await adminRow(admin, title).locator('.semi-checkbox').click();
    await admin.getByRole('button', { name: '审核通过' }).click();
    await dialog(admin, '审核通过').getByRole('button', { name: '确定' }).click();
    await expectToast(admin, '已审核通过');

    await page.reload();
    await myRow(page, title).getByText('已发布').waitFor();
    await myRow(page, title).getByRole('link', { name: title, exact: true }).click();
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await page.getByText('这是会员写的第一篇文章。').waitFor();
  });

  // One member's page, with one article, for both checks of the screens' layout (at 1280 px first).
  it('starts the screen level with the member menu beside it (no ad in the slots above it); fits 我的文章 and the article form into 390 px, the form beside its settings at 1280 px', async () => {
    const page = await memberPage('/member');
    const long = `${unique('一篇标题相当长的会员文章')}${'用来检查窄屏'.repeat(6)}`;
    await call(page, 'POST', '/api/v1/article', { title: long, content: '<p>正文</p>' });
    await page.setViewportSize({ width: 1280, height: 900 });
    for (const path of ['/member', '/member/document', '/member/article']) {
      // The first is where the page opened; the others are reached inside the app.
      if (path !== '/member') await openInApp(page, path);
      await page.locator('.app-member-layout__content .app-panel').first().waitFor();
      const [menu, screen] = await page.evaluate(() =>
        ['.app-member-layout__side', '.app-member-layout__content .app-panel'].map(
          (selector) => document.querySelector(selector)!.getBoundingClientRect().top,
        ),
      );
      expect(screen, path).toBe(menu);
    }

    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 844 });
      for (const path of ['/member/article', '/member/article/set']) {
        await openInApp(page, path);
        await page.locator('h1').first().waitFor();
        if (path === '/member/article') await myRow(page, long).waitFor();
        else await page.getByTestId('rich-text-editor').waitFor();
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `${path} at ${width} px`).toBeLessThanOrEqual(0);
      }
      const editor = (await page.getByTestId('rich-text-editor').boundingBox())!;
      const publish = (await page.getByRole('button', { name: '发布' }).boundingBox())!;
      if (width === 1280) expect(publish.x).toBeGreaterThan(editor.x + editor.width);
      else expect(publish.y).toBeGreaterThan(editor.y + editor.height);
    }
  });
});
