// Buying VIP in Chromium against the real gateway and embedded backend (issue 16's browser
// test): a member orders a plan and pays by transfer, an admin confirms the payment, and the
// member's pages show VIP with its end date, and the VIP benefit works: the member, stopped
// at the end of the free preview before, reads the whole document after.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { formatDate } from '../../shared/format';
import { api, login, registerMember } from '../helpers/backend';
import { createDocument, waitForStatus } from '../helpers/document-api';
import { fixture } from '../helpers/documents';
import { readFileSync } from 'node:fs';
import { appTookOver, gatewayToken, keptAdminPage, openInApp, setTokenCookie, useSiteInBrowser } from './browser';

const INSTRUCTIONS = '请转账至 招商银行 6225 8888 0000 1234（户名：魔豆文库），转账备注填写订单号。';

const site = useSiteInBrowser({
  env: () => ({
    CONFIG_VIP_ENABLE: 'true',
    CONFIG_PAY_ENABLE: 'true',
    CONFIG_PAY_PROVIDER: 'manual',
    CONFIG_PAY_MANUAL_INSTRUCTIONS: INSTRUCTIONS,
    // Two free pages of the three-page fixture; VIP reads them all.
    CONFIG_CONVERTER_MAX_PREVIEW: '2',
  }),
});

/** A phone's window, 390 px wide. */
const PHONE = { width: 390, height: 844 };

/**
 * The admin's page kept across the tests at 390 px that leave no form half filled (the VIP plans'
 * tests open their own): a context and a login fewer for each.
 */
const phoneAdminPage = keptAdminPage(site);

/**
 * A new member `username`, registered through the API and logged in on `page` by its cookie, on no
 * screen yet: the registration form has its own tests (spa.test.ts), here it would cost a page load.
 */
async function signUp(page: Page, username: string) {
  const member = await registerMember(site.backendUrl, { username, email: `${username}@example.com` });
  await setTokenCookie(page.context(), site.url, member.token);
}

let adminToken: Promise<string> | undefined;

/**
 * Opens `then` on `page` logged in as the admin by the cookie a login leaves (logged in once for the
 * file): the login form has its own tests (spa.test.ts, admin.test.ts), here it would cost a page load.
 */
async function loginAsAdmin(page: Page, then: string) {
  adminToken ??= gatewayToken(site.url, 'admin', site.adminPassword);
  await setTokenCookie(page.context(), site.url, await adminToken);
  await page.goto(then);
  await appTookOver(page);
}

/** A new member's order of a month's VIP, not paid (no transfer submitted): its number. */
async function pendingOrder(): Promise<string> {
  const buyer = await registerMember(site.backendUrl);
  const created = await api(site.backendUrl, 'POST', '/api/v1/order', {
    token: buyer.token,
    body: { plan_code: 'month', price: 30 },
  });
  expect(created.status, created.text).toBe(200);
  return created.body.order_no as string;
}

/**
 * The admin's order list on a phone, 390 px wide, on the kept page: in the file's order loaded
 * afresh (the page on it already from the test before, or on no screen yet), no earlier toast left.
 */
async function phoneOrderList(): Promise<Page> {
  return phoneAdminPage('/admin/order', PHONE);
}

/** A converted three-page document published by the admin; answers its reader path. */
async function publishedDocument(): Promise<string> {
  const token = await gatewayToken(site.url, 'admin', site.adminPassword);
  expect(
    (await api(site.url, 'POST', '/api/v1/category', { token, body: { title: '会员资料', type: 0, enable: true } }))
      .status,
  ).toBe(200);
  const categories = await api(site.url, 'GET', '/api/v1/category/list', { token, query: { type: 0 } });
  const categoryId = categories.body.category.find((c: { title: string }) => c.title === '会员资料').id as number;
  const doc = await createDocument(site.url, token, readFileSync(fixture('chinese.pdf')), '会员文档.pdf', {
    category_id: [categoryId],
  });
  await waitForStatus(site.url, token, doc.id, [2], 90_000);
  return `/library/${categoryId}/${doc.id}`;
}

