// The admin back office in Chromium against the real gateway and embedded backend.
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { api, login, registerMember } from '../helpers/backend';
import {
  appTookOver,
  EDGE_SLACK_PX,
  keptAdminPage,
  logIn,
  logInByCookie,
  logOut,
  openInApp,
  useSiteInBrowser,
} from './browser';

const site = useSiteInBrowser();
const { open } = site;

const unique = (prefix: string) => `${prefix}${Date.now() % 1_000_000}`;

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const loginAs = (page: Page, username: string, password: string, then = '/admin/dashboard') =>
  logIn(page, username, password, then);
const loginAsAdmin = (page: Page, then = '/admin/dashboard') =>
  logInByCookie(page, site.url, 'admin', site.adminPassword, then);

/** A phone's window. */
const PHONE = { width: 390, height: 844 };

/**
 * The admin's page kept for the phone's screens whose layout is checked (dashboard, lists), each of
 * them drawn at 390 px from the start: the first loaded, the next reached inside the app.
 */
const phoneAdminPage = keptAdminPage(site);

/** The side sheet titled `title` (Semi's sheet gives its dialog no accessible name). */
const sheet = (page: Page, title: string) =>
  page.locator('.semi-sidesheet-inner', { has: page.locator('.semi-sidesheet-title', { hasText: title }) });

/** The confirmation dialog titled `title`. */
const dialog = (page: Page, title: string) =>
  page.locator('.semi-modal', { has: page.locator('.semi-modal-title', { hasText: title }) });

/** A table row of the resource list holding `text`. */
const row = (page: Page, text: string) => page.locator('.app-resource-table tbody tr', { hasText: text });

async function pickOption(page: Page, trigger: Locator, option: string) {
  await trigger.click();
  await page.locator('.semi-select-option', { hasText: option }).first().click();
}

async function pickTreeOption(page: Page, trigger: Locator, option: string) {
  await trigger.click();
  await page.locator('.semi-tree-select-popover .semi-tree-option', { hasText: option }).first().click();
}

async function expectToast(page: Page, title: string) {
  await page.locator('.app-toast', { hasText: title }).first().waitFor();
}

