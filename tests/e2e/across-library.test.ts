// Issue 45, across the library, in Chromium at 1280 and 390 px against the real gateway and
// embedded backend: the 热门文档 ranking on the home page and at /hot, 相关文档 never empty for
// a document with neighbours, 最近阅读 in the member area (cleared one by one and all), and
// 猜你喜欢 on a member's home page. Nothing private or unapproved appears in any list.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, withDatabase } from '../helpers/backend';
import { insertDocument, runHotJob } from '../helpers/document-fixtures';
import { appTookOver, gatewayToken, navigateInApp, useSiteInBrowser, setTokenCookie } from './browser';

// The gateway believes this file's X-Forwarded-For: each reader's view comes from an address of its own (one
// address's views of a document count once a day, decision 119).
const site = useSiteInBrowser({ env: () => ({ TRUST_PROXY: '127.0.0.1' }) });
const WIDTHS = [1280, 390] as const;

interface Library {
  categoryId: number;
  /** Public neighbours in the category, hottest first. */
  hot: { id: number; title: string }[];
  /** Documents strangers may not see (disabled, pending review), busy as they are. */
  hidden: string[];
}
let library: Library | undefined;

const adminToken = () => gatewayToken(site.url, 'admin', site.adminPassword);

/** A category, documents filed in it (busy ones, hidden ones), and the ranking computed. */
async function libraryOnce(): Promise<Library> {
  if (library) return library;
  const token = await adminToken();
  const created = await api(site.url, 'POST', '/api/v1/category', {
    token,
    body: { title: '城市史料', type: 0, enable: true },
  });
  expect(created.status, created.text).toBe(200);
  const categories = await api(site.url, 'GET', '/api/v1/category/list', { token, query: { type: 0 } });
  const categoryId = categories.body.category.find((c: { title: string }) => c.title === '城市史料').id as number;
  const file = async (title: string, status = 2) => {
    const doc = await insertDocument(site.dataDir, { userId: 1, title, status });
    await withDatabase(site.dataDir, (db) =>
      db
        .insertInto('document_category')
        .values({
          document_id: doc.id,
          category_id: categoryId,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        })
        .execute(),
    );
    return doc;
  };
  const hot = [await file('运河与漕运'), await file('古代书院考'), await file('明代城墙图录')];
  const hidden = [await file('未公开的草稿', 4), await file('待审核的稿件', 6)];
  // Views as readers make them, each from an address of its own: the first three, twice and once; the hidden ones
  // more.
  let reader = 0;
  const view = (id: number) =>
    api(site.url, 'GET', '/api/v1/document', {
      token,
      query: { id, with_author: true },
      headers: { 'x-forwarded-for': `203.0.113.${++reader}` },
    });
  for (const [doc, times] of [
    [hot[0]!, 3],
    [hot[1]!, 2],
    [hot[2]!, 1],
    [hidden[0]!, 9],
    [hidden[1]!, 9],
  ] as const) {
    for (let i = 0; i < times; i += 1) expect((await view(doc.id)).status).toBe(200);
  }
  await runHotJob(site.dataDir);
  library = { categoryId, hot: hot.map((d) => ({ id: d.id, title: d.title })), hidden: hidden.map((d) => d.title) };
  return library;
}

