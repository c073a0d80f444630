// Mobile numbers in Chromium, 390 px wide: register with a number and the SMS code, then log
// in with a new code; a new number signs up by signing in where registration is open, and is
// refused before any text where it is closed; the admin finds the messages, masked, on /admin/user/sms. SMS go
// through the log-only provider; the codes are read from its log in the site's database,
// as a developer reads them, never from an answer.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { setConfig, withDatabase } from '../helpers/backend';
import { ageSmsLog, lastSmsCode } from '../helpers/sms';
import { gatewayToken, openInApp, useSiteInBrowser } from './browser';

const site = useSiteInBrowser({ env: () => ({ CONFIG_SMS_ENABLE: 'true' }) });

const MOBILE = `139${String(process.pid % 100_000_000).padStart(8, '0')}`;
const MASKED = `${MOBILE.slice(0, 3)}****${MOBILE.slice(-4)}`;
const NEW_MOBILE = `137${String(process.pid % 100_000_000).padStart(8, '0')}`;
const CLOSED_MOBILE = `136${String(process.pid % 100_000_000).padStart(8, '0')}`;

async function phoneWidth(): Promise<Page> {
  const page = await site.open();
  await page.setViewportSize({ width: 390, height: 844 });
  return page;
}

async function fitsTheWidth(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

/** Clicks 获取验证码 and reads the code the log-only provider recorded. */
async function requestCode(page: Page): Promise<string> {
  const sent = page.waitForResponse((response) => response.url().endsWith('/api/v1/user/sms/code'));
  await page.getByRole('button', { name: '获取验证码' }).click();
  expect((await sent).status()).toBe(200);
  await page.getByRole('button', { name: /秒后重发/ }).waitFor();
  return lastSmsCode(site.dataDir, MOBILE);
}

describe('mobile numbers in the browser', () => {
  it('registers with a phone number and an SMS code, logged in with the httpOnly cookie', async () => {
    const page = await phoneWidth();
    await page.goto('/auth/register');
    expect(await page.getByRole('tab', { name: '手机号注册' }).getAttribute('aria-selected')).toBe('true');
    await page.getByLabel('手机号', { exact: true }).fill(`+86 ${MOBILE}`);
    const code = await requestCode(page);
    await page.getByLabel('短信验证码', { exact: true }).fill(code);
    await page.getByLabel('密码', { exact: true }).fill('phone-secret');
    await page.getByLabel('确认密码').fill('phone-secret');
    await fitsTheWidth(page);
    await page.getByRole('button', { name: '注册', exact: true }).click();

    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => page.getByTestId('user-menu').textContent()).toMatch(/手机用户\d{6}/);
    const token = (await page.context().cookies()).find((c) => c.name === 'token');
    expect(token).toMatchObject({ httpOnly: true });
    expect(await page.evaluate(() => document.cookie)).not.toContain('token');

    // The member's profile, reached inside the app (its calls carry the cookie).
    await openInApp(page, '/member/profile');
    await page.getByText(`已绑定 ${MASKED}`).waitFor();
    await fitsTheWidth(page);
  });

  it('logs in with the number and a new code, back to the page asked for', async () => {
    // A minute has passed since the registration's code, as far as the limits go.
    await ageSmsLog(site.dataDir, MOBILE, 61_000);
    const page = await phoneWidth();
    await page.goto('/auth/login?redirect=/member');
    await page.getByRole('tab', { name: '短信登录' }).click();
    await page.getByLabel('手机号', { exact: true }).fill(MOBILE);
    await page.getByLabel('短信验证码', { exact: true }).fill('000000');
    await page.getByRole('button', { name: '登录', exact: true }).click();
    // Said under the code field, which has the keyboard (092bea02), not in a toast.
    await page.locator('.app-field__error', { hasText: '请先获取短信验证码' }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-invalid'))).toBe('true');
    const code = await requestCode(page);
    await page.getByLabel('短信验证码', { exact: true }).fill(code);
    await fitsTheWidth(page);
    await page.getByRole('button', { name: '登录', exact: true }).click();

    await page.waitForURL((url) => url.pathname === '/member');
    await expect.poll(() => page.getByTestId('user-menu').textContent()).toMatch(/手机用户\d{6}/);
  });

  it('signs a new number up as it signs in, as the form says, where registration is open', async () => {
    const page = await phoneWidth();
    await page.goto('/auth/login');
    await page.getByRole('tab', { name: '短信登录' }).click();
    await page.getByText('验证码登录，未注册手机号将自动注册').waitFor();
    await page.getByLabel('手机号', { exact: true }).fill(NEW_MOBILE);
    const sent = page.waitForResponse((response) => response.url().endsWith('/api/v1/user/sms/code'));
    await page.getByRole('button', { name: '获取验证码' }).click();
    expect((await sent).status()).toBe(200);
    await page.getByLabel('短信验证码', { exact: true }).fill(await lastSmsCode(site.dataDir, NEW_MOBILE));
    await fitsTheWidth(page);
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.locator('.app-toast', { hasText: '注册成功' }).waitFor();
    await expect.poll(() => page.getByTestId('user-menu').textContent()).toMatch(/手机用户\d{6}/);
  });

  it('says nothing of signing up and texts no unregistered number where registration is closed', async () => {
    const token = await gatewayToken(site.url, 'admin', site.adminPassword);
    await setConfig(site.url, token, { 'security.enable_register': 'false' });
    try {
      const page = await phoneWidth();
      await page.goto('/auth/login');
      await page.getByRole('tab', { name: '短信登录' }).click();
      await page.getByLabel('手机号', { exact: true }).fill(CLOSED_MOBILE);
      const sent = page.waitForResponse((response) => response.url().endsWith('/api/v1/user/sms/code'));
      await page.getByRole('button', { name: '获取验证码' }).click();
      expect((await sent).status()).toBe(404);
      await page.locator('.app-toast').getByText('该手机号尚未注册，本站暂未开放注册').waitFor();
      expect(await page.getByText('未注册手机号将自动注册').count()).toBe(0);
      expect(
        await withDatabase(
          site.dataDir,
          async (db) =>
            (await db.selectFrom('sms_log').select('id').where('mobile', '=', CLOSED_MOBILE).execute()).length,
        ),
      ).toBe(0);
    } finally {
      await setConfig(site.url, token, { 'security.enable_register': 'true' });
    }
  });

  it('shows the admin both messages on /admin/user/sms with the number masked', async () => {
    const page = await site.adminPage('/admin/user/sms');
    await page.getByRole('heading', { level: 1, name: '短信管理' }).waitFor();
    await expect.poll(() => page.getByText(MASKED, { exact: true }).count()).toBe(2);
    expect(await page.getByText(MOBILE).count()).toBe(0);
    await page.getByRole('heading', { name: /发送统计与限制/ }).waitFor();
  });
});
