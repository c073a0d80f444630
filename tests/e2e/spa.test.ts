// The SPA in Chromium against the real gateway and embedded backend.
import { describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { buildAdminMenu } from '../../shared/routes';
import { allowPagesFrom } from '../../shared/permissions';
import type { Permission } from '../../shared/types/permission';
import { registerMember, setConfig } from '../helpers/backend';
import {
  appTookOver,
  EDGE_SLACK_PX,
  gatewayToken,
  logInByCookie,
  logOut,
  navigateInApp,
  openInApp,
  submitLogin,
  useSiteInBrowser,
} from './browser';

const site = useSiteInBrowser();
const { open } = site;
let memberCount = 0;

function newMember() {
  memberCount += 1;
  return {
    username: `reader${memberCount}${Date.now() % 100000}`,
    password: 'secret-pass-1',
    email: `reader${memberCount}.${Date.now()}@example.com`,
  };
}

async function register(page: Page, who: ReturnType<typeof newMember>) {
  await page.goto('/auth/register');
  await page.getByLabel('用户名').fill(who.username);
  await page.getByLabel('邮箱').fill(who.email);
  await page.getByLabel('密码', { exact: true }).fill(who.password);
  await page.getByLabel('确认密码').fill(who.password);
  await page.getByRole('button', { name: '注册' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByTestId('user-menu').waitFor();
}

/**
 * A member registered through the API and landed on `then` logged in (the token in the cookie, as the login leaves
 * it): for the tests about what comes after; the form's registration has tests of its own (below).
 */
async function registeredOn(page: Page, then: string): Promise<ReturnType<typeof newMember>> {
  const who = newMember();
  await registerMember(site.url, who);
  await logInByCookie(page, site.url, who.username, who.password, then);
  await page.getByTestId('user-menu').waitFor();
  return who;
}

describe('keyboard focus', () => {
  it('draws the focus ring of a header link whole, inside its scrolling row', async () => {
    const page = await open();
    await page.goto('/');
    const link = page.getByRole('navigation', { name: '网站导航' }).getByRole('link', { name: '文库资料' });
    await link.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    const fits = await link.evaluate((element) => {
      const style = getComputedStyle(element);
      const ring = parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset);
      const box = element.getBoundingClientRect();
      let clip = element.parentElement;
      while (clip && getComputedStyle(clip).overflowX === 'visible') clip = clip.parentElement;
      const area = (clip ?? document.documentElement).getBoundingClientRect();
      return {
        visible: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0,
        inside: box.top - ring >= area.top - 0.5 && box.bottom + ring <= area.bottom + 0.5,
      };
    });
    expect(fits).toEqual({ visible: true, inside: true });
  });

  it("tabs through the header's bar in the order it is drawn, at 1280 px and at 390 px", async () => {
    const page = await open();
    /** The part of the bar that holds each element Tab reaches from the site's name until it leaves the bar. */
    const tabbedParts = async () => {
      await page.locator('.app-header__brand').focus();
      const parts = ['brand'];
      for (let step = 0; step < 40; step++) {
        await page.keyboard.press('Tab');
        const part = await page.evaluate(() => {
          const focused = document.activeElement;
          if (!focused?.closest('.app-header__bar')) return null;
          return ['user', 'nav', 'search'].find((name) => focused.closest(`.app-header__${name}`)) ?? 'other';
        });
        if (part === null) break;
        if (part !== parts.at(-1)) parts.push(part);
      }
      return parts;
    };
    // /library, where the header's search box shows at both widths; 登录 and 注册 for a visitor,
    // the avatar's menu for a member.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/library');
    await page.getByRole('link', { name: '登录' }).waitFor();
    expect(await tabbedParts()).toEqual(['brand', 'nav', 'search', 'user']);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await tabbedParts()).toEqual(['brand', 'user', 'nav', 'search']);
    await logInByCookie(page, site.url, 'admin', site.adminPassword, '/library');
    await page.getByTestId('user-menu').waitFor();
    expect(await tabbedParts()).toEqual(['brand', 'user', 'nav', 'search']);
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await tabbedParts()).toEqual(['brand', 'nav', 'search', 'user']);
  });
});