/**
 * The WCAG contrast ratio of the hero's VIP state tag `name` (its text over its background,
 * a translucent one laid over the hero's darker and its lighter end; the lower ratio counts).
 */
async function heroTagContrast(page: Page, name: string): Promise<number> {
  const tag = page.locator('.app-vip__hero .semi-tag', { hasText: name });
  await appTookOver(page);
  await tag.waitFor();
  const colors = await tag.evaluate((element) => {
    const style = getComputedStyle(element);
    return { text: style.color, background: style.backgroundColor };
  });
  const rgba = (css: string) => {
    const [r = 0, g = 0, b = 0, a = 1] = (/rgba?\(([^)]*)\)/.exec(css)?.[1] ?? '')
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number);
    return { r, g, b, a };
  };
  const luminance = ({ r, g, b }: { r: number; g: number; b: number }) => {
    const channel = (v: number) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const text = rgba(colors.text);
  const background = rgba(colors.background);
  const ratios = [
    { r: 0x3b, g: 0x2a, b: 0x12 },
    { r: 0x6b, g: 0x4a, b: 0x1f },
  ].map((hero) => {
    const over = (c: 'r' | 'g' | 'b') => background[c] * background.a + hero[c] * (1 - background.a);
    const [light, dark] = [luminance(text), luminance({ r: over('r'), g: over('g'), b: over('b') })].sort(
      (x, y) => y - x,
    );
    return (light! + 0.05) / (dark! + 0.05);
  });
  return Math.min(...ratios);
}

/** `2099-03-04 13:06` → the date part the pages print first. */
const datePart = (text: string) => /\d{4}-\d{2}-\d{2}/.exec(text)?.[0] ?? '';

