// Issue 14 in Chromium against the real gateway and embedded backend: a member uploads a
// PDF through /upload (with progress), it converts and appears in its category and on the
// home page; a visitor reads the free pages and meets the end of the preview, a VIP member
// reads on; a scanned PDF reads at once; a word of its body finds it with a
// highlighted snippet; a member with credits downloads it, the credits move and the record
// shows in /member/download. The admin approves a pending document, reconverts a failed one,
// deletes and recovers one. Issue 15: a member comments in the reader.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { api, setConfig } from '../helpers/backend';
import { waitForSearchable, waitForStatus } from '../helpers/document-api';
import { brokenPdf, fixture, illustratedPdf, jpegPdf, scanJpegs, scannedPdf } from '../helpers/documents';
import {
  appTookOver,
  EDGE_SLACK_PX,
  gatewayToken,
  keptAdminPage,
  openInApp,
  setTokenCookie,
  submitLogin,
  useSiteInBrowser,
} from './browser';
import { settled } from './comments-in-sight';

/** The fixture's word that only its second page holds (tests/fixtures/documents/generate.ts). */
const BODY_WORD = '麒麟';
const TITLE = '城市图书馆的一天';
const PRICE = 5;

const site = useSiteInBrowser({
  env: () => ({
    // Two free pages of the three-page fixture; members start with 20 credits.
    CONFIG_CONVERTER_MAX_PREVIEW: '2',
    CONFIG_SCORE_REGISTER: '20',
    CONFIG_SYSTEM_RECOMMEND_WORDS: '图书馆,古籍',
    // The gateway believes this test's X-Forwarded-For: a visit from an address of its own counts a view (a
    // reader's views of a document count once a day per address, decision 119; the earlier steps read it too).
    TRUST_PROXY: '127.0.0.1',
  }),
});

/** Logs in through the gateway as an API client would: the token is the cookie it sets. */
const tokenOf = (username: string, password: string) => gatewayToken(site.url, username, password);