describe('first screen', () => {
  it('renders from the inlined start data, before any API request is answered', async () => {
    const page = await open();
    const held: Request[] = [];
    // Hold every API call: the first screen must not need one.
    await page.route('**/api/**', (route) => {
      held.push(route.request());
    });
    await page.goto('/', { waitUntil: 'domcontentloaded' });
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('魔豆文库');
    await page.getByRole('navigation', { name: '网站导航' }).getByRole('link', { name: '文库资料' }).waitFor();
    expect(await page.locator('#start-data').count()).toBe(1);
    const asked = held.map((r) => new URL(r.url()).pathname);
    for (const startCall of [
      '/api/v1/settings',
      '/api/v1/navigation/list',
      '/api/v1/category/list',
      '/api/v1/user',
      '/api/v1/user/permission',
    ]) {
      expect(asked).not.toContain(startCall);
    }
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    expect(await page.title()).toBe('MOREDOC · 魔豆文库');
  });
});

describe('moves inside the app', () => {
  /**
   * The code of the screen `name` (web/src/pages), answered at once but holding its screen back for 2 s once it runs;
   * answers how many times it was asked for.
   */
  async function holdScreenCode(page: Page, name: string): Promise<() => number> {
    let held = 0;
    await page.route(new RegExp(`/assets/${name}-[^/]*\\.js$`), async (route) => {
      held += 1;
      const response = await route.fetch();
      const code = await response.text();
      await route.fulfill({ response, body: `await new Promise((go) => setTimeout(go, 2000));\n${code}` });
    });
    return () => held;
  }

  it('openInApp returns with the new screen drawn, not the one before it, when its code runs late', async () => {
    const page = await open();
    // The hot list's code, answered at once but holding its screen back for 2 s once it runs: no
    // request is in flight meanwhile, and the router keeps the home page on view.
    const held = await holdScreenCode(page, 'HotPage');
    await page.goto('/');
    await appTookOver(page);
    await openInApp(page, '/hot');
    expect(held()).toBe(1);
    expect(await page.evaluate(() => document.querySelector('main h1')?.textContent)).toBe('热门文档');
  });

  it("openInApp returns with the screen's data drawn, however long the page takes to handle its answer", async () => {
    const page = await open();
    // From the flag on, the app's fetch of an article hands on its answer only after a second of
    // the page's main thread kept busy: no request is in flight meanwhile.
    await page.addInitScript(() => {
      const original = window.fetch;
      window.fetch = async (...args: Parameters<typeof fetch>) => {
        const response = await original(...args);
        const url = args[0] instanceof Request ? args[0].url : String(args[0]);
        if ((window as { slowAnswers?: boolean }).slowAnswers && url.includes('/api/v1/article')) {
          await response.clone().text();
          const end = performance.now() + 1000;
          while (performance.now() < end);
        }
        return response;
      };
    });
    await page.goto('/');
    await appTookOver(page);
    await page.evaluate(() => ((window as { slowAnswers?: boolean }).slowAnswers = true));
    await openInApp(page, '/article/detail/about');
    expect(await page.evaluate(() => document.querySelector('main h1')?.textContent)).toBe('关于我们');
  });

  it("openInApp waits for the router's first screen: a move made while its code still runs is named too", async () => {
    // An admin screen has no first screen from the gateway: React draws the router's loading screen at once, and the
    // dashboard's code, held 2 s once it runs, keeps the router from its first screen meanwhile.
    const page = await site.adminPage();
    const held = await holdScreenCode(page, 'AdminDashboardPage');
    await page.goto('/admin/dashboard');
    await appTookOver(page);
    await openInApp(page, '/admin/order');
    expect(held()).toBe(1);
    expect(await page.evaluate(() => document.querySelector('[data-location]')?.getAttribute('data-location'))).toBe(
      '/admin/order',
    );
  });
});

