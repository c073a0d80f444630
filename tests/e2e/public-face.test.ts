// The public face in Chromium against the real gateway and embedded backend: first screens
// that need no API request before their content shows, the crawler content that people never
// see, the head on client-side navigation, the ads and the dashboard of a member.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, login, registerMember } from '../helpers/backend';
import { createDocument, uploader, waitForStatus } from '../helpers/document-api';
import { fixture } from '../helpers/documents';
import { useSiteInBrowser } from './browser';

const site = useSiteInBrowser();

let adminToken: string;
let category: number;
let lessonTitle: string;
let lessonId: number;

beforeAll(async () => {
  adminToken = await login(site.backendUrl, 'admin', site.adminPassword);
  await api(site.backendUrl, 'POST', '/api/v1/category', { token: adminToken, body: { title: '阅读材料' } });
  category = (await api(site.backendUrl, 'GET', '/api/v1/category/list', { query: { wd: '阅读材料' } })).body.category[0].id;
  const member = await uploader(site.backendUrl, adminToken);
  lessonTitle = '城市图书馆的一天';
  const lesson = await createDocument(site.backendUrl, member.token, readFileSync(fixture('chinese.pdf')), `${lessonTitle}.pdf`, { category_id: [category] });
  await waitForStatus(site.backendUrl, member.token, lesson.id, [2]);
  lessonId = lesson.id;
  await api(site.backendUrl, 'POST', '/api/v1/friendlink', { token: adminToken, body: { title: '开源中国', link: 'https://www.oschina.net', enable: true } });
  await api(site.backendUrl, 'POST', '/api/v1/banner', { token: adminToken, body: { title: '读书月', path: '/uploads/banner.png', url: '/library', type: 0 } });
}, 120_000);

interface FirstPaint {
  /** ms since navigation when `text` was first rendered (visible) inside #root */
  visibleAt: number | null;
  /** start times of the /api/ requests the page made */
  apiStarts: number[];
}