let counter = 0;
async function newMember(): Promise<{ id: number; username: string; password: string; token: string }> {
  counter += 1;
  const username = `reader${Date.now() % 100_000}x${counter}`;
  const password = 'reader-password';
  const res = await fetch(`${site.url}/api/v1/user/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const body = (await res.json()) as { user?: { id: number } };
  if (res.status !== 200 || !body.user) throw new Error(`register: ${res.status}`);
  return { id: body.user.id, username, password, token: await tokenOf(username, password) };
}

const admin = (method: string, path: string, opts: Parameters<typeof api>[3] = {}) =>
  tokenOf('admin', site.adminPassword).then((token) => api(site.url, method, path, { ...opts, token }));

/** A browser page signed in as `token` (the gateway's cookie), or a visitor's. */
async function pageAs(token?: string, viewport?: { width: number; height: number }): Promise<Page> {
  const visit = await site.visit();
  if (viewport) await visit.page.setViewportSize(viewport);
  if (token) await setTokenCookie(visit.context, site.url, token);
  return visit.page;
}

interface Shared {
  categoryId: number;
  uploaderId: number;
  uploaderToken: string;
  documentId: number;
  path: string;
}
const shared: Partial<Shared> = {};
const need = <K extends keyof Shared>(key: K): Shared[K] => {
  const value = shared[key];
  if (value === undefined) throw new Error(`an earlier step did not set ${key}`);
  return value as Shared[K];
};

/** Uploads through the gateway and creates the document in the shared category; its id. */
async function upload(token: string, name: string, content: Buffer, title: string): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(content)]), name);
  const res = await fetch(`${site.url}/api/v1/upload/document`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  const attachment = ((await res.json()) as { data: { id: number } }).data.id;
  const created = await api(site.url, 'POST', '/api/v1/document', {
    token,
    body: { category_id: [need('categoryId')], document: [{ title, attachment_id: attachment, price: 0 }] },
  });
  expect(created.status).toBe(200);
  const me = await api(site.url, 'GET', '/api/v1/user', { token });
  const mine = await api(site.url, 'GET', '/api/v1/document/list', {
    token,
    query: { user_id: me.body.id, size: 50, order: 'id desc' },
  });
  return mine.body.document.find((d: { title: string }) => d.title === title).id as number;
}

describe('the library, from upload to download', () => {
  it('a member uploads a PDF through /upload with progress; it converts and appears in its category and on the home page', async () => {
    const category = await admin('POST', '/api/v1/category', { body: { title: '教育资料', type: 0, enable: true } });
    expect(category.status).toBe(200);
    const categories = await admin('GET', '/api/v1/category/list', { query: { type: 0 } });
    const categoryId = categories.body.category.find((c: { title: string }) => c.title === '教育资料').id as number;
    const group = await admin('POST', '/api/v1/group', {
      body: { title: '作者', enable_upload: true, enable_document_review: false },
    });
    const uploader = await newMember();
    expect(
      (await admin('PUT', '/api/v1/user', { body: { id: uploader.id, group_id: [2, group.body.id] } })).status,
    ).toBe(200);
    Object.assign(shared, { categoryId, uploaderId: uploader.id, uploaderToken: uploader.token });

    const page = await pageAs(uploader.token);
    await page.goto('/');
    await page.getByRole('link', { name: '上传文档' }).click();
    await page.getByRole('heading', { name: '上传文档', level: 1 }).waitFor();
    // A slow uplink, so that the progress bar has something to show.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 40 * 1024,
    });
    await page
      .getByTestId('document-files')
      .setInputFiles({ name: '图书馆.pdf', mimeType: 'application/pdf', buffer: readFileSync(fixture('chinese.pdf')) });
    const bar = page.getByRole('progressbar', { name: '图书馆.pdf 上传进度' });
    await page.waitForFunction(() => {
      const progress = document.querySelector('progress.app-upload__progress') as HTMLProgressElement | null;
      return progress !== null && progress.value > 0 && progress.value < 100;
    });
    expect(Number(await bar.getAttribute('value'))).toBeGreaterThan(0);
    const item = page.getByRole('listitem', { name: '图书馆.pdf' });
    // What has gone of how much, not a bar alone.
    expect(await item.locator('.app-upload__percent').textContent()).toMatch(
      /^已上传 [\d.]+ [KM]?B \/ [\d.]+ [KM]?B（\d+%）$/,
    );
    // On one line, not broken after 已上传 beside the bar.
    const percentLines = await item.locator('.app-upload__percent').evaluate((percent) => {
      const text = document.createRange();
      text.selectNodeContents(percent);
      return new Set([...text.getClientRects()].map((box) => Math.round(box.top))).size;
    });
    expect(percentLines).toBe(1);
    // The progress seen, the rest goes at full speed.
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await item.getByText('已上传，待发布').waitFor({ timeout: 30_000 });

    expect(await item.getByLabel('标题').inputValue()).toBe('图书馆');
    await item.getByLabel('标题').fill(TITLE);
    await page.getByRole('button', { name: /发布/ }).click();
    await item.getByText('请选择文档分类').waitFor();
    await item.getByLabel('分类').selectOption(String(categoryId));
    await item.getByLabel('价格').fill(String(PRICE));
    // The price names its unit, the site's credits, on one line beside the number, on a phone too.
    const unit = item.locator('.app-upload__unit');
    expect(await unit.textContent()).toBe('魔豆');
    const wide = page.viewportSize();
    await page.setViewportSize({ width: 390, height: 844 });
    const lines = (el: Element) => {
      const text = document.createRange();
      text.selectNodeContents(el);
      return text.getClientRects().length;
    };
    expect(await unit.evaluate(lines)).toBe(1);
    if (wide) await page.setViewportSize(wide);
    await page.getByRole('button', { name: /发布/ }).click();
    const statuses = page.getByRole('region', { name: '转换状态' });
    await statuses.getByText('已转换').waitFor({ timeout: 90_000 });
    const read = statuses.getByRole('link', { name: '阅读' });
    const path = (await read.getAttribute('href')) as string;
    expect(path).toMatch(new RegExp(`^/library/${categoryId}/\\d+$`));
    Object.assign(shared, { path, documentId: Number(path.split('/').pop()) });

    // The category inside the app (its first visit in this tab), then the home page loaded afresh.
    await openInApp(page, `/library/${categoryId}`);
    await page.getByRole('article', { name: TITLE }).waitFor();
    await page.goto('/');
    const section = page.getByRole('region', { name: /教育资料/ });
    await section.getByRole('article', { name: TITLE }).waitFor();
    expect(await section.getByRole('article', { name: TITLE }).getByText(`${PRICE} 魔豆`).count()).toBe(1);
  });

  it('a visitor reads the free pages and meets the end of the preview, also at 390 px', async () => {
    const page = await pageAs(undefined, { width: 390, height: 844 });
    // A visitor never reads past the preview: nothing asks for a page the server refuses (the
    // browser logs each refusal as an error in the console).
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400)
        refused.push(`${response.request().method()} ${new URL(response.url()).pathname} ${response.status()}`);
    });
    await page.goto(need('path'));
    await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor();
    expect(await page.title()).toBe(`${TITLE} - 魔豆文库`);
    const first = page.getByRole('img', { name: '第 1 页' });
    await first.waitFor();
    expect(await first.getAttribute('fetchpriority')).toBe('high');
    await page.waitForFunction(
      () => (document.querySelector('img[alt="第 1 页"]') as HTMLImageElement | null)?.naturalWidth !== 0,
    );
    await page.getByRole('heading', { name: '免费预览已结束' }).scrollIntoViewIfNeeded();
    await page.getByRole('img', { name: '第 2 页' }).waitFor();
    expect(await page.getByRole('figure').count()).toBe(2);
    expect(await page.getByText('可预览页数已用完，剩余 1 页未读。').count()).toBe(1);
    // Logging in opens no page by itself: it is offered for the download (a buyer reads on);
    // VIP is off here, so not offered.
    const end = page.getByRole('region', { name: '免费预览已结束' });
    expect(await end.getByRole('link', { name: '登录后下载全文' }).getAttribute('href')).toBe(
      `/auth/login?redirect=${encodeURIComponent(`${need('path')}?page=2`)}`,
    );
    expect(await end.getByText(/继续阅读|VIP/).count()).toBe(0);
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(refused).toEqual([]);
    // Logged in from there, the visitor is back where they stopped: the last free page, not the
    // top of the document.
    const member = await newMember();
    await end.getByRole('link', { name: '登录后下载全文' }).click();
    await submitLogin(page, member.username, member.password);
    await page.waitForURL((url) => url.pathname === need('path'));
    await page.getByText('当前第 2 页，共 3 页').waitFor();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  });

  it('a member comments in the reader; the comment waits for review, then every reader sees it (issue 15)', async () => {
    const member = await newMember();
    const page = await pageAs(member.token);
    await page.goto(need('path'));
    await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor();
    await page.getByLabel('发表评论').fill('讲得很清楚，谢谢分享');
    await page.getByRole('button', { name: '发表评论' }).click();
    const mine = page.locator('.app-comment', { hasText: '讲得很清楚，谢谢分享' });
    await mine.getByText('审核中').waitFor();
    const pending = await admin('GET', '/api/v1/comment/list', {
      query: { type: 0, document_id: need('documentId'), status: 0 },
    });
    expect(
      (await admin('POST', '/api/v1/comment/check', { body: { id: [pending.body.comment[0].id], status: 1 } })).status,
    ).toBe(200);
    const visitor = await pageAs();
    await visitor.goto(need('path'));
    // The comments' code arrives apart (a busy skeleton meanwhile); their data as the reader comes near them, below the
    // pages.
    await visitor.locator('section.app-comments:not([aria-busy])').scrollIntoViewIfNeeded();
    await visitor.locator('.app-comment', { hasText: '讲得很清楚，谢谢分享' }).waitFor();
  });

  it('on a phone a comment is sent by a click on its button at the bottom of the screen, where the download bar returns', async () => {
    const member = await newMember();
    const page = await pageAs(member.token, { width: 390, height: 844 });
    await page.goto(need('path'));
    const bar = page.getByRole('region', { name: '下载', exact: true });
    await bar.getByRole('button', { name: '下载' }).waitFor();
    await page.getByLabel('发表评论').fill('第二页的图很有用');
    await expect.poll(() => bar.isVisible()).toBe(false);
    // The button in the band the bar covers when it is shown, the text field still focused.
    const send = page.getByRole('button', { name: '发表评论' });
    await send.evaluate((button) => window.scrollBy(0, button.getBoundingClientRect().bottom - (innerHeight - 16)));
    const box = (await send.boundingBox())!;
    expect(box.y + box.height / 2).toBeGreaterThan(844 - 64);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
    const posted = page.waitForRequest(
      (request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/comment',
    );
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await posted;
    await page.locator('.app-comment', { hasText: '第二页的图很有用' }).getByText('审核中').waitFor();
    await expect.poll(() => bar.isVisible()).toBe(true);
  });

  it('a member favourites, unfavourites and rates the document in the reader: one visit, one view', async () => {
    const member = await newMember();
    // Read without the author: a read that counts no view.
    const counts = async () =>
      (await api(site.url, 'GET', '/api/v1/document', { token: member.token, query: { id: need('documentId') } })).body;
    const before = await counts();
    const page = await pageAs(member.token);
    await page.context().setExtraHTTPHeaders({ 'x-forwarded-for': '203.0.113.30' });
    await page.goto(need('path'));
    await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor();
    await page.getByRole('button', { name: '收藏', exact: true }).click();
    await page.getByText(`${(before.favorite_count ?? 0) + 1} 人收藏`).waitFor();
    await page.getByRole('button', { name: '已收藏', exact: true }).click();
    await page.getByRole('button', { name: '收藏', exact: true }).waitFor();
    await page.getByText(`${before.favorite_count ?? 0} 人收藏`).waitFor();
    await page.getByRole('button', { name: '评 4 星' }).click();
    await page.getByText('您的评分：4 星').waitFor();
    await page.getByText(`（${(before.score_count ?? 0) + 1} 人评分）`).waitFor();
    const after = await counts();
    expect(after.view_count).toBe((before.view_count ?? 0) + 1);
    expect(after.score_count).toBe((before.score_count ?? 0) + 1);
  });

  it('the home page at 390 px keeps a 3:1 banner whole and nothing wider than the phone', async () => {
    const image = await sharp({ create: { width: 1200, height: 400, channels: 3, background: '#2b6fe0' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(image)]), 'banner.png');
    const token = await tokenOf('admin', site.adminPassword);
    const uploaded = await fetch(`${site.url}/api/v1/upload/banner`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}` },
    });
    const path = ((await uploaded.json()) as { data: { path: string } }).data.path;
    expect(
      (await admin('POST', '/api/v1/banner', { body: { title: '春文档节', path, type: 0, enable: true } })).status,
    ).toBe(200);

    const page = await pageAs(undefined, { width: 390, height: 844 });
    await page.goto('/');
    const banner = page.locator('img[alt="春文档节"]').first();
    await banner.waitFor();
    await appTookOver(page);
    await page.waitForFunction(
      () => (document.querySelector('img[alt="春文档节"]') as HTMLImageElement | null)?.naturalWidth === 1200,
    );
    const box = await banner.boundingBox();
    expect(box).not.toBeNull();
    // The box has the banner's own shape, so "contain" shows all of it.
    expect(Math.abs((box?.width ?? 0) / (box?.height ?? 1) - 3)).toBeLessThan(0.05);
    expect(await banner.evaluate((img) => getComputedStyle(img).objectFit)).toBe('contain');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  it("keeps the reader's toolbar in sight while reading, and 跳转 shows the page's top below it, on a phone and a wide screen", async () => {
    // One visitor's page, loaded at each width.
    const page = await pageAs();
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1280, height: 900 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto(need('path'));
      const toolbar = page.getByRole('toolbar', { name: '阅读工具' });
      await toolbar.waitFor();
      // What a finger or a mouse reaches at a box's middle: the box itself, or something covering it.
      const onTop = (box: { x: number; y: number; width: number; height: number }, selector: string) =>
        page.evaluate(([x, y, inside]) => document.elementFromPoint(x, y)?.closest(inside) !== null, [
          box.x + box.width / 2,
          box.y + Math.min(box.height / 2, 12),
          selector,
        ] as const);
      await page.evaluate(() => window.scrollTo(0, 1400));
      await expect
        .poll(async () => onTop((await toolbar.boundingBox())!, '.app-reader__toolbar'), {
          message: `${viewport.width} px: the toolbar is covered`,
        })
        .toBe(true);

      await page.getByPlaceholder('页码').fill('2');
      await page.getByRole('button', { name: '跳转' }).click();
      const second = page.locator('[data-page="2"]');
      await expect
        .poll(
          async () => {
            const box = (await second.boundingBox())!;
            return box.y >= (await toolbar.boundingBox())!.y && (await onTop(box, '[data-page="2"]'));
          },
          { message: `${viewport.width} px: page 2's top is hidden` },
        )
        .toBe(true);
    }
  });

  it("a member's header at 390 px keeps the site's name, 上传文档 and the user menu on one line", async () => {
    const page = await pageAs(need('uploaderToken'), { width: 390, height: 844 });
    await page.goto('/');
    const menu = page.getByRole('button', { name: /^用户菜单 / });
    await menu.waitFor();
    const middle = (box: { y: number; height: number } | null) => box!.y + box!.height / 2;
    const brand = middle(await page.locator('.app-header__brand').boundingBox());
    expect(Math.abs(middle(await menu.boundingBox()) - brand)).toBeLessThan(8);
    expect(Math.abs(middle(await page.getByRole('link', { name: '上传文档' }).boundingBox()) - brand)).toBeLessThan(8);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  it("the library's filters at 390 px: one scrolling line a row, the chosen one shown when it is past the edge", async () => {
    const page = await pageAs(undefined, { width: 390, height: 844 });
    await page.goto('/library');
    const formats = page.getByRole('group', { name: '格式' });
    await formats.waitFor();
    const row = formats.locator('.app-chips__choices');
    // One line (wrapped, the row took three), the rest of it reached by scrolling sideways.
    expect((await row.boundingBox())!.height).toBeLessThan(34);
    expect(await row.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    // Its right edge fades while more choices lie past it, and no longer once scrolled to the end.
    const fades = () => row.evaluate((element) => getComputedStyle(element).maskImage !== 'none');
    await expect.poll(fades).toBe(true);
    await row.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
    await expect.poll(fades).toBe(false);
    await formats.getByRole('link', { name: '电子书' }).click();
    await page.waitForURL(/ext=other/);
    // The address opened afresh (a link shared, a reload): the row starts scrolled to the chosen one.
    await page.reload();
    await row.waitFor();
    const chosen = formats.locator('[aria-current="true"]');
    await expect.poll(() => chosen.textContent()).toBe('电子书');
    const rowBox = (await row.boundingBox())!;
    const chosenBox = (await chosen.boundingBox())!;
    expect(chosenBox.x).toBeGreaterThanOrEqual(rowBox.x - EDGE_SLACK_PX);
    expect(chosenBox.x + chosenBox.width).toBeLessThanOrEqual(rowBox.x + rowBox.width + EDGE_SLACK_PX);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  it('a VIP member (set through the API) reads on past the preview', async () => {
    const vip = await newMember();
    const granted = await admin('POST', '/api/v1/vip/grant', { body: { user_id: [vip.id], days: 30, reason: '测试' } });
    expect(granted.status).toBe(200);
    const page = await pageAs(vip.token);
    await page.goto(need('path'));
    await page.getByText('— 全文完 —').waitFor();
    expect(await page.getByRole('figure').count()).toBe(3);
    expect(await page.getByRole('heading', { name: '免费预览已结束' }).count()).toBe(0);
    await page.getByText('— 全文完 —').scrollIntoViewIfNeeded();
    await page.waitForFunction(
      () => (document.querySelector('img[alt="第 3 页"]') as HTMLImageElement | null)?.naturalWidth !== 0,
    );
    // VIP members download for free (vip.free_download, on by default): the button says so.
    const panel = page.getByRole('region', { name: '下载文档' });
    await panel.getByRole('button', { name: 'VIP 免费下载' }).waitFor();
    expect(await panel.getByRole('button', { name: `下载（${PRICE} 魔豆）` }).count()).toBe(0);
  });

  it('a scanned PDF reads as soon as it is converted (its JPEGs, WebP at reading resolution once made), also at 390 px', async () => {
    const title = '扫描版地方志';
    const id = await upload(need('uploaderToken'), 'scan.pdf', await scannedPdf(2, 200), title);
    expect(await waitForStatus(site.url, need('uploaderToken'), id, [2])).toMatchObject({
      pages: 2,
      preview_ext: '.webp',
    });
    const page = await pageAs(undefined, { width: 390, height: 844 });
    await page.goto(`/library/${need('categoryId')}/${id}`);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    const first = page.getByRole('img', { name: '第 1 页' });
    await first.waitFor();
    expect(await first.getAttribute('src')).toMatch(/\/view\/page\/[0-9a-f]+\/1\.webp$/);
    // the page arrived and decoded: the scanner's JPEG (200 dpi across the A4 page) or, once the
    // page images job has run (backend/modules/document/page-images.ts), the WebP at 150 dpi
    await page.waitForFunction(() =>
      [1240, 1654].includes(
        (document.querySelector('img[alt="第 1 页"]') as HTMLImageElement | null)?.naturalWidth ?? 0,
      ),
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  }, 120_000);

  it('a page of another shape than the first (a landscape page in a portrait scan) is shown whole in a box of its own shape, and counts as the page read after a jump to it', async () => {
    const title = '横竖混排的扫描件';
    const [portrait, landscape, ...rest] = await scanJpegs(4, 100);
    const pdf = jpegPdf([{ jpeg: portrait! }, { jpeg: landscape!, rotate: 90 }, ...rest.map((jpeg) => ({ jpeg }))]);
    const id = await upload(need('uploaderToken'), 'mixed.pdf', pdf, title);
    expect(await waitForStatus(site.url, need('uploaderToken'), id, [2])).toMatchObject({ pages: 4 });
    const page = await pageAs(need('uploaderToken'), { width: 390, height: 844 }); // the owner reads every page
    await page.goto(`/library/${need('categoryId')}/${id}`);
    const second = page.locator('figure[data-page="2"]');
    await second.scrollIntoViewIfNeeded();
    await page.waitForFunction(
      () => (document.querySelector('img[alt="第 2 页"]') as HTMLImageElement | null)?.naturalWidth !== 0,
    );
    const shapesNow = () =>
      page.evaluate(() =>
        [1, 2].map((n) => {
          const figure = document.querySelector(`figure[data-page="${n}"]`)!.getBoundingClientRect();
          const image = document.querySelector(`img[alt="第 ${n} 页"]`) as HTMLImageElement;
          return { box: figure.width / figure.height, image: image.naturalWidth / image.naturalHeight };
        }),
      );
    // Page 1 is A4 portrait, page 2 the same turned (842 × 595 pt): each box has its image's shape,
    // page 2's once its image's load has been handled (the image can be decoded a frame before).
    await expect
      .poll(async () => Math.abs((await shapesNow())[1]!.box - (await shapesNow())[1]!.image))
      .toBeLessThan(0.02);
    const shapes = await shapesNow();
    expect(shapes[0]!.box).toBeCloseTo(595 / 842, 2);
    expect(shapes[1]!.image).toBeCloseTo(842 / 595, 1);
    expect(Math.abs(shapes[1]!.box - shapes[1]!.image)).toBeLessThan(0.02);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // Jumped to, the short landscape page sits under the toolbar with page 3 filling the screen
    // below it (across the screen's middle): the counter names page 2, the one read.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByPlaceholder('页码').fill('2');
    await page.getByRole('button', { name: '跳转' }).click();
    const counter = page.locator('.app-reader__counter [aria-hidden="true"]');
    await expect.poll(() => counter.textContent()).toBe('2 / 4');
    await settled(page); // the observers' answer to the jump has come by now
    expect(await counter.textContent()).toBe('2 / 4');
  }, 120_000);

  it('an illustrated PDF reads as vector pages whose photo (JPEG, then WebP inside the SVG) the browser draws', async () => {
    const title = '图文并茂的年度报告';
    const id = await upload(need('uploaderToken'), 'report.pdf', await illustratedPdf(1), title);
    expect(await waitForStatus(site.url, need('uploaderToken'), id, [2])).toMatchObject({
      pages: 1,
      preview_ext: '.svg',
    });
    const page = await pageAs();
    await page.goto(`/library/${need('categoryId')}/${id}`);
    const first = page.getByRole('img', { name: '第 1 页' });
    await first.waitFor();
    // Its SVG, carried inside the page (gateway/inline-image.ts) or asked for.
    expect(await first.getAttribute('src')).toMatch(/^data:image\/svg\+xml;|\/view\/page\/[0-9a-f]+\/1(\.gzip)?\.svg$/);
    await page.waitForFunction(
      () => (document.querySelector('img[alt="第 1 页"]') as HTMLImageElement | null)?.naturalWidth !== 0,
    );
    // The page drawn into a canvas at its size in points: the photo covers 57–537 × 450–770 pt
    // (from the top), coloured blobs; without the WebP drawn there it would be white.
    const photo = await first.evaluate(async (img: HTMLImageElement) => {
      const canvas = document.createElement('canvas');
      canvas.width = 595;
      canvas.height = 842;
      const context = canvas.getContext('2d')!;
      context.drawImage(img, 0, 0, 595, 842);
      const colours = new Set<string>();
      let white = 0;
      for (let y = 460; y < 760; y += 20) {
        for (let x = 67; x < 527; x += 20) {
          const [r, g, b] = context.getImageData(x, y, 1, 1).data;
          colours.add(`${r! >> 4},${g! >> 4},${b! >> 4}`);
          if (r! > 245 && g! > 245 && b! > 245) white += 1;
        }
      }
      return { colours: colours.size, white };
    });
    expect(photo.colours).toBeGreaterThan(50);
    expect(photo.white).toBeLessThan(10);
  }, 120_000);

  it('searching a word of its body finds it with a highlighted snippet', async () => {
    // The conversion's job files the body after the status the upload screen showed (已转换).
    await waitForSearchable(site.url, BODY_WORD, need('documentId'));
    const page = await pageAs();
    await page.goto('/');
    await appTookOver(page);
    await page.getByRole('searchbox', { name: '搜索关键词' }).first().fill(BODY_WORD);
    await page.getByRole('searchbox', { name: '搜索关键词' }).first().press('Enter');
    await page.waitForURL((url) => url.pathname === '/search');
    const results = page.getByRole('region', { name: '搜索结果' });
    const hit = results.getByRole('listitem').filter({ hasText: TITLE });
    await hit.waitFor();
    expect(await hit.locator('.app-search-result__snippet mark').first().textContent()).toBe(BODY_WORD);
    await page.getByText(/找到约 \d+ 条结果，用时 [\d.]+ 秒/).waitFor();
    await hit.getByRole('link').first().click();
    // The reader puts the document under its own category in the address.
    await page.waitForURL((url) => url.pathname === need('path'));
    await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor();
  });

  it("a phone shows one search box: the page's own on the home and results pages, the header's elsewhere", async () => {
    const visibleBoxes = async (page: Page) => {
      const boxes = page.getByRole('searchbox', { name: '搜索关键词' });
      await boxes.first().waitFor({ state: 'attached' });
      let visible = 0;
      for (const box of await boxes.all()) if (await box.isVisible()) visible += 1;
      return visible;
    };
    // One load, of the results page; the home page and the library reached inside the app.
    const phone = await pageAs(undefined, { width: 390, height: 844 });
    await phone.goto(`/search?wd=${encodeURIComponent(BODY_WORD)}`);
    await phone.getByRole('searchbox', { name: '搜索关键词' }).last().waitFor();
    expect(await visibleBoxes(phone), 'the results page').toBe(1);
    // The visible one on the results page is the page's, with the query.
    expect(await phone.getByRole('main').getByRole('searchbox', { name: '搜索关键词' }).inputValue()).toBe(BODY_WORD);
    await openInApp(phone, '/');
    await phone.getByRole('searchbox', { name: '搜索关键词' }).last().waitFor();
    expect(await visibleBoxes(phone), 'the home page').toBe(1);
    await openInApp(phone, '/library');
    await phone.getByRole('group', { name: '格式' }).waitFor();
    expect(await visibleBoxes(phone)).toBe(1);
    expect(await phone.locator('.app-header').getByRole('searchbox', { name: '搜索关键词' }).isVisible()).toBe(true);
    // A wide screen keeps the header's box in its sticky header as well (the same page widened, the results reached
    // inside the app).
    await phone.setViewportSize({ width: 1280, height: 900 });
    await openInApp(phone, `/search?wd=${encodeURIComponent(BODY_WORD)}`);
    await phone.getByRole('main').getByRole('searchbox', { name: '搜索关键词' }).waitFor();
    expect(await visibleBoxes(phone)).toBe(2);
  });
  it('a member with credits downloads it: the credits move and the record appears in /member/download', async () => {
    const buyer = await newMember();
    const credits = async (token: string) =>
      (await api(site.url, 'GET', '/api/v1/user', { token })).body.credit_count ?? 0;
    const before = { buyer: await credits(buyer.token), uploader: await credits(need('uploaderToken')) };
    expect(before.buyer).toBe(20);
    const page = await pageAs(buyer.token);
    await page.goto(need('path'));
    // Bought from the end of the free preview, the download opens the rest of the pages.
    const end = page.getByRole('region', { name: '免费预览已结束' });
    await end.waitFor();
    const downloading = page.waitForEvent('download');
    await end.getByRole('button', { name: `下载全文（${PRICE} 魔豆）` }).click();
    await end
      .getByRole('group', { name: `需 ${PRICE} 魔豆，确定下载？` })
      .getByRole('button', { name: '确定下载' })
      .click();
    const file = await downloading;
    expect(file.suggestedFilename()).toBe(`${TITLE}.pdf`);
    expect(await credits(buyer.token)).toBe(before.buyer - PRICE);
    expect(await credits(need('uploaderToken'))).toBe(before.uploader + PRICE);
    await page.getByText('— 全文完 —').waitFor();
    expect(await page.getByRole('figure').count()).toBe(3);
    // Bought: the button says so, and downloading again asks and costs nothing.
    const bought = page.getByRole('region', { name: '下载文档' }).getByRole('button', { name: '已购买，免费下载' });
    await bought.waitFor();
    const again = page.waitForEvent('download');
    await bought.click();
    expect((await again).suggestedFilename()).toBe(`${TITLE}.pdf`);
    expect(await credits(buyer.token)).toBe(before.buyer - PRICE);

    await openInApp(page, '/member/download');
    // Newest first: the free second download, then the purchase.
    await expect.poll(() => page.getByRole('row').filter({ hasText: TITLE }).count()).toBe(2);
    const record = page.getByRole('row').filter({ hasText: TITLE }).last();
    // Its cost (7ee62d8: the price kept on the record, under 消耗); the download again says why it was free.
    expect(await record.getByText(`${PRICE} 魔豆`, { exact: true }).count()).toBe(1);
    const boughtRecord = page.getByRole('row').filter({ hasText: TITLE }).first();
    expect(await boughtRecord.getByText('已购买', { exact: true }).count()).toBe(1);

    // On a phone the record is a block: every field on the screen, named by its column (as a
    // table, the columns after the title sat past the screen's edge), and still a table to readers.
    await page.setViewportSize({ width: 390, height: 844 });
    const time = record.getByRole('cell').last();
    expect(await time.evaluate((cell) => getComputedStyle(cell, '::before').content)).toBe('"下载时间："');
    const box = (await time.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390 + EDGE_SLACK_PX);
    expect(
      await page.getByRole('table', { name: '我的下载' }).getByRole('row').filter({ hasText: TITLE }).count(),
    ).toBe(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  /** The test document's price, as its uploader sets it. */
  const setPrice = async (price: number) => {
    const priced = await api(site.url, 'PUT', '/api/v1/document', {
      token: need('uploaderToken'),
      body: { id: need('documentId'), title: TITLE, price, category_id: [need('categoryId')] },
    });
    expect(priced.status).toBe(200);
  };

  it('tells a member whose credits do not cover the price by how much, with nothing to confirm', async () => {
    const poor = await newMember();
    await setPrice(500);
    const page = await pageAs(poor.token);
    await page.goto(need('path'));
    const panel = page.getByRole('region', { name: '下载文档' });
    await panel.getByRole('button', { name: '下载（500 魔豆）' }).click();
    const short = panel.getByRole('group', { name: '魔豆不足' });
    await short.getByText('下载需 500 魔豆，您现有 20 魔豆，还差 480 魔豆。').waitFor();
    expect(await panel.getByRole('button', { name: '确定下载' }).count()).toBe(0);
    // VIP is off here: nothing offered.
    expect(await panel.getByRole('link', { name: '开通 VIP，免费下载' }).count()).toBe(0);

    // Where VIP members download for free, the way past the credits is offered with the shortfall.
    await setConfig(site.url, await tokenOf('admin', site.adminPassword), {
      'vip.enable': 'true',
      'vip.free_download': 'true',
    });
    try {
      await page.goto(need('path'));
      // Marked VIP 免费 once, on the price line.
      await panel.getByText('VIP 免费', { exact: true }).waitFor();
      expect(await panel.getByText('VIP 免费', { exact: true }).count()).toBe(1);
      await panel.getByRole('button', { name: '下载（500 魔豆）' }).click();
      await short.getByRole('link', { name: '开通 VIP，免费下载' }).click();
      await page.waitForURL((url) => url.pathname === '/vip');
    } finally {
      await setConfig(site.url, await tokenOf('admin', site.adminPassword), { 'vip.enable': 'false' });
    }
  });

  it('on a phone keeps the price and 下载 in a bar at the bottom while reading; a refusal brings the panel with its reason', async () => {
    const poor = await newMember();
    // The page shows 5 魔豆, within the member's 20; the price is 500 by the time they buy.
    await setPrice(5);
    const page = await pageAs(poor.token, { width: 390, height: 844 });
    await page.goto(need('path'));
    const bar = page.getByRole('region', { name: '下载', exact: true });
    await bar.getByText('5 魔豆', { exact: true }).waitFor();
    await setPrice(500);
    const box = (await bar.boundingBox())!;
    expect(box.y + box.height).toBeCloseTo(844, 0);
    // The panel itself is below the document, out of sight.
    const panel = page.getByRole('region', { name: '下载文档' });
    expect((await panel.boundingBox())!.y).toBeGreaterThan(844);
    // While one types (the on-screen keyboard up), it is out of the way.
    await page.getByPlaceholder('页码').focus();
    await expect.poll(() => bar.isVisible()).toBe(false);
    await page.getByPlaceholder('页码').blur();
    await expect.poll(() => bar.isVisible()).toBe(true);
    await bar.getByRole('button', { name: '下载' }).click();
    // The confirmation fits the bar beside the price.
    const confirm = bar.getByRole('button', { name: '确定下载' });
    const confirmBox = (await confirm.boundingBox())!;
    expect(confirmBox.x + confirmBox.width).toBeLessThanOrEqual(390 + EDGE_SLACK_PX);
    expect(await bar.getByText('5 魔豆', { exact: true }).isVisible()).toBe(true);
    await confirm.click();
    // Not the 500 it costs now: the server says the price, and the panel then asks it.
    await panel.getByRole('alert').filter({ hasText: '该文档的下载价格现为 500 魔豆，请确认后再下载' }).waitFor();
    await panel.getByRole('button', { name: '下载（500 魔豆）' }).waitFor();
    await expect
      .poll(async () => {
        const shown = (await panel.boundingBox())!;
        return shown.y >= 0 && shown.y + shown.height <= 844;
      })
      .toBe(true);
    // The panel on the screen, the bar steps aside.
    await expect.poll(() => bar.isVisible()).toBe(false);
    // Opened again (in the same page) at 500 魔豆: the bar says by how much the member is short, within the phone's
    // width.
    const again = page;
    await again.goto(need('path'));
    const shortBar = again.getByRole('region', { name: '下载', exact: true });
    await shortBar.getByText('500 魔豆', { exact: true }).waitFor();
    await shortBar.getByRole('button', { name: '下载' }).click();
    const short = shortBar.getByRole('group', { name: '魔豆不足' });
    await short.getByText('下载需 500 魔豆，您现有 20 魔豆，还差 480 魔豆。').waitFor();
    const shortBox = (await short.boundingBox())!;
    expect(shortBox.x + shortBox.width).toBeLessThanOrEqual(390 + EDGE_SLACK_PX);
    const barBox = (await shortBar.boundingBox())!;
    expect(barBox.y + barBox.height).toBeCloseTo(844, 0);
    expect(await shortBar.getByRole('button', { name: '确定下载' }).count()).toBe(0);
    // A wide screen has the panel beside the document and no bar (the same page, widened and loaded again).
    const wide = page;
    await wide.setViewportSize({ width: 1280, height: 900 });
    await wide.goto(need('path'));
    await wide.getByRole('region', { name: '下载文档' }).getByRole('button', { name: '下载（500 魔豆）' }).waitFor();
    expect(await wide.getByRole('region', { name: '下载', exact: true }).isVisible()).toBe(false);
  });
});

describe("the admin's documents", () => {
  /** The admin's page, kept across these tests: the next screens reached inside the app or loaded again. */
  const adminPage = keptAdminPage(site);
  const row = (page: Page, text: string) => page.locator('.app-resource-table tbody tr', { hasText: text });
  const dialog = (page: Page, title: string) =>
    page.locator('.semi-modal', { has: page.locator('.semi-modal-title', { hasText: title }) });
  const toast = (page: Page, title: string) => page.locator('.app-toast', { hasText: title }).first().waitFor();

  it('approves a document waiting for review; it converts and opens in the reader', async () => {
    const reviewed = await admin('POST', '/api/v1/group', {
      body: { title: '待审作者', enable_upload: true, enable_document_review: true },
    });
    const author = await newMember();
    await admin('PUT', '/api/v1/user', { body: { id: author.id, group_id: [2, reviewed.body.id] } });
    const title = '等待审核的报告';
    const id = await upload(author.token, 'report.pdf', readFileSync(fixture('chinese.pdf')), title);
    expect((await waitForStatus(site.url, author.token, id, [6])).status).toBe(6);

    // Converted while it waits: the reviewer reads it in the reader, told that others may not.
    const adminToken = await tokenOf('admin', site.adminPassword);
    await expect
      .poll(
        async () =>
          (await api(site.url, 'GET', '/api/v1/document', { token: adminToken, query: { id } })).body.pages ?? 0,
        { timeout: 90_000 },
      )
      .toBeGreaterThan(0);
    const reader = await adminPage(`/library/${need('categoryId')}/${id}`);
    await reader.getByText('文档正在审核中，目前仅上传者和管理员可以阅读，审核通过后公开。').waitFor();
    await reader.waitForFunction(
      () => ((document.querySelector('img[alt="第 1 页"]') as HTMLImageElement | null)?.naturalWidth ?? 0) > 0,
    );

    // The list in the same page, reached inside the app.
    await openInApp(reader, '/admin/document/list');
    const page = reader;
    await row(page, title).getByText('待审核', { exact: true }).waitFor();
    await row(page, title).locator('.semi-checkbox').click();
    await page.getByRole('button', { name: '审核通过' }).click();
    await dialog(page, '审核通过').getByRole('button', { name: '确定' }).click();
    await toast(page, '已审核通过');
    expect((await waitForStatus(site.url, author.token, id, [2])).status).toBe(2);
    await page.getByRole('button', { name: '刷新列表' }).click();
    await row(page, title).getByText('已转换').waitFor();
    expect(
      await row(page, title)
        .getByRole('link', { name: `阅读“${title}”` })
        .getAttribute('href'),
    ).toBe(`/library/${need('categoryId')}/${id}`);
  });

  it('reconverts a failed document', async () => {
    const title = '损坏的文件';
    const id = await upload(need('uploaderToken'), 'broken.pdf', brokenPdf(), title);
    const failed = await waitForStatus(site.url, need('uploaderToken'), id, [3]);
    expect(failed.convert_error).toBeTruthy();

    const page = await adminPage('/admin/document/list');
    await row(page, title).getByText('转换失败').waitFor();
    await row(page, title).getByText(failed.convert_error).waitFor();
    const reconverting = page.waitForResponse(
      (res) => res.url().endsWith('/api/v1/document/reconvert') && res.request().method() === 'PUT',
    );
    await row(page, title)
      .getByRole('button', { name: `重新转换“${title}”` })
      .click();
    await dialog(page, '重新转换').getByRole('button', { name: '确定' }).click();
    expect((await reconverting).status()).toBe(200);
    await toast(page, '已加入转换队列');
    // It was queued again, and (still broken) fails again with its reason.
    expect((await waitForStatus(site.url, need('uploaderToken'), id, [3])).convert_error).toBeTruthy();
  });

  // One admin page for both: the list the recovered document is back on is where its category is set.
  it('deletes a document to the recycle bin and recovers it; sets the category of documents in a batch, and lists search records and attachments', async () => {
    // The category the batch sets, there before the list is loaded.
    const extra = await admin('POST', '/api/v1/category', { body: { title: '精选资料', type: 0, enable: true } });
    expect(extra.status).toBe(200);
    const page = await adminPage('/admin/document/list');
    await row(page, TITLE).waitFor();
    await row(page, TITLE)
      .getByRole('button', { name: `删除“${TITLE}”` })
      .click();
    const confirm = dialog(page, '删除文档');
    await confirm.getByText('删除的文档会移入回收站，可以在回收站恢复。').waitFor();
    await confirm.getByRole('button', { name: '删除' }).click();
    await toast(page, '删除成功');
    await row(page, TITLE).waitFor({ state: 'detached' });

    await openInApp(page, '/admin/document/recycle');
    await row(page, TITLE).waitFor();
    await row(page, TITLE)
      .getByRole('button', { name: `恢复“${TITLE}”` })
      .click();
    await dialog(page, '恢复').getByRole('button', { name: '确定' }).click();
    await toast(page, '已恢复');
    await row(page, TITLE).waitFor({ state: 'detached' });
    await openInApp(page, '/admin/document/list');
    await row(page, TITLE).waitFor();

    // Then, on the same list: its category set in a batch.
    await row(page, TITLE).locator('.semi-checkbox').click();
    await page.getByRole('button', { name: '设置分类' }).click();
    const setting = dialog(page, '设置分类');
    await setting.locator('.semi-select').click();
    await page.locator('.semi-select-option', { hasText: '精选资料' }).first().click();
    await setting.getByRole('button', { name: '确定' }).click();
    await toast(page, '分类已设置');
    await row(page, TITLE).getByText('精选资料').waitFor();

    await openInApp(page, '/admin/document/searchrecord');
    await row(page, BODY_WORD).first().waitFor();
    await openInApp(page, '/admin/attachment');
    await row(page, 'broken.pdf').getByText('文档').waitFor();

    await openInApp(page, '/admin/dashboard');
    await page.getByRole('region', { name: '文档转换组件' }).getByText('已安装').first().waitFor();
  });
});