describe('scroll position', () => {
  /** Scrolls halfway down what the page can scroll now (comments that come later only add to it); the place. */
  const scrollHalfway = (page: Page) =>
    page.evaluate(() => {
      window.scrollTo(0, Math.floor((document.documentElement.scrollHeight - window.innerHeight) / 2));
      return window.scrollY;
    });

  it('opens a page the browser loads at its top, not where the page loaded before it was left', async () => {
    const page = await open();
    await page.setViewportSize({ width: 390, height: 300 });
    await page.goto('/');
    await appTookOver(page);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
    await page.goto('/article/detail/about');
    await page.getByRole('heading', { level: 1, name: '关于我们' }).waitFor();
    // Once the app has taken the page over: the router would have moved it by then.
    await appTookOver(page);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    // A reload still opens where the page was left.
    const left = await scrollHalfway(page);
    expect(left).toBeGreaterThan(0);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: '关于我们' }).waitFor();
    await appTookOver(page);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(left);
  });

  it('opens a page loaded again from its address at its top, though this tab left it scrolled', async () => {
    const page = await open();
    await page.setViewportSize({ width: 390, height: 300 });
    await page.goto('/article/detail/about');
    await page.getByRole('heading', { level: 1, name: '关于我们' }).waitFor();
    await appTookOver(page);
    expect(await scrollHalfway(page)).toBeGreaterThan(0);
    await page.goto('/');
    await appTookOver(page);
    // The same address typed again (or a link to it followed from elsewhere): not a reload.
    await page.goto('/article/detail/about');
    await page.getByRole('heading', { level: 1, name: '关于我们' }).waitFor();
    await appTookOver(page);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    // Back to the place left: the history's return still opens where it was.
    const left = await scrollHalfway(page);
    await page.goto('/');
    await appTookOver(page);
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: '关于我们' }).waitFor();
    await appTookOver(page);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(left);
  });

  it('keeps the place a visitor scrolled the first screen to when the app takes it over', async () => {
    const page = await open();
    await page.setViewportSize({ width: 390, height: 300 });
    // The app's code held back, as on a slow phone: the gateway's first screen is read alone.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/assets/**/*.js', async (route) => {
      await released;
      await route.continue();
    });
    // A first screen that came late (a busy machine) leaves the page without it once: load it again.
    await expect
      .poll(async () => {
        await page.goto('/article/detail/about', { waitUntil: 'commit' });
        await page.locator('#root > *').first().waitFor({ state: 'attached' });
        return page.locator('#root [data-crawler]').count();
      })
      .toBe(0);
    await page.getByRole('heading', { level: 1, name: '关于我们' }).waitFor();
    const place = await scrollHalfway(page);
    expect(place).toBeGreaterThan(0);
    release();
    await appTookOver(page);
    expect(await page.evaluate(() => window.scrollY)).toBe(place);
  });
});