describe('resource screens', () => {
  it("creates, edits and deletes a friend link, checking the input before sending, the menu in its column on a wide screen without the drawer's button (a 768 px tablet has the drawer)", async () => {
    const page = await open();
    await loginAsAdmin(page, '/admin/friendlink');
    await row(page, '书栈网').waitFor();
    expect(await page.getByRole('complementary', { name: '管理菜单' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: '菜单', exact: true }).isVisible()).toBe(false);

    await page.getByRole('button', { name: '新建友链' }).click();
    const form = sheet(page, '新建友链');
    await form.getByRole('button', { name: '创建' }).click();
    await form.getByText('请输入名称').waitFor();
    await form.getByLabel('名称').fill('开源中国');
    await form.getByLabel('链接').fill('oschina');
    await form.getByRole('button', { name: '创建' }).click();
    await form.getByText('链接必须以 http:// 或 https:// 开头').waitFor();
    await form.getByLabel('链接').fill('https://www.oschina.net');
    await form.getByLabel('排序').fill('99999999999');
    await form.getByRole('button', { name: '创建' }).click();
    await form.getByText('排序不能大于 2147483647').waitFor();
    await form.getByLabel('排序').fill('');

    // A failure the server answers: its toast leaves the sheet's buttons usable.
    const refuse = '**/api/v1/friendlink';
    await page.route(refuse, (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 400, json: { code: 3, message: '友链暂时不能创建' } })
        : route.continue(),
    );
    await form.getByRole('button', { name: '创建' }).click();
    const failure = page.locator('.app-toast', { hasText: '友链暂时不能创建' });
    await failure.waitFor();
    // Measured at rest: once its transitions, if any are running, have ended (not after a fixed wait).
    await failure.evaluate((element) =>
      Promise.all(element.getAnimations({ subtree: true }).map((animation) => animation.finished)),
    );
    for (const name of ['取消', '创建']) {
      const button = (await form.getByRole('button', { name }).boundingBox())!;
      const toastBox = (await failure.boundingBox())!;
      const overlaps =
        toastBox.x < button.x + button.width &&
        button.x < toastBox.x + toastBox.width &&
        toastBox.y < button.y + button.height &&
        button.y < toastBox.y + toastBox.height;
      expect(overlaps, name).toBe(false);
    }
    await page.unroute(refuse);
    await form.getByRole('button', { name: '创建' }).click();
    await expectToast(page, '创建成功');
    await row(page, '开源中国').waitFor();

    await page.getByRole('button', { name: '编辑“开源中国”' }).click();
    const edit = sheet(page, '编辑友链');
    expect(await edit.getByLabel('链接').inputValue()).toBe('https://www.oschina.net');
    await edit.getByLabel('名称').fill('开源中国社区');
    await edit.getByRole('button', { name: '保存' }).click();
    await expectToast(page, '保存成功');
    await row(page, '开源中国社区').waitFor();

    await page.getByRole('button', { name: '删除“开源中国社区”' }).click();
    const confirm = dialog(page, '删除友链');
    await confirm.getByText('确定删除友链“开源中国社区”吗？此操作不可恢复。').waitFor();
    await confirm.getByRole('button', { name: '删除' }).click();
    await expectToast(page, '删除成功');
    await row(page, '开源中国社区').waitFor({ state: 'detached' });
    expect(await row(page, '书栈网').count()).toBe(1);

    // An upright tablet gets the drawer too.
    await page.setViewportSize({ width: 768, height: 1024 });
    await expect.poll(() => page.getByRole('complementary', { name: '管理菜单' }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: '菜单', exact: true }).isVisible()).toBe(true);

    // The public home page lists what is left (on the window it was checked in).
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/');
    await page.getByRole('link', { name: '书栈网' }).waitFor();
    expect(await page.getByRole('link', { name: '开源中国社区' }).count()).toBe(0);
  });

  it('lets a role holding only the user-list permission see exactly the user-management entry, read-only', async () => {
    const page = await open();
    const role = unique('编辑组');
    const username = unique('editor');
    const password = 'editor-pass-1';
    await loginAsAdmin(page, '/admin/user/group');

    await page.getByRole('button', { name: '新建角色' }).click();
    const form = sheet(page, '新建角色');
    await form.getByLabel('名称').fill(role);
    await form.getByRole('button', { name: '创建' }).click();
    await expectToast(page, '创建成功');

    await page.getByRole('button', { name: `设置“${role}”的权限` }).click();
    const grants = sheet(page, `设置权限：${role}`);
    await grants.getByPlaceholder('搜索权限').fill('查看用户列表');
    await grants.locator('.semi-tree-option', { hasText: '查看用户列表' }).locator('.semi-checkbox').click();
    await grants.getByText('已选 1 项权限').waitFor();
    await grants.getByRole('button', { name: '保存权限' }).click();
    await expectToast(page, '权限已保存');

    await openInApp(page, '/admin/user/list');
    await page.getByRole('button', { name: '新建用户' }).click();
    const userForm = sheet(page, '新建用户');
    await userForm.getByLabel('用户名').fill(username);
    await userForm.getByLabel('密码', { exact: true }).fill(password);
    // The default role is preselected; replace it with the new one.
    await userForm.locator('[data-field="group_id"] .semi-tag-close').first().click();
    await pickOption(page, userForm.locator('[data-field="group_id"] .semi-select'), role);
    await userForm.getByRole('heading', { name: '新建用户' }).click();
    await userForm.getByRole('button', { name: '创建' }).click();
    await expectToast(page, '创建成功');
    await row(page, username).waitFor();
    expect(await row(page, username).textContent()).toContain(role);

    await logOut(page);

    await loginAs(page, username, password, '/admin/user/list');
    await page.getByRole('heading', { name: '用户管理' }).waitFor();
    const menu = page.getByLabel('管理菜单');
    const entries = await menu.locator('.semi-navigation-item-text').allTextContents();
    // The list permission opens the user group's pages, but 短信管理 shows nothing without a
    // permission of its own (its log, its counters): not offered.
    expect(entries).toEqual(['控制面板', '用户管理', '用户管理']);
    expect(await menu.locator('.semi-navigation-sub-title').allTextContents()).toEqual(['用户管理']);
    await row(page, username).waitFor();
    // Listing is all this role may do: no buttons for the calls it would be refused.
    expect(await page.getByRole('button', { name: /新建用户|编辑“|删除“/ }).count()).toBe(0);
    expect(await page.getByRole('columnheader', { name: '操作' }).count()).toBe(0);

    // Other admin pages are refused on a page load: back to the home page, which says why, its
    // address the home page's own once said.
    await page.goto('/admin/user/group');
    await page.waitForURL((url) => url.pathname === '/' && url.search === '');
    await page.locator('.app-toast__title', { hasText: '无权限访问“角色管理”' }).waitFor();
  });
});