describe('VIP purchase with the manual provider', () => {
  it("a member buys a plan, the admin confirms the transfer, the member is VIP until the plan's end", async () => {
    const username = `vipbuyer${Date.now() % 1_000_000}`;
    const documentPath = publishedDocument();
    const member = await site.open();
    await signUp(member, username);
    // Not VIP yet: the reader stops after the free pages.
    await member.goto(await documentPath);
    await member.getByRole('heading', { name: '免费预览已结束' }).waitFor();

    await member.goto('/vip');
    await member.getByRole('heading', { name: 'VIP 会员', level: 1 }).waitFor();
    await member.getByText('您还不是 VIP 会员').waitFor();
    // The state's tag reads on the dark hero.
    expect(await heroTagContrast(member, '普通会员')).toBeGreaterThanOrEqual(4.5);
    await member.getByRole('link', { name: '开通会员' }).waitFor();
    const year = member.locator('[data-plan="year"]');
    expect(await year.getByText('推荐').count()).toBe(1);
    await year.getByRole('button', { name: '立即开通年度会员' }).click();
    await member.waitForURL((url) => url.pathname === '/vip/checkout' && url.searchParams.get('plan') === 'year');
    await member.getByText('¥298.00').waitFor();
    await member.getByRole('button', { name: '立即支付' }).dblclick();
    await member.getByText(INSTRUCTIONS).waitFor();
    await member.waitForURL((url) => url.searchParams.has('order_no'));
    const orderNo = new URL(member.url()).searchParams.get('order_no')!;
    await member.getByText('等待管理员确认收款').waitFor();
    // A transfer has days, not the minutes of an online payment, and the member is told until when.
    const placed = await api(site.backendUrl, 'GET', '/api/v1/order/list', {
      token: await login(site.backendUrl, 'admin', site.adminPassword),
      query: { wd: orderNo },
    });
    const deadline = formatDate(Date.parse(placed.body.order[0].created_at) + 3 * 24 * 3600_000, 'YYYY-MM-DD HH:mm');
    expect(await member.locator('.app-checkout__deadline').textContent()).toBe(
      `请在 ${deadline} 前完成转账，逾期未确认收款的订单将自动关闭。`,
    );
    // Opened again later (查看订单 in 我的订单), the submitted transfer still shows what to do.
    await member.goto('/member/order');
    await member.locator('table tbody tr', { hasText: orderNo }).getByRole('button', { name: '查看订单' }).click();
    await member.waitForURL((url) => url.searchParams.get('order_no') === orderNo);
    await member.getByText(INSTRUCTIONS).waitFor();
    await member.getByText('等待管理员确认收款').waitFor();
    expect(await member.getByRole('button', { name: '立即支付' }).count()).toBe(0);

    // The admin finds the one order in the order screen and confirms the transfer.
    const admin = await site.open();
    await loginAsAdmin(admin, '/admin/order');
    const orderRow = admin.locator('.app-resource-table tbody tr', { hasText: orderNo });
    await orderRow.waitFor();
    expect(await admin.locator('.app-resource-table tbody tr', { hasText: username }).count()).toBe(1);
    await orderRow.getByRole('button', { name: `确认收款 ${orderNo}` }).click();
    const dialog = admin.locator('.semi-modal', { has: admin.locator('.semi-modal-title', { hasText: '确认收款' }) });
    await dialog.getByRole('button', { name: '确认收款' }).click();
    await dialog.getByText('请输入收款说明').waitFor();
    await dialog.getByLabel('收款说明').fill('招商银行到账 298 元');
    await dialog.getByRole('button', { name: '确认收款' }).click();
    await admin.locator('.app-toast', { hasText: '已确认收款' }).first().waitFor();
    await orderRow.getByText('已支付').filter({ visible: true }).waitFor();

    // The checkout polls the order and moves on by itself.
    await member.getByRole('heading', { name: '支付成功' }).waitFor({ timeout: 15_000 });
    const endLine = (await member.getByText(/VIP 会员有效期至/).textContent()) ?? '';
    const expectedEnd = new Date(Date.now() + 365 * 24 * 3600_000).toISOString().slice(0, 10);
    expect([expectedEnd, new Date(Date.now() + 366 * 24 * 3600_000).toISOString().slice(0, 10)]).toContain(
      datePart(endLine),
    );
    // The header follows without a reload.
    await member.getByRole('link', { name: 'VIP 会员' }).waitFor();

    // Reached inside the app as its links do: the payment's refresh, not a page load, brings the new state.
    await openInApp(member, '/member');
    const vipPanel = member.locator('section', { has: member.getByRole('heading', { name: 'VIP 会员' }) });
    await vipPanel.getByText('有效期至').waitFor();
    expect(datePart((await vipPanel.textContent()) ?? '')).toBe(datePart(endLine));
    await openInApp(member, '/member/order');
    await member.locator('table tbody tr', { hasText: orderNo }).getByText('已支付').waitFor();
    await openInApp(member, '/vip');
    await member.getByText(/有效期至/).waitFor();
    expect(await heroTagContrast(member, 'VIP 会员')).toBeGreaterThanOrEqual(4.5);
    // An active VIP renews: the plans say so.
    expect(
      await member.locator('[data-plan="year"]').getByRole('button', { name: '立即续费年度会员' }).textContent(),
    ).toBe('立即续费');
    expect(await member.getByRole('button', { name: /^开通/ }).count()).toBe(0);

    // The admin sees the member among the VIP members.
    await openInApp(admin, '/admin/user/vip');
    await admin.locator('.app-resource-table tbody tr', { hasText: username }).getByText('有效').waitFor();

    // The benefit: the member now reads past the preview, to the last page.
    await member.goto(await documentPath);
    await member.getByText('— 全文完 —').waitFor();
    expect(await member.getByRole('figure').count()).toBe(3);
    expect(await member.getByRole('heading', { name: '免费预览已结束' }).count()).toBe(0);
    await member.getByText('— 全文完 —').scrollIntoViewIfNeeded();
    await member.waitForFunction(
      () => (document.querySelector('img[alt="第 3 页"]') as HTMLImageElement | null)?.naturalWidth !== 0,
    );
  });

  it('asks before 取消订单 in 我的订单, its question inside the list at 1280 px, and 取消 keeps the order', async () => {
    const page = (await site.visit()).page;
    await page.setViewportSize({ width: 1280, height: 900 });
    await signUp(page, `vipcancel${Date.now() % 1_000_000}`);
    await page.goto('/vip/checkout?plan=month');
    // A click before the app took over the first screen does nothing.
    await appTookOver(page);
    await page.getByRole('button', { name: '立即支付' }).click();
    await page.getByText('等待管理员确认收款').waitFor();
    await openInApp(page, '/member/order');
    await page.getByRole('button', { name: /^取消订单 \d+$/ }).click();
    const question = page.getByRole('group', {
      name: '取消后订单将关闭，无法再支付（已转账请勿取消）。确定取消订单？',
    });
    const edges = await question.evaluate((element) => ({
      question: element.getBoundingClientRect().right,
      panel: element.closest('.app-panel')?.getBoundingClientRect().right ?? 0,
    }));
    expect(edges.question).toBeLessThanOrEqual(edges.panel);
    await question.getByRole('button', { name: '取消', exact: true }).click();
    await page.getByRole('button', { name: /^取消订单 \d+$/ }).waitFor();
    expect(await page.getByText('待确认收款').count()).toBe(1);
  });

  it('confirms by keyboard at 390 px an order with no transfer submitted, asked first, the keyboard back on its row', async () => {
    const no = await pendingOrder();
    const admin = await phoneOrderList();
    const opener = admin.getByRole('button', { name: `确认收款 ${no}` });
    const focused = () => admin.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    // The dialog open (one at a time) lies within the screen's width.
    const onScreen = async () => {
      const box = (await admin.locator('.semi-modal-content').boundingBox())!;
      return box.x >= 0 && box.x + box.width <= 390;
    };
    // The question and the reason dialog after it bear the same title.
    const question = admin.locator('.semi-modal', { hasText: '已核实，继续' });

    await opener.focus();
    await admin.keyboard.press('Enter');
    await question.getByText(`确认收款 · ${no}`).waitFor();
    await question.getByText('会员没有为这笔订单提交线下转账，也没有选择支付方式，订单仍为待支付。').waitFor();
    expect(await onScreen()).toBe(true);
    // 取消 gives the keyboard back to the row's button.
    await question.getByRole('button', { name: '取消' }).focus();
    await admin.keyboard.press('Enter');
    await question.waitFor({ state: 'detached' });
    await expect.poll(focused).toBe(`确认收款 ${no}`);

    await admin.keyboard.press('Enter');
    await question.getByRole('button', { name: '已核实，继续' }).focus();
    await admin.keyboard.press('Enter');
    const reason = admin.getByRole('textbox', { name: '收款说明' });
    await reason.waitFor();
    expect(await onScreen()).toBe(true);
    // Escape from the reason dialog: back on the row's button, not on the page.
    await reason.focus();
    await admin.keyboard.press('Escape');
    await reason.waitFor({ state: 'detached' });
    await expect.poll(focused).toBe(`确认收款 ${no}`);

    // Through to the end by keyboard: the order is paid.
    await admin.keyboard.press('Enter');
    await question.getByRole('button', { name: '已核实，继续' }).focus();
    await admin.keyboard.press('Enter');
    await reason.fill('支付宝商户平台已到账，通知丢失');
    await admin.keyboard.press('Tab');
    await admin.locator('.semi-modal').getByRole('button', { name: '确认收款' }).focus();
    await admin.keyboard.press('Enter');
    await admin.locator('.app-toast', { hasText: '已确认收款' }).first().waitFor();
    await admin.getByRole('button', { name: `退款 ${no}` }).waitFor();
    // 确认收款 is gone from the paid order's row: the keyboard is on the row's 详情, not on the page.
    await expect.poll(focused).toBe(`订单 ${no} 详情`);

    // And refunded by keyboard, the reason checked first; then too the keyboard stays on the row.
    await admin.getByRole('button', { name: `退款 ${no}` }).focus();
    await admin.keyboard.press('Enter');
    const refund = admin.locator('.semi-modal').getByRole('button', { name: '标记为已退款' });
    await refund.focus();
    await admin.keyboard.press('Enter');
    await admin.getByText('请输入退款原因').waitFor();
    expect(await onScreen()).toBe(true);
    await admin.getByRole('textbox', { name: '退款原因' }).fill('会员申请退款');
    await refund.focus();
    await admin.keyboard.press('Enter');
    await admin.locator('.app-toast', { hasText: '订单已退款' }).first().waitFor();
    await admin.getByRole('button', { name: `退款 ${no}` }).waitFor({ state: 'detached' });
    await expect.poll(focused).toBe(`订单 ${no} 详情`);
  });

  it("opens an order's 详情 and 支付通知记录 by keyboard at 390 px, the keyboard inside each sheet and back after", async () => {
    const no = await pendingOrder();
    const admin = await phoneOrderList();
    const where = () =>
      admin.evaluate(() => {
        const focused = document.activeElement;
        const sheet = focused?.closest('.semi-sidesheet');
        if (sheet) return `sheet: ${sheet.querySelector('.semi-sidesheet-title')?.textContent ?? ''}`;
        return focused?.getAttribute('aria-label') ?? focused?.textContent?.trim() ?? '';
      });
    for (const [opener, title] of [
      [`订单 ${no} 详情`, `订单详情 · ${no}`],
      ['支付通知记录', '支付通知记录'],
    ] as const) {
      await admin.getByRole('button', { name: opener }).focus();
      await admin.keyboard.press('Enter');
      await admin.locator('.semi-sidesheet-title', { hasText: title }).waitFor();
      await expect.poll(where, { message: opener }).toBe(`sheet: ${title}`);
      // Tab goes on inside the sheet (its 关闭 first), not to the page under its mask.
      await admin.keyboard.press('Tab');
      expect(await where(), opener).toMatch(/^sheet: /);
      await admin.keyboard.press('Escape');
      await admin.locator('.semi-sidesheet-title', { hasText: title }).waitFor({ state: 'detached' });
      await expect.poll(where, { message: opener }).toBe(opener);
    }
  });

  it('closes orders in a batch by keyboard at 390 px, the keyboard then on the list, not on the page', async () => {
    const orders = [await pendingOrder(), await pendingOrder()];
    const admin = await phoneOrderList();
    for (const no of orders) {
      await admin.getByRole('checkbox', { name: `选择“${no}”` }).focus();
      await admin.keyboard.press('Space');
    }
    const batch = admin.getByRole('button', { name: '批量关闭（2）' });
    await batch.focus();
    await admin.keyboard.press('Enter');
    await admin.getByRole('textbox', { name: '关闭原因' }).fill('重复下单');
    await admin.locator('.semi-modal').getByRole('button', { name: '确定' }).focus();
    await admin.keyboard.press('Enter');
    await admin.locator('.app-toast', { hasText: '订单已关闭' }).first().waitFor();
    // The batch button, disabled now that nothing is selected, cannot have the keyboard back.
    await expect
      .poll(() => admin.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? ''))
      .toBe('全选本页');
  });

  it('shows at 390 px the VIP plan 保存 finds wrong, in the plans table scrolled sideways to its 删除 buttons', async () => {
    const admin = (await site.visit()).page;
    await admin.setViewportSize({ width: 390, height: 844 });
    await loginAsAdmin(admin, '/admin/config/vip');
    const codes = admin.getByRole('textbox', { name: /^第 \d+ 个套餐的代码$/ });
    await codes.first().waitFor();
    const n = (await codes.count()) + 1;
    await admin.getByRole('button', { name: '添加套餐' }).focus();
    await admin.keyboard.press('Enter');
    const code = admin.getByRole('textbox', { name: `第 ${n} 个套餐的代码` });
    await code.waitFor();
    // Tabbing to the new row's 删除 scrolls the table to its right end, the code out of sight.
    await admin.getByRole('button', { name: `删除第 ${n} 个套餐` }).focus();
    const inSight = () =>
      code.evaluate((element) => {
        const box = element.getBoundingClientRect();
        const table = element.closest('.app-vip-plan-table__wrap')!.getBoundingClientRect();
        return box.left >= table.left && box.right <= table.right && box.left >= 0 && box.right <= window.innerWidth;
      });
    expect(await inSight()).toBe(false);
    await admin.getByRole('button', { name: '保存' }).focus();
    await admin.keyboard.press('Enter');
    await admin.getByText(`第 ${n} 个套餐：套餐代码须为 1 到 32 位字母、数字、下划线或短横线`).waitFor();
    await expect.poll(() => code.evaluate((element) => element === document.activeElement)).toBe(true);
    await expect.poll(inSight).toBe(true);
  });

  it('keeps the keyboard in the VIP plans table at 390 px as a plan is added and the last one deleted', async () => {
    const admin = (await site.visit()).page;
    await admin.setViewportSize({ width: 390, height: 844 });
    await loginAsAdmin(admin, '/admin/config/vip');
    const codes = admin.getByRole('textbox', { name: /^第 \d+ 个套餐的代码$/ });
    await codes.first().waitFor();
    const n = (await codes.count()) + 1;
    const focused = () => admin.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    await admin.getByRole('button', { name: '添加套餐' }).focus();
    await admin.keyboard.press('Enter');
    // On the new row's 代码, in sight, to type its code at once.
    await expect.poll(focused).toBe(`第 ${n} 个套餐的代码`);
    const box = (await admin.getByRole('textbox', { name: `第 ${n} 个套餐的代码` }).boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await admin.keyboard.type('week');
    // Deleted again from its own 删除: the keyboard goes to the 删除 of the row now last.
    await admin.getByRole('button', { name: `删除第 ${n} 个套餐` }).focus();
    await admin.keyboard.press('Enter');
    await admin.getByRole('textbox', { name: `第 ${n} 个套餐的代码` }).waitFor({ state: 'detached' });
    await expect.poll(focused).toBe(`删除第 ${n - 1} 个套餐`);
  });

  it("keeps a VIP member's name on one line in 会员管理 at 390 px", async () => {
    const member = await registerMember(site.backendUrl, {
      username: `buyera${String(Date.now() % 10_000).padStart(4, '0')}`,
    });
    const token = await gatewayToken(site.url, 'admin', site.adminPassword);
    const granted = await api(site.url, 'POST', '/api/v1/vip/grant', {
      token,
      body: { user_id: [member.user.id], days: 30, reason: '活动赠送' },
    });
    expect(granted.status, granted.text).toBe(200);
    const admin = await phoneAdminPage('/admin/user/vip', PHONE);
    const name = admin.locator('.app-resource-table tbody td', { hasText: member.username }).first();
    await name.waitFor();
    const lines = await name.evaluate((cell) => {
      const range = document.createRange();
      range.selectNodeContents(cell);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });
    expect(lines).toBe(1);
  });

  it("works at 390 px wide: the plans, the checkout, the member's orders and the admin screens fit the screen", async () => {
    const visit = await site.visit();
    const page = visit.page;
    await page.setViewportSize({ width: 390, height: 844 });
    await signUp(page, `vipphone${Date.now() % 1_000_000}`);
    for (const path of ['/vip', '/vip/checkout?plan=month', '/member/order']) {
      // The first is loaded, its requests answered; the others are reached inside the app.
      if (path === '/vip') {
        await page.goto(path, { waitUntil: 'networkidle' });
        await appTookOver(page);
      } else await openInApp(page, path);
      await page.locator('h1').first().waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
    for (const path of ['/admin/order', '/admin/user/vip', '/admin/config/vip']) {
      // Each reached inside the app on the admin's kept page (from the test before's screen).
      const admin = await phoneAdminPage(path, PHONE);
      await admin.locator('h1').first().waitFor();
      await admin.locator('.app-resource-table, .app-config-form').first().waitFor();
      const overflow = await admin.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
  });
});