describe('accounts', () => {
  it('registers and lands logged in, the token out of reach of scripts, F8 on the toasts; then logs out', async () => {
    const page = await open();
    const who = newMember();
    const answers: string[] = [];
    page.on('response', async (response) => {
      if (new URL(response.url()).pathname.startsWith('/api/v1/user/'))
        answers.push(await response.text().catch(() => ''));
    });
    await register(page, who);
    // F8 moves the keyboard focus to the toasts (while the registration's is shown).
    await page.locator('.app-toast', { hasText: '注册成功' }).waitFor();
    await page.keyboard.press('F8');
    const focused = await page.evaluate(() => ({
      inToasts: !!document.activeElement?.closest('[aria-label="通知 (F8)"]'),
      text: document.activeElement?.textContent ?? '',
    }));
    expect(focused.inToasts).toBe(true);
    expect(focused.text).toContain('注册成功');
    await expect.poll(() => page.getByTestId('user-menu').textContent()).toContain(who.username);

    const cookie = (await page.context().cookies()).find((c) => c.name === 'token');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    const token = cookie!.value;
    expect(token.length).toBeGreaterThan(20);
    const seen = await page.evaluate(() => ({
      cookie: document.cookie,
      storage: Object.keys(localStorage)
        .map((k) => `${k}=${localStorage.getItem(k)}`)
        .join('\n'),
      session: Object.keys(sessionStorage)
        .map((k) => `${k}=${sessionStorage.getItem(k)}`)
        .join('\n'),
    }));
    expect(seen.cookie).not.toContain(token);
    expect(seen.cookie).not.toMatch(/token=/);
    expect(seen.storage).not.toContain(token);
    expect(seen.storage).not.toMatch(/"token"/);
    expect(seen.session).not.toContain(token);
    expect(seen.storage).toContain(who.username);
    expect(answers.join('\n')).not.toContain(token);

    // Logs out: back on /, logged out, the cookie gone.
    await logOut(page);
    expect((await page.context().cookies()).find((c) => c.name === 'token')).toBeUndefined();
    const stored = await page.evaluate(() => localStorage.getItem('moredoc.session'));
    expect(JSON.parse(stored ?? '{}')).toMatchObject({ loggedIn: false, user: null });
  });

  it('sends a logged-out visitor of /member to login, and back to the original page after login', async () => {
    const page = await open();
    // A member's account, and a visitor on the site.
    const who = newMember();
    await registerMember(site.url, who);
    await page.goto('/');
    await appTookOver(page);

    // client-side navigation: the SPA's guard
    await navigateInApp(page, '/member');
    await page.waitForURL((url) => url.pathname === '/auth/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/member');

    // page load: the gateway's guard, with a query kept intact
    await page.goto('/member/profile?tab=password');
    await page.waitForURL((url) => url.pathname === '/auth/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/member/profile?tab=password');

    await submitLogin(page, who.username, who.password);
    await page.waitForURL((url) => url.pathname === '/member/profile');
    expect(new URL(page.url()).search).toBe('?tab=password');
    await expect.poll(() => page.getByLabel('邮箱').inputValue()).toBe(who.email);
  });

  it('logs in with the e-mail address given at registration, as the form says it may', async () => {
    const page = await open();
    const who = newMember();
    await registerMember(site.url, who);
    await page.goto('/auth/login');
    await appTookOver(page);
    expect(await page.getByLabel('用户名').getAttribute('placeholder')).toBe('用户名、邮箱或手机号');
    await submitLogin(page, who.email.toUpperCase(), who.password);
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => page.getByTestId('user-menu').textContent()).toContain(who.username);
  });

  it('leaves the captcha input of login and registration room for its placeholder at 390 px, the image kept readable', async () => {
    const token = await gatewayToken(site.url, 'admin', site.adminPassword);
    const captchaOn = (on: boolean) =>
      setConfig(site.url, token, {
        'security.enable_captcha_login': String(on),
        'security.enable_captcha_register': String(on),
      });
    await setConfig(site.url, token, { 'captcha.type': 'math' });
    await captchaOn(true);
    try {
      const page = await open();
      await page.setViewportSize({ width: 390, height: 844 });
      for (const path of ['/auth/login', '/auth/register']) {
        await page.goto(path);
        const picture = page.getByRole('button', { name: '换一张验证码' });
        await picture.getByRole('img', { name: '验证码' }).waitFor();
        const input = page.getByLabel('验证码', { exact: true });
        expect(await input.getAttribute('placeholder'), path).toBe('请输入计算结果');
        // The placeholder measured in the input's own font, against the room inside its padding.
        const room = await input.evaluate((box: HTMLInputElement) => {
          const style = getComputedStyle(box);
          const context = document.createElement('canvas').getContext('2d')!;
          context.font = style.font;
          const inside = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          return inside - context.measureText(box.placeholder).width;
        });
        expect(room, path).toBeGreaterThanOrEqual(0);
        // The image (240 by 60) drawn at two thirds of its size or more, inside the screen.
        const drawn = await picture.getByRole('img').evaluate((img: HTMLImageElement) => {
          const box = img.getBoundingClientRect();
          return Math.min(box.width, (box.height * img.naturalWidth) / img.naturalHeight);
        });
        expect(drawn, path).toBeGreaterThanOrEqual(160);
        const pictureBox = (await picture.boundingBox())!;
        expect(pictureBox.x + pictureBox.width, path).toBeLessThanOrEqual(390 + EDGE_SLACK_PX);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
      }
      // A wide screen keeps the image beside the input, on its row.
      await page.setViewportSize({ width: 1280, height: 844 });
      const input = (await page.getByLabel('验证码', { exact: true }).boundingBox())!;
      const picture = (await page.getByRole('button', { name: '换一张验证码' }).boundingBox())!;
      expect(picture.x).toBeGreaterThan(input.x + input.width);
      expect(picture.y).toBeLessThan(input.y + input.height);
    } finally {
      await captchaOn(false);
      await setConfig(site.url, token, { 'captcha.type': 'digit' });
    }
  });
});

