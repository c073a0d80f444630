// A member's normal paths in Chromium log no error in the console (decision 099): the reader of a
// document they may not read past its preview learns so without asking for a page the server
// refuses (a 403), and 个人中心 before the day's check-in without MOREDOC's 404 of
// GET /api/v1/user/sign.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, registerMember } from '../helpers/backend';
import { createDocument, waitForStatus } from '../helpers/document-api';
import { fixture } from '../helpers/documents';
import { appTookOver, gatewayToken, setTokenCookie, useSiteInBrowser } from './browser';

const site = useSiteInBrowser({
  // Two free pages of the three-page fixture: the rest is for buyers, VIP, the owner and the admins.
  env: () => ({ CONFIG_CONVERTER_MAX_PREVIEW: '2' }),
});

let documentPath: string;

beforeAll(async () => {
  const token = await gatewayToken(site.url, 'admin', site.adminPassword);
  await api(site.url, 'POST', '/api/v1/category', { token, body: { title: '控制台资料', type: 0, enable: true } });
  const categories = await api(site.url, 'GET', '/api/v1/category/list', { token, query: { type: 0 } });
  const categoryId = categories.body.category.find((c: { title: string }) => c.title === '控制台资料').id as number;
  const doc = await createDocument(site.url, token, readFileSync(fixture('chinese.pdf')), '预览文档.pdf', {
    category_id: [categoryId],
  });
  await waitForStatus(site.url, token, doc.id, [2], 90_000);
  documentPath = `/library/${categoryId}/${doc.id}`;
}, 120_000);

describe("a member's console", () => {
  it('stays free of errors on a document past its free preview and on 个人中心 before the check-in', async () => {
    const member = await registerMember(site.backendUrl);
    const { page, context } = await site.visit();
    const logged: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') logged.push(`${page.url()}: ${message.text()}`);
    });
    await setTokenCookie(context, site.url, member.token);

    await page.goto(documentPath);
    await appTookOver(page);
    await page.getByRole('heading', { name: '免费预览已结束' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('img', { name: '第 3 页' }).count()).toBe(0);

    await page.goto('/member');
    await appTookOver(page);
    await page.getByRole('button', { name: '每日签到' }).waitFor();
    await page.waitForLoadState('networkidle');

    expect(logged).toEqual([]);
  });
});
