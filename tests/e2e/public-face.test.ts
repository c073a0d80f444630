// The public face in Chromium against the real gateway and embedded backend: first screens
// that need no API request before their content shows, the crawler content that people never
// see, the head on client-side navigation, the ads and the dashboard of a member.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, login, registerMember } from '../helpers/backend';
import { createDocument, uploader, waitForStatus } from '../helpers/document-api';
import { fixture } from '../helpers/documents';
import { CRAWLER, PERSON } from '../gateway/helpers';
import {
  appTookOver,
  EDGE_SLACK_PX,
  gatewayToken,
  keptVisit,
  logInByCookie,
  setTokenCookie,
  useSiteInBrowser,
} from './browser';

const site = useSiteInBrowser();

let adminToken: string;
let category: number;
let lessonTitle: string;
let lessonId: number;
let articleCategory: number;

beforeAll(async () => {
  adminToken = await login(site.backendUrl, 'admin', site.adminPassword);
  await api(site.backendUrl, 'POST', '/api/v1/category', { token: adminToken, body: { title: '阅读材料' } });
  category = (await api(site.backendUrl, 'GET', '/api/v1/category/list', { query: { wd: '阅读材料' } })).body
    .category[0].id;
  const member = await uploader(site.backendUrl, adminToken);
  lessonTitle = '城市图书馆的一天';
  const lesson = await createDocument(
    site.backendUrl,
    member.token,
    readFileSync(fixture('chinese.pdf')),
    `${lessonTitle}.pdf`,
    { category_id: [category] },
  );
  await waitForStatus(site.backendUrl, member.token, lesson.id, [2]);
  lessonId = lesson.id;
  await api(site.backendUrl, 'POST', '/api/v1/friendlink', {
    token: adminToken,
    body: { title: '开源中国', link: 'https://www.oschina.net', enable: true },
  });
  await api(site.backendUrl, 'POST', '/api/v1/banner', {
    token: adminToken,
    body: { title: '读书月', path: '/uploads/banner.png', url: '/library', type: 0 },
  });
  await api(site.backendUrl, 'POST', '/api/v1/category', { token: adminToken, body: { title: '站内公告', type: 1 } });
  const articleCategories = (await api(site.backendUrl, 'GET', '/api/v1/category/list', { query: { type: 1 } })).body
    .category as { id: number; title: string }[];
  articleCategory = articleCategories.find((c) => c.title === '站内公告')!.id;
  for (const [identifier, title] of [
    ['upgrade', '站点升级公告'],
    ['maintain', '例行维护通知'],
  ]) {
    const res = await api(site.backendUrl, 'POST', '/api/v1/article', {
      token: adminToken,
      body: { identifier, title, keywords: '公告', content: `<p>${title}的正文。</p>`, category_id: [articleCategory] },
    });
    expect(res.status).toBe(200);
  }
}, 120_000);

interface FirstPaint {
  /** ms since navigation when `text` was first rendered (visible) inside #root */
  visibleAt: number | null;
  /** the /api/ requests the page made, with their start times */
  apiStarts: { url: string; start: number }[];
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
    apiStarts: performance
      .getEntriesByType('resource')
      .filter((entry) => new URL(entry.name).pathname.startsWith('/api/'))
      .map((entry) => ({ url: entry.name, start: entry.startTime })),
  }));
}

/** Opens `path` and waits until `text` shows: no API request may start before that. */
async function expectContentFirst(page: Page, path: string, text: string): Promise<void> {
  await watchFirstPaint(page, text);
  await page.goto(path);
  await page.getByText(text, { exact: true }).first().waitFor();
  // The watch records the first frame that shows it, which may come just after the wait.
  await page.waitForFunction(
    () => (window as unknown as { __firstPaint: { visibleAt: number | null } }).__firstPaint.visibleAt !== null,
  );
  const paint = await firstPaint(page);
  expect(paint.visibleAt).not.toBeNull();
  for (const { url, start } of paint.apiStarts) expect(start, url).toBeGreaterThanOrEqual(paint.visibleAt!);
}