describe('member area', () => {
  it('shows the overview, saves the profile and the avatar, and lists downloads and orders', async () => {
    const page = await open();
    const who = await registeredOn(page, '/member');
    await page.getByRole('heading', { level: 1, name: who.username }).waitFor();
    await page.getByRole('button', { name: '每日签到' }).click();
    await page.getByRole('button', { name: '今日已签到' }).waitFor();

    await openInApp(page, '/member/profile');
    await page.getByLabel('个性签名').fill('喜欢读书的人');
    await page.getByRole('button', { name: '保存资料' }).click();
    await page.locator('.app-toast', { hasText: '个人资料已保存' }).waitFor();
    // a 1×1 PNG
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    await page.getByLabel('选择头像图片').setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: png });
    await page.locator('.app-toast', { hasText: '头像已更新' }).waitFor();
    await expect.poll(() => page.getByTestId('user-menu').locator('img').getAttribute('src')).toMatch(/^\/uploads\//);

    await page.reload();
    await expect.poll(() => page.getByLabel('个性签名').inputValue()).toBe('喜欢读书的人');

    await page.getByRole('link', { name: '我的下载' }).first().click();
    await page.getByText('暂无下载记录').waitFor();
    await page.getByRole('link', { name: '我的订单' }).first().click();
    await page.getByText('暂无订单').waitFor();
  });
});

describe('admin area', () => {
  it('shows an admin the full menu and the real figures of /api/v1/stats', async () => {
    const page = await open();
    await page.goto('/auth/login?redirect=%2Fadmin');
    await submitLogin(page, 'admin', site.adminPassword);
    await page.waitForURL((url) => url.pathname === '/admin');
    await page.getByRole('heading', { name: '控制面板' }).waitFor();
    const menu = page.getByLabel('管理菜单');
    // Everything the admin's permissions unlock (user 1 holds every permission row).
    const { permission = [] } = (await (await page.request.get('/api/v1/user/permission')).json()) as {
      permission?: Permission[];
    };
    const expected = ['控制面板', ...buildAdminMenu(allowPagesFrom(permission)).map((entry) => entry.label)];
    expect(expected).toEqual(
      expect.arrayContaining(['文档管理', '文章管理', '用户管理', '轮播图管理', '导航管理', '友链管理', '系统设置']),
    );
    for (const label of expected) {
      await expect.poll(() => menu.getByText(label, { exact: true }).count(), { message: label }).toBeGreaterThan(0);
    }
    const stats = (await (await page.request.get('/api/v1/stats')).json()) as Record<string, number>;
    const shown = async (key: string) =>
      (await page.locator(`[data-figure="${key}"] dd`).textContent())?.replace(/,/g, '');
    expect(await shown('user_count')).toBe(String(stats.user_count ?? 0));
    expect(await shown('document_count')).toBe(String(stats.document_count ?? 0));
    expect(await shown('category_count')).toBe(String(stats.category_count ?? 0));

    await menu.getByText('系统设置', { exact: true }).click();
    await menu.getByText('系统配置', { exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/admin/config/system');
    // The admin screen of issue 6: the system settings form.
    await page.getByLabel('网站名称').waitFor();
  });

  it('gives a member no admin menu and sends them to / from an admin URL', async () => {
    const page = await open();
    await registeredOn(page, '/');
    await page.getByTestId('user-menu').click();
    expect(await page.getByRole('menuitem').allTextContents()).not.toContain('管理后台');
    await page.keyboard.press('Escape');

    await page.goto('/admin/user/list');
    await page.waitForURL((url) => url.pathname === '/');

    await navigateInApp(page, '/admin/config/system');
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { level: 1, name: '魔豆文库' }).waitFor();
  });
});