let members = 0;
/** A new member, registered and logged in through the gateway; its token. */
async function newMember(): Promise<string> {
  members += 1;
  const username = `lib${Date.now() % 100_000}m${members}`;
  const res = await fetch(`${site.url}/api/v1/user/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'member-password' }),
  });
  expect(res.status).toBe(200);
  return gatewayToken(site.url, username, 'member-password');
}

const readTo = async (token: string, documentId: number, page: number) =>
  expect(
    (await api(site.url, 'PUT', '/api/v1/document/reading', { token, body: { document_id: documentId, page } })).status,
  ).toBe(200);

async function pageAt(width: number, token?: string): Promise<Page> {
  const visit = await site.visit();
  await visit.page.setViewportSize({ width, height: 900 });
  if (token) await setTokenCookie(visit.context, site.url, token);
  return visit.page;
}

/** The page is no wider than the window (nothing scrolls sideways at 390 px). */
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('热门文档', () => {
  it('says so when nothing is hot yet, and when the ranking cannot be loaded', async () => {
    // Before any document was read: the home page has no section, /hot its empty state.
    const page = await pageAt(1280);
    await page.goto('/');
    await appTookOver(page);
    await page.getByRole('heading', { name: '最新文档' }).waitFor();
    expect(await page.getByRole('region', { name: /热门文档/ }).count()).toBe(0);
    await page.goto('/hot');
    await page.getByText('暂无热门文档').waitFor();
    await appTookOver(page);
    // The SPA asks for the next page itself: a failure shows as such.
    await page.route('**/api/v1/document/hot?*', (route) =>
      route.fulfill({ status: 500, json: { code: 13, message: '服务器内部错误' } }),
    );
    await navigateInApp(page, '/hot?page=2');
    await page.getByText('服务器内部错误').waitFor();
    await page.getByRole('button', { name: '重试' }).waitFor();
  });

  for (const width of WIDTHS) {
    it(`shows the ranking on the home page and at /hot, without what strangers may not see (${width} px)`, async () => {
      const { hot, hidden } = await libraryOnce();
      const page = await pageAt(width);
      await page.goto('/');
      await appTookOver(page);
      const section = page.getByRole('region', { name: /热门文档/ });
      const ranking = section.getByRole('list', { name: '热门文档排行' });
      await ranking.waitFor();
      expect(await ranking.getByRole('link').allTextContents()).toEqual(hot.map((d) => d.title));
      expect(await fitsWidth(page)).toBe(true);
      // 猜你喜欢 is a member's: a visitor's home page has none, once the library has documents read.
      await page.getByRole('heading', { name: '最新文档' }).waitFor();
      expect(await page.getByRole('region', { name: '猜你喜欢' }).count()).toBe(0);

      await section.getByRole('link', { name: '查看更多' }).click();
      await page.waitForURL((url) => url.pathname === '/hot');
      await page.getByRole('heading', { name: '热门文档', level: 1 }).waitFor();
      const full = page.getByRole('list', { name: '热门文档排行' });
      await full.getByRole('link').first().waitFor();
      expect(await full.getByRole('link').allTextContents()).toEqual(hot.map((d) => d.title));
      for (const title of hidden) expect(await page.getByText(title).count()).toBe(0);
      expect(await fitsWidth(page)).toBe(true);

      await full.getByRole('link', { name: hot[0]!.title }).click();
      await page.waitForURL((url) => url.pathname.endsWith(`/${hot[0]!.id}`));
    });
  }
});

describe('相关文档', () => {
  it('lists the documents of the same category for a document no title matches, never hidden ones (1280 and 390 px)', async () => {
    const { categoryId, hot, hidden } = await libraryOnce();
    const page = await pageAt(1280);
    await page.goto(`/library/${categoryId}/${hot[0]!.id}`);
    const related = page.getByRole('region', { name: '相关文档' });
    // One load, measured at each width: the list is the same, its layout the style sheet's.
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await related.getByRole('link', { name: hot[1]!.title }).waitFor();
      const titles = await related.getByRole('link').allTextContents();
      expect(titles.slice(0, 2), `${width}`).toEqual([hot[1]!.title, hot[2]!.title]);
      expect(titles, `${width}`).not.toContain(hot[0]!.title);
      for (const title of hidden) expect(titles, `${width}`).not.toContain(title);
      expect(await related.getByText('暂无相关文档').count(), `${width}`).toBe(0);
      expect(await fitsWidth(page), `${width}`).toBe(true);
    }
  });
});

describe('相关文档 with a title of 255 characters', () => {
  it('shows the title on two lines at most, the whole of it in its tooltip (390 px)', async () => {
    const token = await adminToken();
    const title = '长标题分类';
    expect(
      (await api(site.url, 'POST', '/api/v1/category', { token, body: { title, type: 0, enable: true } })).status,
    ).toBe(200);
    const categories = await api(site.url, 'GET', '/api/v1/category/list', { token, query: { type: 0 } });
    const categoryId = categories.body.category.find((c: { title: string }) => c.title === title).id as number;
    const filed = async (documentTitle: string) => {
      const doc = await insertDocument(site.dataDir, { userId: 1, title: documentTitle, status: 2 });
      await withDatabase(site.dataDir, (db) =>
        db
          .insertInto('document_category')
          .values({
            document_id: doc.id,
            category_id: categoryId,
            created_at: new Date().toISOString(),
            updated_at: new Date().toISOString(),
          })
          .execute(),
      );
      return doc;
    };
    const read = await filed('城门');
    const short = await filed('城楼');
    const long = await filed(`${'一份标题很长的地方志资料汇编'.repeat(18)}续编`.slice(0, 255));
    const page = await pageAt(390);
    await page.goto(`/library/${categoryId}/${read.id}`);
    const related = page.getByRole('region', { name: '相关文档' });
    const longLink = related.getByRole('link', { name: long.title });
    await longLink.waitFor();
    expect(await longLink.getAttribute('title')).toBe(long.title);
    const oneLine = (await related.getByRole('link', { name: short.title }).boundingBox())!.height;
    expect((await longLink.boundingBox())!.height).toBeLessThanOrEqual(2 * oneLine + 1);
    expect(await fitsWidth(page)).toBe(true);
  });
});

describe('最近阅读', () => {
  for (const width of WIDTHS) {
    it(`lists what the member read with its page, opens the reader there, and clears one and then all (${width} px)`, async () => {
      const { hot } = await libraryOnce();
      const token = await newMember();
      await readTo(token, hot[2]!.id, 1);
      await readTo(token, hot[0]!.id, 2);
      await readTo(token, hot[1]!.id, 3);
      const page = await pageAt(width, token);
      await page.goto('/member');
      await appTookOver(page);
      await page.getByRole('link', { name: '最近阅读' }).first().click();
      await page.waitForURL((url) => url.pathname === '/member/reading');
      const list = page.getByRole('table', { name: '最近阅读' });
      await list.waitFor();
      // Newest first, with the page read last; the link opens the reader at it.
      expect(await list.getByRole('link').allTextContents()).toEqual([hot[1]!.title, hot[0]!.title, hot[2]!.title]);
      expect(await list.getByRole('row').filter({ hasText: hot[1]!.title }).textContent()).toContain('第 3 / 3 页');
      expect(await list.getByRole('link', { name: hot[1]!.title }).getAttribute('href')).toMatch(
        new RegExp(`/${hot[1]!.id}\\?page=3$`),
      );
      expect(await fitsWidth(page)).toBe(true);

      await page.getByRole('button', { name: `删除“${hot[0]!.title}”的阅读记录` }).click();
      await page.getByRole('button', { name: '确定' }).click();
      await expect.poll(() => list.getByRole('link').allTextContents()).toEqual([hot[1]!.title, hot[2]!.title]);

      await page.getByRole('button', { name: '清空全部阅读记录' }).click();
      await page.getByRole('button', { name: '确定' }).click();
      await page.getByText('暂无阅读记录').waitFor();
      const left = await api(site.url, 'GET', '/api/v1/document/reading/list', { token });
      expect(left.body).toEqual({});
    });
  }
});

describe('猜你喜欢', () => {
  // Nothing to a visitor: checked on the visitor's home page of the ranking tests, at each width.
  it('offers a member the unread documents of the categories they read (1280 and 390 px)', async () => {
    const { hot, hidden } = await libraryOnce();
    const token = await newMember();
    await readTo(token, hot[0]!.id, 1);
    const page = await pageAt(1280, token);
    await page.goto('/');
    await appTookOver(page);
    const forYou = page.getByRole('region', { name: '猜你喜欢' });
    // One load, measured at each width.
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await forYou.getByRole('link', { name: hot[1]!.title }).first().waitFor();
      const text = await forYou.textContent();
      expect(text, `${width}`).toContain(hot[2]!.title);
      expect(text, `${width}`).not.toContain(hot[0]!.title);
      for (const title of hidden) expect(text, `${width}`).not.toContain(title);
      expect(await fitsWidth(page), `${width}`).toBe(true);
    }
  });
});