describe('settings and navigation', () => {
  it('shows the new site name and logo on the public home page after saving the system settings', async () => {
    const page = await open();
    const name = unique('新文库');
    await loginAsAdmin(page, '/admin/config/footer');
    const about = await page.getByLabel('关于我们').inputValue();
    await openInApp(page, '/admin/config/system');
    const field = page.getByLabel('网站名称');
    await field.fill(name);
    await page
      .locator('[data-field="logo"] input[type=file]')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    const preview = page.getByRole('img', { name: '网站Logo预览' });
    await preview.waitFor();
    const logo = await preview.getAttribute('src');
    expect(logo).toMatch(/^\/uploads\/.+\.png$/);
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await expectToast(page, '保存成功');
    // The admin header follows at once.
    await page.getByText(`${name} 管理后台`).waitFor();

    await page.goto('/');
    await page.reload();
    const brand = page.getByRole('link', { name: `${name} 首页` });
    await brand.waitFor();
    expect(await brand.locator('img').getAttribute('src')).toBe(logo);

    // Saving one category leaves the others alone (the app, not the gateway's first screen, follows the link).
    await appTookOver(page);
    await openInApp(page, '/admin/config/footer');
    expect(await page.getByLabel('关于我们').inputValue()).toBe(about);
  });

  it('keeps an item under a disabled parent off the public header', async () => {
    const page = await open();
    const parent = unique('父级');
    const child = unique('子级');
    const visible = unique('可见');
    await loginAsAdmin(page, '/admin/navigation');

    await page.getByRole('button', { name: '新建导航' }).click();
    let form = sheet(page, '新建导航');
    await form.getByLabel('名称').fill(parent);
    await form.getByLabel('链接').fill('/library');
    await form.getByRole('switch', { name: '启用' }).click();
    await form.getByRole('button', { name: '创建' }).click();
    await expectToast(page, '创建成功');
    await row(page, parent).waitFor();

    await page.getByRole('button', { name: '新建导航' }).click();
    form = sheet(page, '新建导航');
    await pickTreeOption(page, form.locator('[data-field="parent_id"] .semi-tree-select'), parent);
    await form.getByLabel('名称').fill(child);
    await form.getByLabel('链接').fill('https://example.com/child');
    await form.getByRole('button', { name: '创建' }).click();
    await expectToast(page, '创建成功');
    await row(page, child).waitFor();
    expect(await row(page, child).textContent()).toContain('上级已禁用');

    await page.getByRole('button', { name: '新建导航' }).click();
    form = sheet(page, '新建导航');
    await form.getByLabel('名称').fill(visible);
    await form.getByLabel('链接').fill('/article');
    await form.getByRole('button', { name: '创建' }).click();
    // The toast of the second item may still be up: the row says this one was created.
    await row(page, visible).waitFor();

    await page.goto('/');
    const header = page.getByRole('navigation', { name: '网站导航' });
    await header.getByText(visible).waitFor();
    const text = await header.textContent();
    expect(text).not.toContain(parent);
    expect(text).not.toContain(child);
  });
});