describe('first screens', () => {
  // One load of the home page for what it shows first, the crawler content it never shows and the head on the
  // client-side navigation from it.
  it('/ shows its banners, latest documents and friend links with no API request before them; replaces the crawler content on mount, which people never see; the head follows client-side navigation: title, canonical and noindex', async () => {
    const page = await site.open();
    await expectContentFirst(page, '/', lessonTitle);
    // what the API gives, on screen
    const latest = (
      await api(site.url, 'GET', '/api/v1/document/list', { query: { limit: 12, order: 'id desc', status: 2 } })
    ).body.document;
    for (const doc of latest) await page.getByRole('link', { name: doc.title }).first().waitFor();
    await page.getByRole('link', { name: '开源中国' }).waitFor();
    await page.getByRole('link', { name: '读书月' }).first().waitFor();

    // The crawler content is replaced on mount.
    await page.getByRole('link', { name: lessonTitle }).first().waitFor();
    expect(await page.locator('#root [data-crawler]').count()).toBe(0);

    // The head follows client-side navigation.
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

  it('a category page shows its documents with no API request before them', async () => {
    const page = await site.open();
    await expectContentFirst(page, `/library/${category}`, lessonTitle);
    const list = (
      await api(site.url, 'GET', '/api/v1/document/list', { query: { category_id: category, status: 2, size: 24 } })
    ).body.document;
    for (const doc of list) await page.getByRole('link', { name: doc.title }).first().waitFor();
  });

  // One load of the reader for what it shows first and for the app that replaces that screen.
  it('a document page shows the document with no API request before it; the first screen is replaced by the app without a console error, and the app then works', async () => {
    const page = await site.open();
    await expectContentFirst(page, `/library/${category}/${lessonId}`, lessonTitle);
    const doc = (await api(site.url, 'GET', '/api/v1/document', { query: { id: lessonId } })).body;
    await page.getByRole('heading', { level: 1, name: doc.title }).waitFor();
    await page.getByRole('img', { name: '第 1 页' }).waitFor();

    // Replaced by the app (an uncaught error would be among the visit's page errors, checked after the test), which
    // then works.
    await page.getByRole('button', { name: '全屏' }).waitFor();
    await page.getByRole('link', { name: '阅读材料' }).first().click();
    await page.waitForURL(`**/library/${category}`);
    await page.getByRole('link', { name: lessonTitle }).first().waitFor();
  });

  it('a search page shows its results with no API request before them', async () => {
    const page = await site.open();
    await expectContentFirst(page, `/search?wd=${encodeURIComponent('图书馆')}`, '城市图书馆的一天');
  });

  it('the footer page /article/about shows the article with no API request before it, titled after it', async () => {
    const page = await site.open();
    const about = (await api(site.url, 'GET', '/api/v1/article', { query: { identifier: 'about' } })).body;
    await expectContentFirst(page, '/article/about', about.title);
    await page.getByRole('heading', { level: 1, name: about.title }).waitFor();
    expect(await page.title()).toMatch(new RegExp(`^${about.title} - `));
  });

  it('an article page shows the article and its related ones with no API request before them, titled after it', async () => {
    const page = await site.open();
    await expectContentFirst(page, `/article/${articleCategory}/detail/upgrade`, '站点升级公告的正文。');
    await page.getByRole('heading', { level: 1, name: '站点升级公告' }).waitFor();
    await page.getByRole('region', { name: '相关文章' }).getByRole('link', { name: '例行维护通知' }).waitFor();
    expect(await page.title()).toMatch(/^站点升级公告 - /);
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(`${site.url}/article/detail/upgrade`);
  });

  it('an article category shows its articles with no API request before them', async () => {
    const page = await site.open();
    await expectContentFirst(page, `/article/${articleCategory}`, '例行维护通知');
    await page.getByRole('link', { name: '站点升级公告' }).first().waitFor();
    expect(await page.title()).toMatch(/^站内公告 - /);
  });

  it('shows a browser without JavaScript the first screen as the app shows it', async () => {
    const context = await site.browser.newContext({ baseURL: site.url, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      // A page whose first screen came late (a busy machine) is answered once more without it
      // while its successor is made (gateway/page-cache.ts): the next load has it.
      await expect
        .poll(async () => {
          await page.goto(`/library/${category}`);
          await page.getByRole('link', { name: lessonTitle }).first().waitFor();
          return page.locator('#root [data-crawler]').count();
        })
        .toBe(0);
      await page.goto('/');
      await page.getByRole('link', { name: lessonTitle }).first().waitFor();
    } finally {
      await context.close();
    }
  });
});

describe('the first screen the gateway renders', () => {
  /**
   * Watches the stylesheets `page` asks for and its console's warnings of preloads; the check it gives back, once
   * the load is done: the reader's stylesheets some, none twice, and no warning of a preload left unused.
   */
  const watchStylesheets = (page: Page) => {
    const stylesheets: string[] = [];
    const warnings: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.endsWith('.css')) stylesheets.push(new URL(request.url()).pathname);
    });
    page.on('console', (message) => {
      if (/preload/i.test(message.text())) warnings.push(message.text());
    });
    return (who: string) => {
      expect(stylesheets.length, who).toBeGreaterThan(0);
      expect(
        stylesheets.filter((file, i) => stylesheets.indexOf(file) !== i),
        who,
      ).toEqual([]);
      expect(warnings, who).toEqual([]);
    };
  };
  const rootOf = (html: string) =>
    /<div id="root">(.*?)<\/div>\s*<script type="application\/json"/s.exec(html)?.[1] ?? '';

  it("is in the page a visitor gets, with the reader's stylesheets; crawlers and members get none", async () => {
    const path = `/library/${category}/${lessonId}`;
    const person = await fetch(`${site.url}${path}`, { headers: PERSON }).then((res) => res.text());
    const root = rootOf(person);
    expect(root).toContain(`<h1`);
    expect(root).toContain(lessonTitle);
    // Page 1 inside it (gateway/inline-image.ts).
    expect(root).toMatch(
      /<img src="data:image\/svg\+xml;[^"]*" data-inlined-src="\/view\/page\/\w+\/1\.gzip\.svg" alt="第 1 页"/,
    );
    expect(root).not.toContain('data-crawler');
    // The reader's stylesheets come inline (the image travels alone after the page), and as
    // links with the app's code once the image is here (gateway/image-first.ts).
    const code = JSON.parse(/<script type="application\/json" id="app-code">(.*?)<\/script>/s.exec(person)![1]!) as {
      stylesheets: string[];
      scripts: { reader?: string }[];
    };
    const readerCss = (code.scripts.find((script) => script.reader)?.reader ?? '')
      .split(' ')
      .filter((file) => file.endsWith('.css'));
    expect(readerCss.length).toBeGreaterThan(0);
    expect(person).not.toContain('<link rel="stylesheet"');
    for (const css of readerCss) {
      expect(code.stylesheets).toContain(css);
      expect(person).toContain(`<style>${await fetch(`${site.url}${css}`).then((res) => res.text())}</style>`);
    }

    const crawler = await fetch(`${site.url}${path}`, { headers: CRAWLER }).then((res) => res.text());
    expect(rootOf(crawler)).toMatch(/^<div data-crawler>/);

    const member = await registerMember(site.url);
    const login = await fetch(`${site.url}/api/v1/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: member.username, password: member.password }),
    });
    const cookie = login.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    expect(cookie).toContain('token=');
    const mine = await fetch(`${site.url}${path}`, { headers: { ...PERSON, cookie } }).then((res) => res.text());
    expect(rootOf(mine)).not.toContain('第 1 页');
  });

  // A visitor's load of the reader is the next test's (its first page with the app's code), with the same check.
  it("fetches each of the reader's stylesheets once for a member too (the preloads match)", async () => {
    const path = `/library/${category}/${lessonId}`;
    const member = await registerMember(site.url);
    const token = await gatewayToken(site.url, member.username, member.password);
    const who = 'member';
    const context = await site.browser.newContext({
      baseURL: site.url,
      viewport: { width: 390, height: 844 },
      isMobile: true,
    });
    try {
      await setTokenCookie(context, site.url, token);
      const page = await context.newPage();
      const eachStylesheetOnce = watchStylesheets(page);
      await page.goto(path);
      await page.getByRole('button', { name: '全屏' }).waitFor();
      await page.waitForLoadState('networkidle');
      eachStylesheetOnce(who);
    } finally {
      await context.close();
    }
  });

  it("shows the reader's first page before the app's code has run, where the app then shows it; a visitor fetches each of the reader's stylesheets once (the preloads match)", async () => {
    const path = `/library/${category}/${lessonId}`;
    const firstPage = async (blockScripts: boolean) => {
      const context = await site.browser.newContext({
        baseURL: site.url,
        viewport: { width: 390, height: 844 },
        isMobile: true,
      });
      try {
        const page = await context.newPage();
        const eachStylesheetOnce = watchStylesheets(page);
        if (blockScripts) await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
        await page.goto(path);
        const image = page.getByRole('img', { name: '第 1 页' });
        await image.waitFor();
        await page.waitForFunction(() => {
          const img = document.querySelector<HTMLImageElement>('img[alt="第 1 页"]');
          return !!img && img.complete && img.naturalWidth > 0;
        });
        if (!blockScripts) await page.getByRole('button', { name: '全屏' }).waitFor();
        const title = await page.getByRole('heading', { level: 1 }).textContent();
        const box = await image.boundingBox();
        // The visitor's load with the app's code: its stylesheets (the previous test's check, for a member there).
        if (!blockScripts) {
          await page.waitForLoadState('networkidle');
          eachStylesheetOnce('visitor');
        }
        return { box, title };
      } finally {
        await context.close();
      }
    };
    const before = await firstPage(true);
    const after = await firstPage(false);
    expect(before.title).toBe(lessonTitle);
    expect(after.title).toBe(lessonTitle);
    expect(before.box).not.toBeNull();
    // The same place and size, to the pixel: nothing moves when the app takes over.
    expect(before.box).toEqual(after.box);
  });

  it("carries the reader's first page: never asks for it, nor for the app's code before it is shown", async () => {
    const context = await site.browser.newContext({ baseURL: site.url, viewport: { width: 390, height: 844 } });
    try {
      const page = await context.newPage();
      // Before any script of the site: whether page 1's image was there, decoded, when the first
      // file of the app's code (a script, module preload or stylesheet under /assets/) was put in.
      await page.addInitScript(() => {
        const state = window as unknown as { imageAtFirstAsset?: boolean };
        new MutationObserver((records, observer) => {
          for (const record of records)
            for (const node of record.addedNodes) {
              if (!(node instanceof HTMLScriptElement || node instanceof HTMLLinkElement)) continue;
              const url = node instanceof HTMLScriptElement ? node.src : node.href;
              if (!url || !new URL(url).pathname.startsWith('/assets/')) continue;
              const img = document.querySelector<HTMLImageElement>('img[alt="第 1 页"]');
              state.imageAtFirstAsset = !!img && img.complete && img.naturalWidth > 0;
              observer.disconnect();
              return;
            }
        }).observe(document, { subtree: true, childList: true });
      });
      const pageImages: string[] = [];
      page.on('request', (request) => {
        const path = new URL(request.url()).pathname;
        if (path.startsWith('/view/page/')) pageImages.push(path);
      });
      // A page whose page 1 came late (a busy machine) is answered once more without it, with a
      // preload Link instead, while its successor is made (gateway/page-cache.ts): wait for it whole.
      const readerPath = `/library/${category}/${lessonId}`;
      await expect
        .poll(
          async () => {
            const res = await fetch(`${site.url}${readerPath}`, { headers: PERSON });
            await res.body?.cancel();
            return res.headers.get('link');
          },
          { timeout: 30_000, interval: 500 },
        )
        .toBeNull();
      const answer = await page.goto(readerPath);
      expect(answer?.headers().link).toBeUndefined();
      await appTookOver(page);
      await page.getByRole('button', { name: '全屏' }).waitFor();
      // The app shows the image the page carried, and its text over it.
      const image = page.getByRole('img', { name: '第 1 页' });
      expect(await image.getAttribute('src')).toMatch(/^data:image\/svg\+xml;/);
      await page.locator('[data-page-text="1"]').waitFor({ state: 'attached' });
      expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      await page.waitForLoadState('networkidle');
      expect(pageImages.filter((path) => /^\/view\/page\/\w+\/1\.(?!json)/.test(path))).toEqual([]);
      expect(await page.evaluate(() => (window as unknown as { imageAtFirstAsset?: boolean }).imageAtFirstAsset)).toBe(
        true,
      );
    } finally {
      await context.close();
    }
  });

  it("puts the screen's stylesheets after the app's, so that the screen's rules win: /vip keeps its dark banner", async () => {
    const { page } = await site.visit();
    await page.goto('/vip');
    await page.getByRole('heading', { name: 'VIP 会员', level: 1 }).waitFor();
    // vip.css's `.app-vip__hero` against app.css's `.app-panel` (white): one class each, the later one wins.
    // Read again until it holds: the served first screen is replaced by the app's, and an element
    // read as it is detached has no computed style ('').
    await expect
      .poll(() => page.locator('.app-vip__hero').evaluate((element) => getComputedStyle(element).backgroundImage))
      .toContain('linear-gradient');
    const order = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map(
        (link) => new URL(link.href).pathname,
      ),
    );
    const app = order.findIndex((path) => /\/assets\/index-[\w-]+\.css$/.test(path));
    const vip = order.findIndex((path) => /\/assets\/vip-[\w-]+\.css$/.test(path));
    expect(app).toBeGreaterThanOrEqual(0);
    expect(vip).toBeGreaterThan(app);
  });
});

/**
 * A visitor's page kept across the tests at 390 px that are no one's (no cookie, nothing stored) and
 * whose load is not the subject: each loads its own path on it, a context fewer for each.
 */
const phoneVisitor = keptVisit(site);

describe('pages of what is not there', () => {
  it('fit a phone: an unknown category and an unknown document say so without scrolling sideways', async () => {
    const page = (await phoneVisitor()).page;
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [path, title] of [
      ['/library/999999', '分类不存在'],
      [`/library/${category}/999999`, '文档不存在'],
    ] as const) {
      await page.goto(path);
      await page.getByText(title, { exact: true }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
    }
  });
});

describe('a document page on a phone', () => {
  it('wraps a description without spaces (a link) inside its box, rather than cutting it at the edge', async () => {
    const member = await uploader(site.backendUrl, adminToken);
    const link = `https://pan.example.com/s/${'a1b2c3d4'.repeat(12)}`;
    const linked = await createDocument(
      site.backendUrl,
      member.token,
      readFileSync(fixture('chinese.pdf')),
      '资料链接.pdf',
      {
        category_id: [category],
        description: `下载地址：${link}`,
      },
    );
    await waitForStatus(site.backendUrl, member.token, linked.id, [2]);
    const page = (await phoneVisitor()).page;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/library/${category}/${linked.id}`);
    const description = page.locator('.app-reader-head__description');
    await description.waitFor();
    const box = await description.evaluate((element) => ({
      scrollWidth: element.scrollWidth,
      clientWidth: element.clientWidth,
    }));
    expect(box.scrollWidth).toBeLessThanOrEqual(box.clientWidth);
  });
});

describe('an article page on a phone', () => {
  it('wraps a long 上一篇 title inside the page, beside 复制链接, without scrolling sideways', async () => {
    const title = `站点升级之后的新功能说明与常见问题解答${'Moredoc'.repeat(8)}`;
    const res = await api(site.backendUrl, 'POST', '/api/v1/article', {
      token: adminToken,
      body: { title, content: '<p>新功能。</p>', category_id: [articleCategory] },
    });
    expect(res.status).toBe(200);
    const page = (await phoneVisitor()).page;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/article/${articleCategory}/detail/maintain`);
    const links = page.getByRole('navigation', { name: '上一篇和下一篇' });
    await links.getByRole('link', { name: title }).waitFor();
    expect(await links.textContent()).toBe(`上一篇：《${title}》下一篇：《站点升级公告》`);
    await page.getByRole('button', { name: '复制链接' }).waitFor();
    const box = await links.evaluate((element) => ({
      scrollWidth: element.scrollWidth,
      clientWidth: element.clientWidth,
    }));
    expect(box.scrollWidth).toBeLessThanOrEqual(box.clientWidth);
    // Named, what reaches past the screen's right edge (none).
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > 391)
        .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)
        .slice(0, 15),
    );
    expect(wide).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});

