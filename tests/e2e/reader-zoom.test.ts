// Zooming the reader in Chromium against the real gateway and embedded backend, at 1280 and
// 390 px: once the pages are wider than the screen, the spot of the page under the middle of the
// view stays there, zoomed in or out, as the page read stays under the toolbar (reader-text's zoom).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, login } from '../helpers/backend';
import { createDocument, uploader, waitForStatus } from '../helpers/document-api';
import { textPdf } from '../helpers/documents';
import { appTookOver, setTokenCookie, useSiteInBrowser } from './browser';

const VIEWPORTS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
] as const;

const site = useSiteInBrowser();

let author: { token: string };
let readerPath = '';

beforeAll(async () => {
  const adminToken = await login(site.backendUrl, 'admin', site.adminPassword);
  author = await uploader(site.backendUrl, adminToken);
  await api(site.backendUrl, 'POST', '/api/v1/category', { token: adminToken, body: { title: '放大阅读' } });
  const categoryId = (await api(site.backendUrl, 'GET', '/api/v1/category/list', { query: { wd: '放大阅读' } })).body
    .category[0].id as number;
  const doc = await createDocument(site.backendUrl, author.token, textPdf(3), 'zoom.pdf', {
    title: 'Zoomed pages',
    category_id: [categoryId],
  });
  await waitForStatus(site.backendUrl, author.token, doc.id, [2], 90_000);
  readerPath = `/library/${categoryId}/${doc.id}`;
}, 120_000);

async function openReader(viewport: { width: number; height: number }): Promise<Page> {
  const visit = await site.visit();
  await visit.page.setViewportSize(viewport);
  await setTokenCookie(visit.context, site.url, author.token);
  await visit.page.goto(readerPath);
  await appTookOver(visit.page);
  await visit.page.getByRole('toolbar', { name: '阅读工具' }).waitFor();
  return visit.page;
}

/**
 * Where the middle of the pages' view falls across them (0 their left edge, 1 their right), and
 * whether they are wider than the view.
 */
const middleOf = (page: Page) =>
  page.evaluate(() => {
    const view = document.querySelector<HTMLElement>('.app-reader__viewport')!;
    const pages = document.querySelector('.app-reader__pages')!.getBoundingClientRect();
    const middle = view.getBoundingClientRect().left + view.clientLeft + view.clientWidth / 2;
    return { share: (middle - pages.left) / pages.width, wider: view.scrollWidth > view.clientWidth };
  });

describe('zoom', () => {
  it('keeps the spot under the middle of the view there when the pages are wider than the screen', async () => {
    for (const viewport of VIEWPORTS) {
      const page = await openReader(viewport);
      const zoomTo = async (button: string, zoom: string) => {
        await page.getByRole('button', { name: button, exact: true }).click();
        await expect.poll(() => page.getByLabel('缩放比例').textContent()).toBe(zoom);
      };
      // From the width, the middle of the pages stays in the middle (it was left at their left edge).
      for (const zoom of ['125%', '150%', '200%']) {
        await zoomTo('放大', zoom);
        const middle = await middleOf(page);
        expect(middle.wider, `${viewport.width} px, ${zoom}`).toBe(true);
        expect(Math.abs(middle.share - 0.5), `${viewport.width} px, ${zoom}`).toBeLessThan(0.01);
      }
      // Scrolled towards the right edge, that spot stays in the middle, zoomed out and in again.
      await page.evaluate(() => {
        const view = document.querySelector<HTMLElement>('.app-reader__viewport')!;
        view.scrollLeft = (view.scrollWidth - view.clientWidth) * 0.8;
      });
      const moved = await middleOf(page);
      expect(moved.share).toBeGreaterThan(0.6);
      for (const [button, zoom] of [
        ['缩小', '150%'],
        ['放大', '200%'],
      ] as const) {
        await zoomTo(button, zoom);
        expect(Math.abs((await middleOf(page)).share - moved.share), `${viewport.width} px, ${zoom}`).toBeLessThan(
          0.01,
        );
      }
      // Back to the width: nothing to scroll sideways, the pages whole in the view.
      await zoomTo('适合宽度', '100%');
      const fit = await middleOf(page);
      expect(fit.wider, `${viewport.width} px`).toBe(false);
      expect(fit.share, `${viewport.width} px`).toBeCloseTo(0.5, 2);
    }
  });
});