describe('on a phone (390 px)', () => {
  it('gives the screen the whole width and the menu as a drawer, opened from the header and closed by a choice or Escape', async () => {
    const page = await open();
    await page.setViewportSize({ width: 390, height: 844 });
    await loginAsAdmin(page, '/admin/friendlink');
    await row(page, '书栈网').waitFor();
    const menu = page.getByRole('complementary', { name: '管理菜单' });
    await expect.poll(() => menu.isVisible()).toBe(false);
    // The list, not the menu, has the screen (less the margins): before, the menu kept its 240 px and left the list
    // 130.
    const table = await page.locator('.app-resource-table').boundingBox();
    expect(table!.width).toBeGreaterThan(300);

    // A form sheet fits the screen: at its 560 px it put the labels off the left edge.
    await page.getByRole('button', { name: '新建友链' }).click();
    const form = sheet(page, '新建友链');
    await form.getByLabel('名称').waitFor();
    await expect.poll(async () => (await form.boundingBox())?.x).toBe(0);
    expect((await form.boundingBox())!.width).toBeLessThanOrEqual(390);
    await form.getByRole('button', { name: '取消' }).click();
    await form.waitFor({ state: 'hidden' });

    const button = page.getByRole('button', { name: '菜单', exact: true });
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    await button.click();
    await expect.poll(() => menu.isVisible()).toBe(true);
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    // It slides in, all of it on the screen.
    await expect.poll(async () => (await menu.boundingBox())?.x).toBe(0);
    expect((await menu.boundingBox())!.width).toBeLessThanOrEqual(390);
    await menu.getByText('订单管理').click();
    await page.waitForURL('**/admin/order');
    await expect.poll(() => menu.isVisible()).toBe(false);

    await button.click();
    await expect.poll(() => menu.isVisible()).toBe(true);
    // The keyboard is in the menu (which comes before the header in the page), and back on the button after Escape.
    expect(await menu.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.isVisible()).toBe(false);
    expect(await button.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // A paged list: its count of rows on one line of its own (beside the pager it took four).
    await openInApp(page, '/admin/user/list');
    await row(page, 'admin').waitFor();
    const info = await page.locator('.app-list-pager__total').boundingBox();
    expect(info!.height).toBeLessThan(30);

    // A date range filter: its two months one above the other, within the screen (side by side, 568 px).
    await openInApp(page, '/admin/order');
    await page.getByPlaceholder('开始日期').click();
    const months = page.locator('.app-date-range-popup .semi-datepicker-month-grid');
    await months.waitFor();
    await expect
      .poll(async () => {
        const box = await months.boundingBox();
        return box !== null && box.x >= 0 && box.x + box.width <= 390;
      })
      .toBe(true);
  });

  it("lists the dashboard's converters readably (each version on one line, each description as wide as the card) and puts its 网站数据 cards two a row, each number on one line inside its card at 20 px or more", async () => {
    const page = await phoneAdminPage('/admin/dashboard', PHONE);
    const table = page.locator('.app-admin-dashboard__envs');
    await table.locator('tbody tr').first().waitFor();
    const cells = await table.evaluate((element) =>
      [...element.querySelectorAll('tbody tr')].map((tr) => {
        const [name, , version, description] = [...tr.querySelectorAll('td')];
        // The lines a cell's text takes: its text's boxes whose tops lie more than 8 px apart (the
        // smaller 必需 beside a name sits a few pixels lower on the same line).
        const lines = (cell: Element) => {
          const range = document.createRange();
          range.selectNodeContents(cell);
          const tops = [...range.getClientRects()].map((r) => r.top).sort((a, b) => a - b);
          return tops.filter((top, i) => i === 0 || top - tops[i - 1]! > 8).length;
        };
        return {
          name: name!.textContent,
          nameLines: lines(name!),
          versionLines: lines(version!),
          descriptionWidth: description!.getBoundingClientRect().width,
          tableWidth: element.getBoundingClientRect().width,
        };
      }),
    );
    expect(cells.length).toBeGreaterThan(0);
    for (const cell of cells) {
      // Before, the 版本 column was 30 px wide and printed 1.28.1 a character or two a line.
      expect(cell.versionLines, `${cell.name} 版本`).toBe(1);
      expect(cell.nameLines, `${cell.name} 组件`).toBe(1);
      expect(cell.descriptionWidth, `${cell.name} 说明`).toBeGreaterThan(cell.tableWidth * 0.9);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // The same dashboard's 网站数据 cards.
    const figures = page.locator('.app-admin-dashboard__figure');
    await figures.first().waitFor();
    const cards = await figures.evaluateAll((elements) =>
      elements.map((card) => {
        const number = card.querySelector('dd')!;
        const range = document.createRange();
        range.selectNodeContents(number);
        return {
          label: card.querySelector('dt')!.textContent,
          top: Math.round(card.getBoundingClientRect().top),
          numberLines: new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size,
          numberFits: number.scrollWidth <= number.clientWidth,
          fontSize: parseFloat(getComputedStyle(number).fontSize),
        };
      }),
    );
    expect(cards).toHaveLength(8);
    // Before, minmax(160px, 1fr) left room for one card a row: eight rows of cards.
    expect(new Set(cards.map((card) => card.top)).size).toBe(4);
    for (const card of cards) {
      expect(card.numberLines, `${card.label}`).toBe(1);
      expect(card.numberFits, `${card.label}`).toBe(true);
      expect(card.fontSize, `${card.label}`).toBeGreaterThanOrEqual(20);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});

describe('a menu taller than the window', () => {
  /** Scrolls the menu by the wheel over it until `entry` is within the window, then clicks it with the mouse. */
  async function wheelToAndClick(page: Page, menu: Locator, entry: Locator, height: number) {
    const box = (await menu.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + height / 2);
    // Wheel until the entry is inside the window and nothing covers its middle (the rail's
    // button sits below the list), then until it stops moving: a wheel scroll is animated,
    // and a click read from a box still in motion can miss the entry.
    let seen: number | undefined;
    await expect
      .poll(async () => {
        const at = await entry.boundingBox();
        const reachable =
          at &&
          at.y >= 0 &&
          at.y + at.height <= height &&
          (await entry.evaluate((element, { x, y }) => element.contains(document.elementFromPoint(x, y)), {
            x: at.x + at.width / 2,
            y: at.y + at.height / 2,
          }));
        if (!reachable) {
          seen = undefined;
          await page.mouse.wheel(0, 200);
          return false;
        }
        const still = seen === at.y;
        seen = at.y;
        return still;
      })
      .toBe(true);
    // The menu scrolled, not the page behind it.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const at = (await entry.boundingBox())!;
    await page.mouse.click(at.x + at.width / 2, at.y + at.height / 2);
  }

  it('scrolls on its own to its last entry, on a wide screen (1280×900) and in the drawer (390×844)', async () => {
    const page = await open();
    await loginAsAdmin(page);
    const menu = page.getByRole('complementary', { name: '管理菜单' });
    await menu.getByText('系统设置', { exact: true }).click();
    const last = menu.getByRole('menuitem', { name: '短信配置' });
    await last.waitFor();
    // Before, the menu was as tall as the window and cut off the entries below it: the wheel scrolled the page.
    expect((await last.boundingBox())!.y).toBeGreaterThan(900);
    await wheelToAndClick(page, menu, last, 900);
    await page.waitForURL('**/admin/config/sms');
    await page.getByRole('heading', { level: 1, name: '短信配置' }).waitFor();
    await page.getByLabel('接收手机号').waitFor();
    // The rail's button stays in the window, below the list.
    const collapse = (await menu.getByText('收起侧边栏').boundingBox())!;
    expect(collapse.y + collapse.height).toBeLessThanOrEqual(900);

    await page.setViewportSize({ width: 390, height: 844 });
    await openInApp(page, '/admin/dashboard');
    await page.getByRole('button', { name: '菜单', exact: true }).click();
    await expect.poll(async () => (await menu.boundingBox())?.x).toBe(0);
    // On the dashboard the group is closed again.
    await menu.getByText('系统设置', { exact: true }).click();
    await last.waitFor();
    expect((await last.boundingBox())!.y).toBeGreaterThan(844);
    await wheelToAndClick(page, menu, last, 844);
    await page.waitForURL('**/admin/config/sms');
    await page.getByLabel('接收手机号').waitFor();
    await expect.poll(() => menu.isVisible()).toBe(false);
  });
});

describe("the current screen's entry in the menu", () => {
  /** Whether `entry` lies inside the window's `height`, uncovered (the rail's button sits below the list). */
  const inSight = async (entry: Locator, height: number) => {
    const at = await entry.boundingBox();
    return Boolean(
      at &&
      at.y >= 0 &&
      at.y + at.height <= height &&
      (await entry.evaluate((element, { x, y }) => element.contains(document.elementFromPoint(x, y)), {
        x: at.x + at.width / 2,
        y: at.y + at.height / 2,
      })),
    );
  };

  it('is in sight on a screen of a group low in the menu, on a 1280×800 screen and in the drawer', async () => {
    const page = await open();
    await page.setViewportSize({ width: 1280, height: 800 });
    await loginAsAdmin(page, '/admin/config/pay');
    const menu = page.getByRole('complementary', { name: '管理菜单' });
    const entry = menu.getByRole('menuitem', { name: '支付配置' });
    await entry.waitFor();
    // Before, 系统设置 opened at the menu's foot with its twelve screens below the window's edge.
    await expect.poll(() => inSight(entry, 800)).toBe(true);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    await page.setViewportSize({ width: 390, height: 844 });
    await openInApp(page, '/admin/config/security');
    await page.getByRole('heading', { level: 1, name: '安全配置' }).waitFor();
    await page.getByRole('button', { name: '菜单', exact: true }).click();
    await expect.poll(async () => (await menu.boundingBox())?.x).toBe(0);
    await expect.poll(() => inSight(menu.getByRole('menuitem', { name: '安全配置' }), 844)).toBe(true);
  });
});

describe("dates in China time, whatever the browser's zone", () => {
  it('a date range filter asks for the picked days of Beijing time, and a date and time field shows and keeps Beijing time, from a browser in New York', async () => {
    const context = await site.browser.newContext({
      baseURL: site.url,
      locale: 'zh-CN',
      timezoneId: 'America/New_York',
      viewport: { width: 1280, height: 900 },
    });
    try {
      const page = await context.newPage();
      await loginAsAdmin(page, '/admin/order');
      await page.getByPlaceholder('开始日期').click();
      const grid = page.locator('.app-date-range-popup .semi-datepicker-month-grid-left');
      await grid.waitFor();
      const listed = page.waitForRequest(
        (request) => request.url().includes('/api/v1/order/list') && request.url().includes('created_from'),
      );
      // Days picked by their label (the cell's title is its date): the grid's leading blank
      // cells depend on the weekday the month starts on, so a position depends on today.
      const day = (n: string) => grid.locator(`[role="gridcell"][title$="-${n}"]`);
      await day('10').click();
      await day('12').click();
      const query = new URL((await listed).url()).searchParams;
      // the 10th to the 12th of the month shown: from the 10th 00:00 to the 13th 00:00 in Beijing (UTC+8)
      const from = new Date(query.get('created_from')!);
      const to = new Date(query.get('created_to')!);
      expect(from.getUTCHours()).toBe(16);
      expect(from.getUTCMinutes()).toBe(0);
      expect(to.getTime() - from.getTime()).toBe(3 * 24 * 3600_000);
      expect(new Date(from.getTime() + 8 * 3600_000).getUTCDate()).toBe(10);
      // shown back as the same days
      expect(await page.getByPlaceholder('开始日期').inputValue()).toMatch(/-10$/);
      expect(await page.getByPlaceholder('结束日期').inputValue()).toMatch(/-12$/);

      // A date and time field shows and keeps the time of Beijing: a punishment ending at 10:00 there.
      const token = await login(site.backendUrl, 'admin', site.adminPassword);
      const member = await registerMember(site.backendUrl);
      const reason = unique('时区测试');
      const created = await api(site.backendUrl, 'POST', '/api/v1/punishment', {
        token,
        body: { user_id: [member.user.id], type: [1], end_time: '2099-01-05T02:00:00Z', reason },
      });
      expect(created.status, created.text).toBe(200);
      await openInApp(page, '/admin/user/punishment');
      await row(page, reason).getByRole('button', { name: /^编辑/ }).click();
      const form = sheet(page, '编辑处罚');
      expect(await form.getByPlaceholder('留空表示永久').inputValue()).toBe('2099-01-05 10:00:00');
      await form.getByRole('button', { name: '保存' }).click();
      await form.waitFor({ state: 'hidden' });
      const list = await api(site.backendUrl, 'GET', '/api/v1/punishment/list', { token, query: { wd: reason } });
      expect(Date.parse(list.body.punishment[0].end_time)).toBe(Date.parse('2099-01-05T02:00:00Z'));
    } finally {
      await context.close();
    }
  });
});

describe('a table wider than its panel', () => {
  it('scrolls sideways under its actions column, which stays in sight at 1024 px; no header wraps', async () => {
    const page = await open();
    // At 1280 px every list fits its panel (admin-table-widths.test.ts); narrower, some do not.
    await page.setViewportSize({ width: 1024, height: 900 });
    await loginAsAdmin(page, '/admin/user/group');
    await row(page, '超级管理员').waitFor();
    const body = page.locator('.app-resource-table .semi-table-body');
    // Nine columns: wider than the panel (before, 编辑 and 删除 were past the screen's edge).
    expect(await body.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    const bodyBox = (await body.boundingBox())!;
    for (const name of ['编辑“超级管理员”', '设置“超级管理员”的权限', '编辑“普通用户”']) {
      const box = (await page.getByRole('button', { name }).boundingBox())!;
      expect(box.x + box.width, name).toBeLessThanOrEqual(Math.min(bodyBox.x + bodyBox.width, 1024) + EDGE_SLACK_PX);
    }
    // Scrolled to its far left, the actions still cover the columns passing under them.
    await body.evaluate((element) => {
      element.scrollLeft = element.scrollWidth;
    });
    const edit = (await page.getByRole('button', { name: '编辑“超级管理员”' }).boundingBox())!;
    expect(edit.x + edit.width).toBeLessThanOrEqual(bodyBox.x + bodyBox.width + EDGE_SLACK_PX);
    // Headers on one line (邮箱 took two, a character each).
    await openInApp(page, '/admin/user/list');
    await row(page, 'admin').waitFor();
    const heights = await page
      .locator('.app-resource-table thead th')
      .evaluateAll((cells) => cells.map((cell) => cell.getBoundingClientRect().height));
    expect(new Set(heights.map(Math.round)).size).toBe(1);
  });

  it("on a phone gives every column at least 6em (a category's name took a line a character), leaves the actions in the flow and keeps a user's name and credits on one line each after their avatar (用户管理)", async () => {
    const page = await phoneAdminPage('/admin/user/list', PHONE);
    await row(page, 'admin').waitFor();
    const ems = await page
      .locator('.app-resource-table tbody tr:first-child > td:not(.semi-table-column-selection)')
      .evaluateAll((cells) =>
        cells.map((cell) => cell.getBoundingClientRect().width / parseFloat(getComputedStyle(cell).fontSize)),
      );
    expect(Math.min(...ems)).toBeGreaterThanOrEqual(6);
    expect(
      await page
        .locator('.app-resource-table tbody td.app-resource-table__actions')
        .first()
        .evaluate((cell) => getComputedStyle(cell).position),
    ).not.toBe('sticky');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // The lines each text of the cell takes (before, the name broke after every two or three letters).
    const lines = await page
      .locator('.app-resource-table tbody .app-user-cell .app-resource-stack > span')
      .evaluateAll((spans) =>
        spans.map((span) => {
          const range = document.createRange();
          range.selectNodeContents(span);
          return [span.textContent, new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size];
        }),
      );
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter(([, count]) => count !== 1)).toEqual([]);
  });

  it('on a phone keeps each industry code on one line (行业管理) and the names of a tree on one line after their indent (权限管理)', async () => {
    const page = await phoneAdminPage('/admin/document/language', PHONE);
    await row(page, 'education').waitFor();
    // The lines each code takes (before, education broke into educat / ion).
    const lines = await page.locator('.app-resource-table tbody .app-resource-code').evaluateAll((codes) =>
      codes.map((code) => {
        const range = document.createRange();
        range.selectNodeContents(code);
        return [code.textContent, new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size];
      }),
    );
    expect(lines.map(([code]) => code)).toContain('education');
    expect(lines.filter(([, count]) => count !== 1)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // A tree (权限管理), reached inside the app.
    await openInApp(page, '/admin/user/permission');
    await row(page, '下载待审核文档').waitFor();
    // The lines each name takes, after the indent of its level (permissions are two levels down).
    const treeLines = await page
      .locator('.app-resource-table tbody td:has(> .semi-table-row-indent)')
      .evaluateAll((cells) =>
        cells.slice(0, 10).map((cell) => {
          const range = document.createRange();
          range.selectNodeContents(cell);
          return [cell.textContent, new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size];
        }),
      );
    expect(treeLines).toHaveLength(10);
    expect(treeLines.filter(([, count]) => count !== 1)).toEqual([]);
  });
});