/** Watches, from the first byte of the page, when `text` shows in #root (hidden text does not count). */
async function watchFirstPaint(page: Page, text: string): Promise<void> {
  await page.addInitScript((wanted) => {
    const state = { visibleAt: null as number | null };
    (window as unknown as { __firstPaint: typeof state }).__firstPaint = state;
    const check = () => {
      const root = document.getElementById('root');
      if (root && root.innerText.includes(wanted)) state.visibleAt = performance.now();
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  }, text);
}

async function firstPaint(page: Page): Promise<FirstPaint> {
  return page.evaluate(() => ({
    visibleAt: (window as unknown as { __firstPaint: { visibleAt: number | null } }).__firstPaint.visibleAt,
    apiStarts: performance.getEntriesByType('resource')
      .filter((entry) => new URL(entry.name).pathname.startsWith('/api/'))
      .map((entry) => entry.startTime),
  }));
}

/** Opens `path` and waits until `text` shows: no API request may start before that. */
async function expectContentFirst(page: Page, path: string, text: string): Promise<void> {
  await watchFirstPaint(page, text);
  await page.goto(path);
  await page.getByText(text, { exact: true }).first().waitFor();
  const paint = await firstPaint(page);
  expect(paint.visibleAt).not.toBeNull();
  for (const start of paint.apiStarts) expect(start).toBeGreaterThanOrEqual(paint.visibleAt!);
}

describe('first screens', () => {
  it('/ shows its banners, latest documents and friend links with no API request before them', async () => {
    const page = await site.open();
    await expectContentFirst(page, '/', lessonTitle);
    // what the API gives, on screen
    const latest = (await api(site.url, 'GET', '/api/v1/document/list', { query: { limit: 12, order: 'id desc', status: 2 } })).body.document;
    for (const doc of latest) await page.getByRole('link', { name: doc.title }).first().waitFor();
    await page.getByRole('link', { name: '开源中国' }).waitFor();
    await page.getByRole('link', { name: '读书月' }).first().waitFor();
  });

  it('a category page shows its documents with no API request before them', async () => {
    const page = await site.open();
    await expectContentFirst(page, `/library/${category}`, lessonTitle);
    const list = (await api(site.url, 'GET', '/api/v1/document/list', { query: { category_id: category, status: 2, size: 24 } })).body.document;
    for (const doc of list) await page.getByRole('link', { name: doc.title }).first().waitFor();
  });

  it('a document page shows the document with no API request before it', async () => {
    const page = await site.open();
    await expectContentFirst(page, `/library/${category}/${lessonId}`, lessonTitle);
    const doc = (await api(site.url, 'GET', '/api/v1/document', { query: { id: lessonId } })).body;
    await page.getByRole('heading', { level: 1, name: doc.title }).waitFor();
    await page.getByRole('img', { name: '第 1 页' }).waitFor();
  });

  it('a search page shows its results with no API request before them', async () => {
    const page = await site.open();
    await expectContentFirst(page, `/search?wd=${encodeURIComponent('图书馆')}`, '城市图书馆的一天');
  });

  it('replaces the crawler content on mount, which people never see', async () => {
    const { page } = await site.visit();
    await page.goto('/');
    await page.getByRole('link', { name: lessonTitle }).first().waitFor();
    expect(await page.locator('#root [data-crawler]').count()).toBe(0);
  });

  it('shows the crawler content to a browser without JavaScript', async () => {
    const context = await site.browser.newContext({ baseURL: site.url, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`/library/${category}`);
      expect(await page.locator('#root [data-crawler] h1').textContent()).toBe('阅读材料');
      await page.goto('/');
      await page.locator('#root [data-crawler]').getByRole('link', { name: lessonTitle }).waitFor();
    } finally {
      await context.close();
    }
  });
});

describe('the head', () => {
  it('follows client-side navigation: title, canonical and noindex', async () => {
    const page = await site.open();
    await page.goto('/');
    await page.getByRole('link', { name: lessonTitle }).first().waitFor();
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(`${site.url}/`);
    await page.getByRole('link', { name: '登录' }).first().click();
    await page.waitForURL((url) => url.pathname === '/auth/login');
    await expect.poll(() => page.title()).toMatch(/^登录 - /);
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex, nofollow');
    expect(await page.locator('link[rel="canonical"]').count()).toBe(0);
    await page.goBack();
    await expect.poll(() => page.locator('meta[name="robots"]').count()).toBe(0);
    expect(await page.locator('script[type="application/ld+json"]').count()).toBe(1);
  });
});

describe('ads', () => {
  it('shows an ad in its slot within its dates, and none in the other slots', async () => {
    const hours = (n: number) => new Date(Date.now() + n * 3600_000).toISOString();
    for (const [position, text, start, end] of [
      ['global_top', '全站顶部广告', hours(-1), hours(24)],
      ['index_link_top', '已过期的广告', hours(-5), hours(-1)],
    ] as const) {
      // Through the gateway, as the admin screen writes: the pages it keeps are dropped.
      const res = await api(site.url, 'POST', '/api/v1/advertisement', {
        token: adminToken, body: { position, title: text, content: `<a href="https://ad.example">${text}</a>`, start_time: start, end_time: end },
      });
      expect(res.status).toBe(200);
    }
    const page = await site.open();
    await page.goto('/');
    const top = page.locator('[data-ad-slot="global_top"]');
    await top.getByRole('link', { name: '全站顶部广告' }).waitFor();
    expect(await top.getByText('广告', { exact: true }).count()).toBe(1);
    expect(await page.getByText('已过期的广告').count()).toBe(0);
    expect(await page.locator('[data-ad-slot="index_link_top"]').evaluate((slot) => slot.getBoundingClientRect().height)).toBe(0);
  });

  it('lets the admin create an ad on /admin/advertisement', async () => {
    const page = await site.open();
    await page.goto('/auth/login?redirect=%2Fadmin%2Fadvertisement');
    await page.getByLabel('用户名').fill('admin');
    await page.getByLabel('密码', { exact: true }).fill(site.adminPassword);
    await page.getByRole('button', { name: '登录' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/advertisement');
    await page.getByRole('button', { name: '新建广告' }).click();
    const form = page.locator('.semi-sidesheet-inner', { has: page.locator('.semi-sidesheet-title', { hasText: '新建广告' }) });
    await form.getByRole('button', { name: '创建' }).click();
    await form.getByText('请输入广告内容').waitFor();
    await form.locator('.semi-select').first().click();
    await page.locator('.semi-select-option', { hasText: '首页 · 友情链接上方' }).click();
    await form.getByLabel('标题').fill('友链上方的广告');
    await form.getByLabel('广告内容').fill('<strong>友链上方的广告</strong>');
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    for (const [index, value] of [[0, `${day(-1)} 00:00:00`], [1, `${day(2)} 00:00:00`]] as const) {
      const input = form.locator('.semi-datepicker input').nth(index);
      await input.click();
      await input.fill(value);
      // The typed value is taken as it is typed; Escape closes the calendar without submitting the form.
      await input.press('Escape');
    }
    await form.getByRole('button', { name: '创建' }).click();
    await page.locator('.app-toast', { hasText: '创建成功' }).first().waitFor();
    await page.locator('.app-resource-table tbody tr', { hasText: '友链上方的广告' }).getByText('投放中').waitFor();
    await page.goto('/');
    await page.locator('[data-ad-slot="index_link_top"]').getByText('友链上方的广告').waitFor();
  });
});

describe('the dashboard of a member', () => {
  it('is a plain welcome with the ways back, and no figures', async () => {
    const member = await registerMember(site.backendUrl);
    const page = await site.open();
    await page.goto('/auth/login?redirect=%2Fadmin%2Fdashboard');
    await page.getByLabel('用户名').fill(member.username);
    await page.getByLabel('密码', { exact: true }).fill(member.password);
    await page.getByRole('button', { name: '登录' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/dashboard');
    await page.getByRole('heading', { name: `欢迎，${member.username}` }).waitFor();
    expect(await page.getByText('网站数据').count()).toBe(0);
    expect(await page.getByText('操作系统').count()).toBe(0);
    await page.getByRole('link', { name: '返回首页' }).click();
    await page.waitForURL((url) => url.pathname === '/');
  });
});
