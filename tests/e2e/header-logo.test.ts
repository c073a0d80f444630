// The header's link home beside the admin's 网站Logo, for a visitor and a signed-in member with
// VIP on sale (the fullest corner): at 390 px a wordmark (a 240×60 logo, the name drawn in)
// cut the site's name beside it to “星…”, and at 1280 px a member's too; a wordmark now stands
// alone, the link still named by the site's name, while a square logo, or none, keeps the name.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { api, login, registerMember, type Member } from '../helpers/backend';
import { setTokenCookie, useSiteInBrowser } from './browser';

const site = useSiteInBrowser({ env: () => ({ CONFIG_VIP_ENABLE: 'true', CONFIG_PAY_ENABLE: 'true' }) });
const NAME = '星辰文库';
let token: string;
let member: Member;
const logos: Record<'none' | 'square' | 'wide', string> = { none: '', square: '', wide: '' };

async function saveSystem(values: Record<string, string>): Promise<void> {
  const rows = (await api(site.backendUrl, 'GET', '/api/v1/config/list', { token, query: { category: 'system' } })).body
    .config as { id: number; name: string }[];
  const config = Object.entries(values).map(([name, value]) => ({
    id: rows.find((row) => row.name === name)!.id,
    value,
  }));
  expect((await api(site.backendUrl, 'PUT', '/api/v1/config', { token, body: { config } })).status).toBe(200);
}

/** Uploads a PNG of `width`×`height`, one colour, as 系统设置 does; returns its address. */
async function uploadLogo(width: number, height: number): Promise<string> {
  const png = await sharp({ create: { width, height, channels: 3, background: '#1e5ac8' } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), '标志.png');
  const uploaded = await fetch(`${site.backendUrl}/api/v1/upload/config`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(uploaded.status).toBe(200);
  return ((await uploaded.json()) as { data: { path: string } }).data.path;
}

beforeAll(async () => {
  token = await login(site.backendUrl, 'admin', site.adminPassword);
  member = await registerMember(site.backendUrl);
  logos.square = await uploadLogo(60, 60);
  logos.wide = await uploadLogo(240, 60);
});

/** The header of /library for a visitor or the member, loaded at `width` px. */
async function header(width: number, who: 'visitor' | 'member'): Promise<Page> {
  const visit = await site.visit();
  await visit.page.setViewportSize({ width, height: 800 });
  if (who === 'member') await setTokenCookie(visit.context, site.url, member.token);
  await visit.page.goto('/library');
  await visit.page.getByRole('link', { name: `${NAME} 首页` }).waitFor();
  await visit.page.locator(who === 'member' ? '[data-testid="user-menu"]' : '.app-header__login').waitFor();
  await visit.page.waitForFunction(() => {
    const logo = document.querySelector<HTMLImageElement>('.app-header__logo');
    return !logo || (logo.complete && logo.naturalWidth > 0);
  });
  return visit.page;
}

describe('the site name beside the logo in the header', () => {
  // Each page is loaded once, at 390 px, and measured there and then in a window of 1280 px: the
  // header's layout at a width is its style sheet's, not the load's.
  for (const kind of ['none', 'square', 'wide'] as const) {
    const alone = kind === 'wide';
    it(`with ${kind === 'none' ? 'no' : `a ${kind}`} logo at 390 and 1280 px ${alone ? 'is left to the logo' : 'shows'}`, async () => {
      await saveSystem({ sitename: NAME, logo: logos[kind] });
      for (const who of ['visitor', 'member'] as const) {
        const page = await header(390, who);
        for (const width of [390, 1280]) {
          await page.setViewportSize({ width, height: 800 });
          const brand = page.getByRole('link', { name: `${NAME} 首页` });
          const box = await page.evaluate(() => {
            const rect = (element: Element) => element.getBoundingClientRect();
            const bar = document.querySelector('.app-header__bar')!;
            const brand = bar.querySelector('.app-header__brand')!;
            const name = brand.querySelector<HTMLElement>('.app-header__sitename')!;
            const logo = brand.querySelector('img');
            const corner = bar.querySelector('.app-header__user > :last-child')!;
            return {
              shown: name.getClientRects().length > 0,
              cut: name.scrollWidth > name.clientWidth,
              // at least three characters (“星辰文…”), not “星…”
              readable: name.clientWidth >= 3 * parseFloat(getComputedStyle(name).fontSize),
              logo: logo ? rect(logo).width : 0,
              brandBottom: rect(brand).bottom,
              brandRight: rect(brand).right,
              corner: rect(corner),
              overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
            };
          });
          const at = `${who}, ${kind} logo, ${width} px`;
          expect(await brand.isVisible(), at).toBe(true);
          expect(box.shown, at).toBe(!alone);
          // whole for a visitor and at 1280 px; a member's corner at 390 px may leave it a little less
          if (!alone) expect(box.readable, at).toBe(true);
          if (!alone && (who === 'visitor' || width === 1280)) expect(box.cut, at).toBe(false);
          if (kind !== 'none') expect(box.logo, at).toBeGreaterThan(0);
          // drawn whole at 1280 px: 36 px high is 144 px wide
          if (alone && width === 1280) expect(box.logo, at).toBe(144);
          expect(box.overflow, at).toBeLessThanOrEqual(0);
          if (width === 390) {
            // the visitor's or member's corner stays on the brand's row, right of it
            expect(box.corner.top, at).toBeLessThan(box.brandBottom);
            expect(box.corner.left, at).toBeGreaterThanOrEqual(box.brandRight);
          }
        }
      }
    });
  }
});
