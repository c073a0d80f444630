// The owner's settings as visitors see them in Chromium, at a phone's width and a desktop's:
// the site's logo (often a wide banner with the name drawn in) and a long site name in the
// sign-in pages' brand and (without the logo, which would stand for it) the header, and the floating bar's contact and WeChat QR code on a
// phone, where the bar is hidden. One visitor's page for the file, loaded again after each
// change of the settings, its window resized between the widths.
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, login, registerMember } from '../helpers/backend';
import { keptVisit, logInByCookie, useSiteInBrowser } from './browser';

const site = useSiteInBrowser();
const visitor = keptVisit(site);
let token: string;
let image: string;

/** Saves system settings by name, as 系统设置 does. */
const saveSystem = (values: Record<string, string>) => saveConfig('system', values);

async function saveConfig(category: string, values: Record<string, string>): Promise<void> {
  const rows = (await api(site.backendUrl, 'GET', '/api/v1/config/list', { token, query: { category } })).body
    .config as { id: number; name: string }[];
  const config = Object.entries(values).map(([name, value]) => ({
    id: rows.find((row) => row.name === name)!.id,
    value,
  }));
  const saved = await api(site.backendUrl, 'PUT', '/api/v1/config', { token, body: { config } });
  expect(saved.status).toBe(200);
}

beforeAll(async () => {
  token = await login(site.backendUrl, 'admin', site.adminPassword);
  // A 600×80 PNG.
  const png = await sharp({ create: { width: 600, height: 80, channels: 3, background: '#1e5ac8' } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), '横幅标志.png');
  const uploaded = await fetch(`${site.backendUrl}/api/v1/upload/config`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(uploaded.status).toBe(200);
  const { data } = (await uploaded.json()) as { data: { path: string } };
  image = data.path;
  await saveSystem({ logo: data.path, sitename: '书香文库' });
});

describe('a wide logo on the sign-in pages', () => {
  for (const width of [390, 1280]) {
    it(`stays in the logo's box, the site's name on one line beside it, at ${width} px`, async () => {
      const { page } = await visitor();
      await page.setViewportSize({ width, height: 800 });
      // The other width's test may have loaded it: the same page, its window resized.
      if (new URL(page.url()).pathname !== '/auth/login') await page.goto('/auth/login');
      const logo = page.locator('.app-auth-layout__logo');
      await logo.waitFor();
      await page.waitForFunction(() => document.querySelector<HTMLImageElement>('.app-auth-layout__logo')?.complete);
      const box = await page.evaluate(() => {
        const rect = (el: Element) => el.getBoundingClientRect();
        const brand = document.querySelector('.app-auth-layout__brand')!;
        const name = brand.querySelector('span')!;
        const card = document.querySelector('.app-auth-layout__card')!;
        return {
          logo: rect(brand.querySelector('img')!).width,
          nameHeight: rect(name).height,
          fontSize: parseFloat(getComputedStyle(name).fontSize),
          nameText: name.textContent,
          brandRight: rect(brand).right,
          cardRight: rect(card).right,
          overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        };
      });
      expect(box.nameText).toBe('书香文库');
      expect(box.logo).toBeLessThanOrEqual(160);
      // one line: less than two lines' height
      expect(box.nameHeight).toBeLessThan(2 * box.fontSize);
      expect(box.brandRight).toBeLessThanOrEqual(box.cardRight);
      expect(box.overflow).toBeLessThanOrEqual(0);
    });
  }
});

describe('a long site name in the header on a phone', () => {
  it('is cut with an ellipsis on its row, the page not wider than the screen, the link naming it whole', async () => {
    const name = '书香文库·专业文档资料分享与学习交流平台';
    // no logo: a wordmark, as the one uploaded above, stands for the name (header-logo.test.ts)
    await saveSystem({ sitename: name, logo: '' });
    const { page } = await visitor();
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto('/library');
    const brand = page.getByRole('link', { name: `${name} 首页` });
    await brand.waitFor();
    const boxes = await page.evaluate(() => {
      const rect = (selector: string) => document.querySelector(selector)!.getBoundingClientRect();
      const sitename = document.querySelector<HTMLElement>('.app-header__sitename')!;
      return {
        brand: rect('.app-header__brand'),
        corner: rect('.app-header__user > :last-child'),
        cut: sitename.scrollWidth > sitename.clientWidth,
        overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      };
    });
    expect(boxes.overflow).toBeLessThanOrEqual(0);
    expect(boxes.cut).toBe(true);
    // 登录 / 注册 stay on the name's row, right of it
    expect(boxes.corner.y).toBeLessThan(boxes.brand.y + boxes.brand.height);
    expect(boxes.corner.x).toBeGreaterThanOrEqual(boxes.brand.x + boxes.brand.width);
    expect(await page.locator('.app-header__sitename').getAttribute('title')).toBe(name);
  });
});

describe('a long site name in the header at 1280 px', () => {
  it('is cut before the navigation is: every navigation link shows, for a visitor and a member', async () => {
    const name = '书香文库·专业文档资料分享与学习交流平台（官方网站）';
    // no logo: a wordmark, as the one uploaded above, stands for the name (header-logo.test.ts)
    await saveSystem({ sitename: name, logo: '' });
    const member = await registerMember(site.backendUrl);
    const { page: visitorView } = await visitor();
    await visitorView.setViewportSize({ width: 1280, height: 900 });
    await visitorView.goto('/library');
    const memberView = await site.open();
    await logInByCookie(memberView, site.url, member.username, member.password, '/library');
    for (const [who, page] of [
      ['visitor', visitorView],
      ['member', memberView],
    ] as const) {
      await page.getByRole('link', { name: `${name} 首页` }).waitFor();
      const header = await page.evaluate(() => {
        const nav = document.querySelector<HTMLElement>('.app-header__nav')!;
        const sitename = document.querySelector<HTMLElement>('.app-header__sitename')!;
        return {
          hidden: nav.scrollWidth - nav.clientWidth,
          links: nav.querySelectorAll('a').length,
          cut: sitename.scrollWidth > sitename.clientWidth,
          overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        };
      });
      expect(header.links, who).toBeGreaterThanOrEqual(3);
      expect(header.hidden, who).toBeLessThanOrEqual(0);
      expect(header.cut, who).toBe(true);
      expect(header.overflow, who).toBeLessThanOrEqual(0);
    }
  });
});

describe('联系我们 and the WeChat QR code (展示配置)', () => {
  it('are in the footer on a phone, where the floating bar is hidden, and only in the bar at 1280 px', async () => {
    await saveConfig('display', {
      contact_link: 'https://example.com/contact',
      contact_tip: '联系客服',
      wechat_qrcode: image,
      wechat_tip: '扫码关注公众号',
    });
    const { page } = await visitor();
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto('/library');
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      const footer = page.locator('footer.app-footer');
      await footer.waitFor();
      const contact = footer.getByRole('link', { name: '联系客服' });
      const qrcode = footer.getByRole('img', { name: '微信二维码' });
      const bar = page.getByRole('complementary', { name: '快捷操作' });
      if (width === 390) {
        expect(await contact.isVisible()).toBe(true);
        expect(await contact.getAttribute('href')).toBe('https://example.com/contact');
        expect(await qrcode.isVisible()).toBe(true);
        expect(await footer.getByText('扫码关注公众号').isVisible()).toBe(true);
        expect(await bar.isVisible()).toBe(false);
      } else {
        expect(await contact.isVisible()).toBe(false);
        expect(await qrcode.isVisible()).toBe(false);
        expect(await bar.getByRole('link', { name: '联系我们' }).isVisible()).toBe(true);
      }
    }
  });
});
