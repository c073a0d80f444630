// The member area's states in Chromium when the site goes away under the member: the pictures
// of the empty and error states come as chunks of their own, which then cannot load either, nor
// can the code of the next screen.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { registerMember } from '../helpers/backend';
import { appTookOver, setTokenCookie, useSiteInBrowser } from './browser';

const site = useSiteInBrowser();

async function memberPage(width: number): Promise<Page> {
  const member = await registerMember(site.backendUrl);
  const visit = await site.visit();
  await visit.page.setViewportSize({ width, height: 844 });
  await setTokenCookie(visit.context, site.url, member.token);
  return visit.page;
}

describe('the member area without the illustrations', () => {
  it('still shows an empty list, and a failed one with 加载失败 and 重试, when their pictures cannot load', async () => {
    const page = await memberPage(390);
    await page.goto('/member');
    await appTookOver(page);
    await page.route('**/assets/Illustration*', (route) => route.abort());

    await page.getByRole('link', { name: '我的下载' }).first().click();
    await expect.poll(() => page.getByText('暂无下载记录').isVisible()).toBe(true);

    await page.route('**/api/v1/favorite/list*', (route) => route.abort());
    await page.getByRole('link', { name: '我的收藏' }).first().click();
    const failed = page.getByRole('alert').filter({ hasText: '加载失败' });
    await expect.poll(() => failed.isVisible()).toBe(true);
    expect(await failed.getByRole('button', { name: '重试' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: '个人中心' }).first().isVisible()).toBe(true);
  });

  it('says in Chinese that the next screen could not load when its code cannot be fetched', async () => {
    const page = await memberPage(1280);
    await page.goto('/member');
    await appTookOver(page);
    await page.route('**/assets/**', (route) => route.abort());

    await page.getByRole('link', { name: '我的收藏' }).first().click();
    await page.getByRole('heading', { name: '出错啦！' }).waitFor();
    expect(await page.getByText('页面没能加载完整，可能是网络中断或网站刚刚更新，请刷新页面重试。').isVisible()).toBe(
      true,
    );
    expect(await page.locator('body').innerText()).not.toMatch(/dynamically imported module|preload CSS/);
  });
});