describe('the floating bar (反馈, 返回顶部)', () => {
  it('covers no content: beside the panels from 1024 px up, in the bottom corner below', async () => {
    const page = await site.open();
    await page.goto('/library');
    await page.getByRole('link', { name: lessonTitle }).first().waitFor();
    await appTookOver(page);
    // One load, the window resized to each width.
    for (const width of [1024, 1280, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      const bar = (await page.getByRole('complementary', { name: '快捷操作' }).boundingBox())!;
      const contentRight = await page.evaluate(() =>
        Math.max(
          ...[...document.querySelectorAll('.app-main .app-container')].map((el) => el.getBoundingClientRect().right),
        ),
      );
      expect(bar.x, `${width} px`).toBeGreaterThanOrEqual(contentRight + 8 - EDGE_SLACK_PX);
    }
    await page.setViewportSize({ width: 800, height: 900 });
    const bar = page.getByRole('complementary', { name: '快捷操作' });
    const corner = (await bar.boundingBox())!;
    expect(corner.y + corner.height).toBeGreaterThan(900 - 24);
    // The reader's download bar is fixed at the bottom there: the floating bar stands above it.
    await page.goto(`/library/${category}/${lessonId}`);
    const downloadBar = page.getByRole('region', { name: '下载', exact: true });
    await downloadBar.waitFor();
    // How far the bar's bottom edge reaches below the download bar's top, both read once per try (either may be
    // missing while the app replaces the first screen: not there yet).
    const overlap = async () => {
      const [box, download] = await Promise.all([bar.boundingBox(), downloadBar.boundingBox()]);
      return box && download ? box.y + box.height - download.y : Infinity;
    };
    await expect.poll(overlap).toBeLessThanOrEqual(EDGE_SLACK_PX);
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
        token: adminToken,
        body: {
          position,
          title: text,
          content: `<a href="https://ad.example">${text}</a>`,
          start_time: start,
          end_time: end,
        },
      });
      expect(res.status).toBe(200);
    }
    const page = await site.open();
    await page.goto('/');
    const top = page.locator('[data-ad-slot="global_top"]');
    await top.getByRole('link', { name: '全站顶部广告' }).waitFor();
    expect(await top.getByText('广告', { exact: true }).count()).toBe(1);
    expect(await page.getByText('已过期的广告').count()).toBe(0);
    expect(
      await page.locator('[data-ad-slot="index_link_top"]').evaluate((slot) => slot.getBoundingClientRect().height),
    ).toBe(0);
  });

  it('lets the admin create an ad on /admin/advertisement', async () => {
    const page = await site.adminPage('/admin/advertisement');
    await page.getByRole('button', { name: '新建广告' }).click();
    const form = page.locator('.semi-sidesheet-inner', {
      has: page.locator('.semi-sidesheet-title', { hasText: '新建广告' }),
    });
    await form.getByRole('button', { name: '创建' }).click();
    await form.getByText('请输入广告内容').waitFor();
    await form.locator('.semi-select').first().click();
    await page.locator('.semi-select-option', { hasText: '首页 · 友情链接上方' }).click();
    await form.getByLabel('标题').fill('友链上方的广告');
    await form.getByLabel('广告内容').fill('<strong>友链上方的广告</strong>');
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    for (const [index, value] of [
      [0, `${day(-1)} 00:00:00`],
      [1, `${day(2)} 00:00:00`],
    ] as const) {
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
    // Logged in by the gateway's cookie, not the form (spa.test.ts has the form's own tests): a load less.
    await logInByCookie(page, site.url, member.username, member.password, '/admin/dashboard');
    await page.getByRole('heading', { name: `欢迎，${member.username}` }).waitFor();
    expect(await page.getByText('网站数据').count()).toBe(0);
    expect(await page.getByText('操作系统').count()).toBe(0);
    await page.getByRole('link', { name: '返回首页' }).click();
    await page.waitForURL((url) => url.pathname === '/');
  });
});
