// A new site as its owner meets it, in Chromium against the real gateway and embedded backend:
// the site starts as `npm start` starts a new one (a generated admin password; here no
// LibreOffice and no calibre), and the dashboard's checklist says what it still lacks.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, login, registerMember } from '../helpers/backend';
import { keptAdminPage, useSiteInBrowser, setTokenCookie } from './browser';

const site = useSiteInBrowser({ env: () => ({ ADMIN_PASSWORD: '', LIBREOFFICE_PATH: 'off', CALIBRE_PATH: 'off' }) });
// The dashboard's page, kept from the checklist's test to the phone's.
const adminPage = keptAdminPage(site);

const checklist = (page: Page) => page.getByRole('region', { name: '建站清单' });

async function fitsTheWidth(page: Page): Promise<void> {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);
}

// Before the checklist's test turns mail on.
describe('find-password on a site that sends neither mail nor SMS', () => {
  it('offers no e-mail form that would fail, and says whom to ask', async () => {
    const { page } = await site.visit();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/auth/forgot');
    await page.getByText('本站暂未开通邮箱或短信找回密码，请联系网站管理员重置密码。').waitFor();
    expect(await page.getByLabel('邮箱').count()).toBe(0);
    expect(await page.getByRole('tab').count()).toBe(0);
    await fitsTheWidth(page);
  });
});

describe('the first-run checklist on the dashboard', () => {
  it('lists what the new site lacks with a link to fix each, and drops an item once it is done', async () => {
    const page = await adminPage('/admin/dashboard');
    const items = checklist(page).locator('li strong');
    // What stays on the list once a category exists.
    const rest = [
      '邮件服务未配置',
      '没有可用的支付方式',
      '尚未填写网站域名',
      '首页标题和网站描述仍是默认的“MOREDOC · 魔豆文库”',
      '管理员仍在使用初始密码',
      '未安装 LibreOffice',
      '未安装 calibre',
    ];
    await expect.poll(() => items.allTextContents()).toEqual(['还没有文档分类', ...rest]);
    await checklist(page).getByRole('link', { name: '添加文档分类' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/document/category');

    const token = await login(site.backendUrl, 'admin', site.adminPassword);
    expect(
      (await api(site.backendUrl, 'POST', '/api/v1/category', { token, body: { title: '教育资料' } })).status,
    ).toBe(200);
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/admin/dashboard');
    // The whole list again (while it reloads it is empty, which contains no 还没有文档分类 either).
    await expect.poll(() => items.allTextContents()).toEqual(rest);
  });

  it('fits a phone, each link under its item', async () => {
    const page = await adminPage('/admin/dashboard', { width: 390, height: 844 });
    const first = checklist(page).locator('li').first();
    await first.locator('strong').waitFor();
    await fitsTheWidth(page);
    const title = await first.locator('strong').boundingBox();
    const link = await first.getByRole('link').boundingBox();
    expect(link!.y).toBeGreaterThan(title!.y + title!.height);
  });

  it('is gone once the generated admin password is changed, and the rest is done', async () => {
    const token = await login(site.backendUrl, 'admin', site.adminPassword);
    const config = await api(site.backendUrl, 'GET', '/api/v1/config/list', {
      token,
      query: { category: ['email', 'pay', 'system'] },
    });
    const id = (key: string) =>
      (config.body.config as { id: number; category: string; name: string }[]).find(
        (c) => `${c.category}.${c.name}` === key,
      )!.id;
    const values: Record<string, string> = {
      'email.enable': 'true',
      'email.host': 'smtp.example.com',
      'email.username': 'noreply@example.com',
      'pay.enable': 'true',
      'pay.provider': 'manual',
      'pay.manual_instructions': '转账至招商银行 6225 **** 0001，备注订单号',
      'system.domain': 'https://docs.example.com',
      'system.title': '书香文库 - 免费文档分享',
      'system.description': '书香文库收录各类学习资料。',
    };
    const saved = await api(site.url, 'PUT', '/api/v1/config', {
      token,
      body: { config: Object.entries(values).map(([key, value]) => ({ id: id(key), value })) },
    });
    expect(saved.status, saved.text).toBe(200);
    const changed = await api(site.backendUrl, 'PUT', '/api/v1/user/password', {
      token,
      body: { id: 1, old_password: site.adminPassword, new_password: 'a-new-admin-password' },
    });
    expect(changed.status, changed.text).toBe(200);

    const { page } = await site.visit();
    await page.goto('/auth/login?redirect=/admin/dashboard');
    await page.getByLabel('用户名').fill('admin');
    await page.getByLabel('密码', { exact: true }).fill('a-new-admin-password');
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/admin/dashboard');
    const items = checklist(page).locator('li strong');
    await expect.poll(() => items.allTextContents()).toEqual(['未安装 LibreOffice', '未安装 calibre']);
  });
});

describe('a member of the new site', () => {
  it('finds 上传文档 and is offered only the formats this server converts (no LibreOffice, no calibre here)', async () => {
    const member = await registerMember(site.backendUrl);
    const { page, context } = await site.visit();
    await setTokenCookie(context, site.url, member.token);
    await page.goto('/');
    await page.getByRole('link', { name: '上传文档' }).click();
    await page.getByRole('heading', { name: '上传文档', level: 1 }).waitFor();
    await page.getByText('支持 PDF、文本、EPUB、MOBI、AZW 格式，可一次选择多个文件，单个文件不超过 50 MB。').waitFor();
    expect(await page.getByTestId('document-files').getAttribute('accept')).toBe('.pdf,.txt,.md,.epub,.mobi,.azw');
  });
});
