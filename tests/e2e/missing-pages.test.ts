// Pages of what is not there, in Chromium against the real gateway and embedded backend: the
// gateway's page carries the failed read of its subject (start data `routeFailures`), and the
// app shows the 404 from it, without asking the API again (one request less, no 404 in the console).
import { beforeAll, describe, expect, it } from 'vitest';
import { api, login } from '../helpers/backend';
import { appTookOver, useSiteInBrowser } from './browser';

const site = useSiteInBrowser();

let category: number;

beforeAll(async () => {
  const adminToken = await login(site.backendUrl, 'admin', site.adminPassword);
  await api(site.backendUrl, 'POST', '/api/v1/category', { token: adminToken, body: { title: '资料' } });
  category = (await api(site.backendUrl, 'GET', '/api/v1/category/list', { query: { wd: '资料' } })).body.category[0]
    .id;
});

describe('a page whose subject does not exist', () => {
  it('shows its 404 from what the page carried, without asking the API for it again', async () => {
    const page = await site.open();
    await page.setViewportSize({ width: 390, height: 844 });
    const apiCalls: string[] = [];
    const notFound: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/')) apiCalls.push(url.pathname + url.search);
    });
    page.on('response', (response) => {
      if (response.status() === 404 && response.request().resourceType() !== 'document')
        notFound.push(new URL(response.url()).pathname);
    });
    for (const [path, title] of [
      [`/library/${category}/999999`, '文档不存在'],
      ['/article/detail/999999', '文章不存在'],
      ['/article/no-such-page', '文章不存在'],
      ['/library/999999', '分类不存在'],
    ] as const) {
      const answer = await page.goto(path);
      expect(answer?.status(), path).toBe(404);
      await appTookOver(page);
      await page.getByText(title, { exact: true }).waitFor();
      await page.waitForLoadState('networkidle');
    }
    expect(apiCalls.filter((call) => /^\/api\/v1\/(document|article)\?/.test(call))).toEqual([]);
    expect(notFound).toEqual([]);
  });
});
