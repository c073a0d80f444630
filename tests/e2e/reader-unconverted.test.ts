// The reader of a document whose conversion failed, in Chromium against the real gateway and
// embedded backend, on a phone and a desktop: it says the document could not be converted and
// offers only what applies to it (the download of its file, 收藏, 举报, 分享), no rating or comments.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, login } from '../helpers/backend';
import { createDocument, waitForStatus } from '../helpers/document-api';
import { brokenPdf } from '../helpers/documents';
import { useSiteInBrowser } from './browser';

const site = useSiteInBrowser();

let path: string;

beforeAll(async () => {
  const token = await login(site.backendUrl, 'admin', site.adminPassword);
  await api(site.backendUrl, 'POST', '/api/v1/category', { token, body: { title: '资料' } });
  const category = (await api(site.backendUrl, 'GET', '/api/v1/category/list', { query: { wd: '资料' } })).body
    .category[0].id;
  const doc = await createDocument(site.backendUrl, token, brokenPdf(), 'broken.pdf', {
    title: '损坏的讲义',
    category_id: [category],
  });
  await waitForStatus(site.backendUrl, token, doc.id, [3], 90_000);
  path = `/library/${category}/${doc.id}`;
});

describe('the reader of a document that could not be converted', () => {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ])
    it(`says so and offers no rating or comments, at ${viewport.width} px`, async () => {
      const page = await site.adminPage(path);
      await page.setViewportSize(viewport);
      await page.getByText('文档转换失败', { exact: true }).waitFor();
      await page.getByText(/^原因：/).waitFor();
      expect(await page.getByRole('group', { name: '给文档评分' }).count()).toBe(0);
      expect(await page.getByText(/暂无评分|人评分/).count()).toBe(0);
      expect(await page.getByRole('region', { name: /评论/ }).count()).toBe(0);
      expect(await page.getByRole('textbox', { name: /查找/ }).count()).toBe(0);
      await page.getByRole('heading', { name: '下载文档' }).waitFor({ state: 'attached' });
      expect(await page.getByRole('button', { name: '举报' }).count()).toBe(1);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      ).toBeLessThanOrEqual(0);
    });
});
