// The site switches in Chromium against the real gateway and embedded backend: an admin
// closes the site through the config API, then requires login. The visitor's tests share one
// context (each starts with a page load, the member's ends logged out).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, setConfig } from '../helpers/backend';
import {
  gatewayToken,
  keptVisit,
  openPage,
  setTokenCookie,
  submitLogin,
  useSiteInBrowser,
  type Visit,
} from './browser';

const STATEMENT = '<div>尊敬的用户，您好：</div><div>本站正在升级维护，预计明天恢复访问。</div>';

const site = useSiteInBrowser();
const visitor = keptVisit(site);
const open = async () => (await visitor()).page;
let adminVisit: Visit;
let adminToken: string;
const member = { username: `closed${Date.now() % 100000}`, password: 'secret-pass-1' };

beforeAll(async () => {
  // registration is refused while the site is closed: the member signs up first
  const registered = await api(site.url, 'POST', '/api/v1/user/register', { body: member });
  expect(registered.status).toBe(200);
  // the admin's visit lasts the whole file (it closes with the browser), logged in by the cookie
  // (the login form is the member's, below)
  adminToken = await gatewayToken(site.url, 'admin', site.adminPassword);
  adminVisit = await openPage(site.browser, site.url);
  await setTokenCookie(adminVisit.context, site.url, adminToken);
});

afterEach(() => {
  expect(adminVisit.errors).toEqual([]);
});

/** What /admin/config/security saves: the security rows by name, through the gateway with the admin's token. */
async function setSecurity(values: Record<string, string>): Promise<void> {
  await setConfig(
    site.url,
    adminToken,
    Object.fromEntries(Object.entries(values).map(([name, value]) => [`security.${name}`, value])),
  );
}

describe('是否关闭网站 (security.is_close)', () => {
  beforeAll(() => setSecurity({ is_close: 'true', close_statement: STATEMENT }));
  afterAll(() => setSecurity({ is_close: 'false' }));

  it('sends an anonymous visitor of / to the login page', async () => {
    const page = await open();
    const answer = await page.goto('/');
    expect(answer?.url()).toBe(`${site.url}/auth/login`);
    await page.getByRole('heading', { name: '登录' }).waitFor();
    expect(await page.getByRole('link', { name: '注册账号' }).count()).toBe(0);
  });

  it('shows a member the 站点已关闭 screen with the statement, after login and on a page load (503)', async () => {
    const page = await open();
    await page.goto('/auth/login');
    await submitLogin(page, member.username, member.password);
    await page.getByRole('heading', { name: '站点已关闭' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.getByTestId('close-statement').locator('p').allTextContents()).toEqual([
      '尊敬的用户，您好：',
      '本站正在升级维护，预计明天恢复访问。',
    ]);

    const answer = await page.goto('/library');
    expect(answer?.status()).toBe(503);
    await page.getByRole('heading', { name: '站点已关闭' }).waitFor();
    expect(await page.getByTestId('close-statement').innerText()).toContain('本站正在升级维护');
    expect(await page.title()).toBe('站点已关闭 - 魔豆文库');

    await page.getByRole('button', { name: '退出登录' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/login');
    await page.getByRole('heading', { name: '登录' }).waitFor();
  });

  it('still lets the admin open the home page', async () => {
    const page = adminVisit.page;
    const answer = await page.goto('/');
    expect(answer?.status()).toBe(200);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('魔豆文库');
    expect(await page.getByRole('heading', { name: '站点已关闭' }).count()).toBe(0);
  });
});

describe('登录后才能访问 (security.login_required)', () => {
  beforeAll(() => setSecurity({ login_required: 'true' }));
  afterAll(() => setSecurity({ login_required: 'false' }));

  it('sends an anonymous visitor of /library to /auth/login?redirect=%2Flibrary, and back after login', async () => {
    const page = await open();
    await page.goto('/library');
    expect(page.url()).toBe(`${site.url}/auth/login?redirect=%2Flibrary`);
    await submitLogin(page, member.username, member.password);
    await page.waitForURL((url) => url.pathname === '/library');
    await page.getByRole('heading', { name: '文库资料' }).waitFor();
  });
});
