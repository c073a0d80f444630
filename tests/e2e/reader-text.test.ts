// Inside a document (issue 45) in Chromium against the real gateway and embedded backend, at
// 1280 and 390 px: find in the document lists the hits by page and marks the chosen one on the
// page image; a site-search hit opens the reader at its page with the words marked; the text
// over the page images is selectable (and copied with the page's address) as the site's setting
// allows; thumbnails jump; a member resumes where they left off on another browser; full screen
// keeps the page. Nothing of the pages past the preview reaches a reader who may not read them.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, login } from '../helpers/backend';
import { createDocument, uploader, waitForStatus, type CreatedDocument } from '../helpers/document-api';
import { linesPdf } from '../helpers/documents';
import { appTookOver, useSiteInBrowser } from './browser';

const SECRET = 'Quokkazanzibar';
const PAGES = 8;
const PREVIEW = 5;
const VIEWPORTS = [{ width: 1280, height: 900 }, { width: 390, height: 844 }] as const;

/** Eight pages; the beacon word on pages 2 and 4 (twice on 4), the secret only on the last. */
const pdfPages = Array.from({ length: PAGES }, (_, i) => {
  const n = i + 1;
  const lines = [`Chapter ${n} of the keeper's log`, 'The sea was calm and the night was long.'];
  if (n === 2) lines.push('A beacon shone over the rocks.');
  if (n === 4) lines.push('Another beacon, then a second beacon further out.');
  if (n === PAGES) lines.push(`The secret word is ${SECRET}.`);
  return lines;
});

const site = useSiteInBrowser({ env: () => ({ CONFIG_CONVERTER_MAX_PREVIEW: String(PREVIEW) }) });

let adminToken: string;
let doc: CreatedDocument;
let categoryId = 0;
const readerPath = () => `/library/${categoryId}/${doc.id}`;

beforeAll(async () => {
  adminToken = await login(site.backendUrl, 'admin', site.adminPassword);
  const author = await uploader(site.backendUrl, adminToken);
  await api(site.backendUrl, 'POST', '/api/v1/category', { token: adminToken, body: { title: '灯塔日志' } });
  categoryId = (await api(site.backendUrl, 'GET', '/api/v1/category/list', { query: { wd: '灯塔日志' } })).body.category[0].id as number;
  doc = await createDocument(site.backendUrl, author.token, linesPdf(pdfPages), 'keeper.pdf', { title: 'The keeper\'s log', price: 5, category_id: [categoryId] });
  await waitForStatus(site.backendUrl, author.token, doc.id, [2], 90_000);
}, 120_000);

async function openReader(viewport: { width: number; height: number }, path = readerPath()): Promise<Page> {
  const visit = await site.visit();
  await visit.page.setViewportSize(viewport);
  await visit.page.goto(path);
  await appTookOver(visit.page);
  await visit.page.getByRole('toolbar', { name: '阅读工具' }).waitFor();
  return visit.page;
}

/** The page box of the current find mark, and the box of the page it is on, in CSS pixels. */
async function currentMark(page: Page) {
  return page.evaluate(() => {
    const mark = document.querySelector('.app-text-layer__mark--current');
    const frame = mark?.closest<HTMLElement>('[data-page]');
    if (!mark || !frame) return null;
    const m = mark.getBoundingClientRect();
    const f = frame.getBoundingClientRect();
    return { page: Number(frame.dataset.page), x: (m.left - f.left) / f.width, y: (m.top - f.top) / f.height, width: m.width, height: m.height, inSight: m.top >= 0 && m.bottom <= window.innerHeight };
  });
}

describe('find in this document', () => {
  it('lists the hits by page with their line, and marks the chosen one on its page image, in sight', async () => {
    for (const viewport of VIEWPORTS) {
      const page = await openReader(viewport);
      await page.getByRole('button', { name: '查找' }).click();
      await page.getByLabel('查找文档中的文字').fill('Beacon');
      const hits = page.getByRole('list', { name: '查找结果' }).getByRole('button');
      await expect.poll(() => hits.allTextContents()).toEqual([
        '第 2 页A beacon shone over the rocks.',
        '第 4 页Another beacon, then a second beacon further out.',
        '第 4 页Another beacon, then a second beacon further out.',
      ]);
      await expect.poll(() => page.getByText('共 3 处').count()).toBe(1);

      await hits.nth(2).click();
      await expect.poll(() => currentMark(page), { message: `${viewport.width} px` }).toMatchObject({ page: 4, inSight: true });
      // linesPdf draws 12 pt Times from 72 pt: "Another " ends near 112 pt, "…then a second " near 225 pt (of 595).
      const mark = (await currentMark(page))!;
      expect(mark.x).toBeGreaterThan(0.33);
      expect(mark.x).toBeLessThan(0.45);
      const first = await page.locator('[data-page="4"] .app-text-layer__mark').first().evaluate((element) => {
        const frame = element.closest('[data-page]')!.getBoundingClientRect();
        return (element.getBoundingClientRect().left - frame.left) / frame.width;
      });
      expect(first).toBeGreaterThan(0.15);
      expect(first).toBeLessThan(0.22);
      // The third line: 82 + 2 × 20 pt from the top of an 842 pt page.
      expect(mark.y).toBeGreaterThan((122 - 16) / 842);
      expect(mark.y).toBeLessThan(122 / 842);
      expect(mark.width).toBeGreaterThan(10);
      expect(await page.locator('[data-page="4"] .app-text-layer__mark').count()).toBe(2);
      if (process.env.READER_SHOTS) await page.screenshot({ path: `${process.env.READER_SHOTS}/find-${viewport.width}.png` });
      await expect.poll(() => page.getByLabel(/当前第 \d+ 页/).textContent()).toMatch(/^4 \//);
    }
  });

  it('finds nothing past the preview for a visitor, and never asks for the text of a page they may not read', async () => {
    const page = await openReader(VIEWPORTS[0]);
    const asked: string[] = [];
    page.on('request', (request) => {
      if (/\/view\/page\/[0-9a-f]{32}\/\d+\.json$/.test(request.url())) asked.push(request.url());
    });
    await page.getByRole('button', { name: '查找' }).click();
    await page.getByLabel('查找文档中的文字').fill(SECRET);
    await expect.poll(() => page.getByText('未找到').count()).toBe(1);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => page.locator(`[data-page-text="${PREVIEW}"]`).count()).toBe(1);
    expect(asked.map((url) => Number(/(\d+)\.json$/.exec(url)![1])).every((n) => n <= PREVIEW)).toBe(true);
    expect(await page.evaluate(() => document.body.innerText)).not.toContain(SECRET);
    const refused = await page.evaluate(async (url) => (await fetch(url)).status, `/view/page/${doc.hash}/${PAGES}.json`);
    expect(refused).toBe(403);
  });
});

