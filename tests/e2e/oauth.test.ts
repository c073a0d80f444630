// WeChat sign-in in Chromium: login page → the provider's page (a stub that signs the
// visitor in at once) → /oauth/callback → the page the visitor asked for, logged in. The two
// refused sign-ins share a visitor's context, which neither logs in.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startOAuthProvider, STUB_APPS, type OAuthProviderStub } from '../helpers/oauth-provider';
import { keptVisit, useSiteInBrowser } from './browser';

let stub: OAuthProviderStub;

beforeAll(async () => {
  stub = await startOAuthProvider();
});
afterAll(() => stub?.close());
afterEach(() => {
  stub.fault = null;
});
// Registered after the stub's hooks: its env reads the stub's URLs, and the site closes first.
const site = useSiteInBrowser({
  env: () => ({
    CONFIG_OAUTH_WECHAT: 'true',
    CONFIG_OAUTH_WECHAT_APP_ID: STUB_APPS.wechat.appId,
    CONFIG_OAUTH_WECHAT_APP_SECRET: STUB_APPS.wechat.secret,
    ...stub.env,
  }),
});

/** `oauth.callback_url` must name the site, whose port is known only once it listens. */
async function pointCallbackAtSite(): Promise<void> {
  const sameOrigin = { origin: site.url, 'content-type': 'application/json' };
  const signedIn = await fetch(`${site.url}/api/v1/user/login`, {
    method: 'POST',
    headers: sameOrigin,
    body: JSON.stringify({ username: 'admin', password: site.adminPassword }),
  });
  const cookie = signedIn.headers
    .getSetCookie()
    .find((c) => c.startsWith('token='))!
    .split(';')[0]!;
  const list = await fetch(`${site.url}/api/v1/config/list?category=oauth`, { headers: { cookie } });
  const { config } = (await list.json()) as { config: { id: number; name: string }[] };
  const id = config.find((c) => c.name === 'callback_url')!.id;
  const saved = await fetch(`${site.url}/api/v1/config`, {
    method: 'PUT',
    headers: { ...sameOrigin, cookie },
    body: JSON.stringify({ config: [{ id, value: `${site.url}/oauth/callback` }] }),
  });
  expect(saved.status).toBe(200);
}

beforeAll(pointCallbackAtSite);
const refusedVisit = keptVisit(site);

async function open(): Promise<{ page: Page; navigations: string[] }> {
  const page = await site.open();
  const navigations: string[] = [];
  page.on('request', (request) => {
    if (request.isNavigationRequest()) navigations.push(request.url());
  });
  return { page, navigations };
}

describe('WeChat sign-in', () => {
  it('goes through WeChat and the callback to /member, logged in with an httpOnly cookie', async () => {
    const { page, navigations } = await open();
    await page.goto('/auth/login?redirect=/member');
    await expect.poll(() => page.getByRole('button', { name: 'QQ 登录' }).count()).toBe(0);
    await page.getByRole('button', { name: '微信登录' }).click();

    await page.waitForURL((url) => url.pathname === '/member');
    await page.getByRole('heading', { level: 1, name: '微信读者' }).waitFor();
    await page.getByTestId('user-menu').waitFor();

    const authorize = navigations.find((url) => url.startsWith(`${stub.url}/wechat/connect/qrconnect?`));
    expect(authorize).toBeDefined();
    expect(new URL(authorize!).searchParams.get('redirect_uri')).toBe(`${site.url}/oauth/callback?type=wechat`);
    expect(navigations.some((url) => url.startsWith(`${site.url}/oauth/callback?type=wechat&code=`))).toBe(true);

    expect(await page.evaluate(() => document.cookie)).not.toContain('token');
    const token = (await page.context().cookies()).find((c) => c.name === 'token');
    expect(token).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });

    // The session is the server's: a fresh page load of a member page is let through.
    await page.goto('/member/profile');
    await page.waitForURL((url) => url.pathname === '/member/profile');
  });

  it('refuses a callback link that this browser did not start (login CSRF), before any exchange', async () => {
    // An attacker starts a sign-in of their own and sends the victim the callback link.
    const started = await fetch(`${site.url}/api/v1/oauth/authorize?type=wechat`);
    const { url } = (await started.json()) as { url: string };
    const attackerState = new URL(url).searchParams.get('state')!;
    const { page } = await refusedVisit();
    await page.goto(`/oauth/callback?type=wechat&code=attacker-code&state=${attackerState}`);
    await page.getByText('登录请求无效或已过期，请从登录页重新发起第三方登录').waitFor();
    expect((await page.context().cookies()).find((c) => c.name === 'token')).toBeUndefined();
  });

  it('shows why the sign-in failed when WeChat refuses, and links back to the login page', async () => {
    const { page } = await refusedVisit();
    await page.goto('/auth/login?redirect=/member');
    stub.fault = 'refuse-app';
    await page.getByRole('button', { name: '微信登录' }).click();
    await page.waitForURL((url) => url.pathname === '/oauth/callback');
    await page.getByRole('heading', { name: '第三方登录失败' }).waitFor();
    await page.getByText('微信登录服务拒绝了请求（错误码 40125），请联系管理员').waitFor();
    expect((await page.context().cookies()).find((c) => c.name === 'token')).toBeUndefined();
    await page.getByRole('link', { name: '返回登录' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/login');
  });
});
