// Layouts of the member's screens that broke on a phone or a wide screen (issue 46): a failed
// row of 我的文档 at 390 px, its long titles and reasons at 1280 px, its edit form opened from far down the list, and the checkout's
// 支付方式 and buttons at 1280 and 390 px; the header's first row (the site's name, 开通会员 and
// the visitor's or member's links) at 390 px; the open user menu naming the member at 390 px; a long
// signature (个人中心, the uploader's card) at 390 px; 我的消息's tab 未读消息（2） beside 全部标为已读 at 390 px.
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { api, registerMember, withDatabase, type Member } from '../helpers/backend';
import { insertDocument } from '../helpers/document-fixtures';
import { appTookOver, gatewayToken, openInApp, useSiteInBrowser, setTokenCookie } from './browser';

const site = useSiteInBrowser({
  env: () => ({
    CONFIG_VIP_ENABLE: 'true',
    CONFIG_PAY_ENABLE: 'true',
    CONFIG_PAY_PROVIDER: 'manual,alipay',
    CONFIG_PAY_MANUAL_INSTRUCTIONS: '转账至招商银行，备注订单号',
    CONFIG_PAY_ALIPAY_APP_ID: '2021000000000000',
    CONFIG_PAY_ALIPAY_PRIVATE_KEY: 'key',
    CONFIG_PAY_ALIPAY_PUBLIC_KEY: 'key',
  }),
});

async function memberPage(member: Member, width: number): Promise<Page> {
  const visit = await site.visit();
  await visit.page.setViewportSize({ width, height: 900 });
  await setTokenCookie(visit.context, site.url, member.token);
  return visit.page;
}

const box = async (locator: Locator) => (await locator.boundingBox())!;

describe('我的文档 on a phone', () => {
  it("keeps a failed row's 状态 label and tag whole on one line, the reason under them", async () => {
    const member = await registerMember(site.backendUrl);
    const doc = await insertDocument(site.dataDir, {
      userId: member.user.id,
      title: '一份转换失败的季度财务报告',
      status: 3,
    });
    await withDatabase(site.dataDir, (db) =>
      db
        .updateTable('document')
        .set({ convert_error: '文档已损坏或格式不正确，无法转换' })
        .where('id', '=', doc.id)
        .execute(),
    );
    const page = await memberPage(member, 390);
    await page.goto('/member/document');
    const cell = page.getByRole('row').filter({ hasText: '一份转换失败' }).getByRole('cell').nth(1);
    const tag = cell.getByText('转换失败', { exact: true });
    await tag.waitFor();
    const [cellBox, tagBox, reasonBox] = [
      await box(cell),
      await box(tag),
      await box(cell.getByText('文档已损坏或格式不正确，无法转换')),
    ];
    // The label sits on the tag's line (a label broken over two lines would centre the tag lower).
    expect(tagBox.y - cellBox.y).toBeLessThan(6);
    expect(tagBox.x - cellBox.x).toBeGreaterThan(24);
    expect(await tag.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    expect(reasonBox.y).toBeGreaterThanOrEqual(tagBox.y + tagBox.height - 1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});

describe('我的文档 on a wide screen', () => {
  it('wraps a long title and a failed conversion’s reason, so that every row’s 编辑 and 删除 show at 1280 px', async () => {
    const member = await registerMember(site.backendUrl);
    await insertDocument(site.dataDir, { userId: member.user.id, title: '很长的文件名'.repeat(33), status: 2 });
    const failed = await insertDocument(site.dataDir, { userId: member.user.id, title: '损坏的试卷', status: 3 });
    await withDatabase(site.dataDir, (db) =>
      db
        .updateTable('document')
        .set({ convert_error: '文件已损坏或不完整（第 1 页起内容缺失），请上传完整的文件'.repeat(2) })
        .where('id', '=', failed.id)
        .execute(),
    );
    const page = await memberPage(member, 1280);
    await page.goto('/member/document');
    const wrap = page.locator('.app-member__list-wrap');
    for (const title of ['很长的文件名'.repeat(33), '损坏的试卷']) {
      const remove = page.getByRole('button', { name: `删除“${title}”` });
      await remove.waitFor();
      const [wrapBox, removeBox] = [await box(wrap), await box(remove)];
      expect(removeBox.x + removeBox.width).toBeLessThanOrEqual(wrapBox.x + wrapBox.width);
    }
    expect(await wrap.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  });
});

describe('我的文档 编辑 far down the list', () => {
  it('brings the edit form into view with its title focused, at 390 and 1280 px', async () => {
    const member = await registerMember(site.backendUrl);
    for (let i = 1; i <= 10; i += 1)
      await insertDocument(site.dataDir, { userId: member.user.id, title: `第${i}份讲义` });
    // One load: at 1280 px the form is opened again, after 取消 closed the one of 390 px.
    const page = await memberPage(member, 390);
    await page.goto('/member/document');
    const heading = page.getByRole('heading', { name: '编辑文档“第1份讲义”' });
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.getByRole('button', { name: '编辑“第1份讲义”' }).click();
      await heading.waitFor();
      const top = (await box(heading)).y;
      expect(top, `${width}`).toBeGreaterThanOrEqual(0);
      expect(top, `${width}`).toBeLessThan(900);
      expect(await page.evaluate(() => document.activeElement?.id), `${width}`).toBe('edit-title');
      await page.getByRole('button', { name: '取消', exact: true }).click();
      await heading.waitFor({ state: 'detached' });
    }
  });
});

describe('the checkout', () => {
  it('lines 支付方式 up with the summary and gives its two buttons one height, at 1280 and 390 px', async () => {
    const member = await registerMember(site.backendUrl);
    const order = await api(site.backendUrl, 'POST', '/api/v1/order', {
      token: member.token,
      body: { plan_code: 'month', price: 30 },
    });
    expect(order.status, order.text).toBe(200);
    // One load, measured at each width: the layout is the style sheet's.
    const page = await memberPage(member, 1280);
    await page.goto(`/vip/checkout?order_no=${order.body.order_no}`);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const pay = page.getByRole('button', { name: '立即支付' });
      const cancel = page.getByRole('button', { name: '取消订单' });
      await pay.waitFor();
      const [payBox, cancelBox] = [await box(pay), await box(cancel)];
      expect(cancelBox.height, `${width}`).toBe(payBox.height);
      expect(cancelBox.y, `${width}`).toBe(payBox.y);
      const providers = page.getByRole('radiogroup', { name: '支付方式' });
      const label = await box(providers.getByText('支付方式', { exact: true }));
      const option = await box(providers.getByText('支付宝', { exact: true }).locator('..'));
      const term = await box(page.locator('.app-checkout__summary dt').first());
      const value = await box(page.locator('.app-checkout__summary dd').first());
      expect(Math.abs(label.x - term.x), `${width}`).toBeLessThan(1);
      expect(Math.abs(option.x - value.x), `${width}`).toBeLessThan(1);
      if (width === 1280) expect(Math.abs(payBox.x - value.x)).toBeLessThan(1);
    }
  });
});

describe('the header on a phone, VIP on sale', () => {
  // One page each for the visitor and the member: the member's shows the bell and the user menu too.
  it("keeps 开通会员 on the site name's row at 390 px, for a visitor and for a member; gives the member's bell of 消息 a tap target of 32 × 40 px, overlapping neither neighbour; the open user menu says which member is signed in, within the screen", async () => {
    const member = await registerMember(site.backendUrl);
    const visitor = (await site.visit()).page;
    await visitor.setViewportSize({ width: 390, height: 900 });
    const page = await memberPage(member, 390);
    for (const [who, shown] of [
      ['visitor', visitor],
      ['member', page],
    ] as const) {
      await shown.goto('/library');
      const vip = shown.getByRole('link', { name: '开通会员' });
      await vip.waitFor();
      const brand = await box(shown.locator('.app-header__brand'));
      // 开通会员 and the last item of the user's corner (注册, or the member's menu) share its row.
      for (const item of [await box(vip), await box(shown.locator('.app-header__user > *').last())]) {
        expect(item.y, who).toBeGreaterThanOrEqual(brand.y - 12);
        expect(item.y + item.height, who).toBeLessThanOrEqual(brand.y + brand.height + 12);
      }
      expect(await shown.evaluate(() => document.documentElement.scrollWidth), who).toBeLessThanOrEqual(390);
    }

    // The member's bell, on the page loaded above.
    const bell = await box(page.getByRole('link', { name: /^消息/ }));
    expect(bell.width).toBeGreaterThanOrEqual(32);
    expect(bell.height).toBeGreaterThanOrEqual(40);
    const before = await box(page.getByRole('link', { name: '开通会员' }));
    const after = await box(page.getByTestId('user-menu'));
    expect(bell.x).toBeGreaterThanOrEqual(before.x + before.width);
    expect(bell.x + bell.width).toBeLessThanOrEqual(after.x);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // The user menu.
    const button = page.getByTestId('user-menu');
    await button.waitFor();
    // The header shows the avatar alone here: the name beside it is hidden.
    expect(await button.locator('.app-user-menu__name').isVisible()).toBe(false);
    await button.click();
    const menu = page.getByRole('menu');
    const who = menu.locator('.app-menu__heading');
    await who.waitFor();
    expect(await who.getByText(member.username, { exact: true }).isVisible()).toBe(true);
    const first = await box(menu.getByRole('menuitem').first());
    expect((await box(who)).y).toBeLessThan(first.y);
    const { x, width } = await box(menu);
    expect(x).toBeGreaterThanOrEqual(0);
    expect(x + width).toBeLessThanOrEqual(390);
  });
});

describe('a long signature and 我的消息 on a phone', () => {
  // One member's page for both: 我的消息 is reached inside the app after the signature's screens.
  it('wraps a signature without spaces (an address) inside the screen at 390 px: 个人中心 and the uploader’s card; keeps the tab 未读消息（2） on one line at 390 px, within the screen', async () => {
    const member = await registerMember(site.backendUrl);
    const signature = `https://example.com/${'a'.repeat(200)}`;
    const saved = await api(site.backendUrl, 'PUT', '/api/v1/user/profile', {
      token: member.token,
      body: { id: member.user.id, signature },
    });
    expect(saved.status).toBe(200);
    const doc = await insertDocument(site.dataDir, {
      userId: member.user.id,
      title: '签名很长的上传者的文档',
      status: 2,
    });
    await withDatabase(site.dataDir, (db) =>
      db
        .insertInto('message')
        .values(
          ['文档审核通过', '文档审核未通过'].map((title) => ({
            user_id: member.user.id,
            type: 1,
            title,
            created_at: '2026-11-20T08:00:00.000Z',
          })),
        )
        .execute(),
    );
    const page = await memberPage(member, 390);
    for (const path of ['/member', `/library/1/${doc.id}`]) {
      // The first is loaded; the document is reached inside the app, as a link to it is.
      if (path === '/member') {
        await page.goto(path);
        await appTookOver(page);
      } else await openInApp(page, path);
      const shown = page.getByText(signature);
      await shown.waitFor();
      const { x, width } = await box(shown);
      expect(x + width, path).toBeLessThanOrEqual(390);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
    }

    await openInApp(page, '/member/message');
    const tab = page.getByRole('tab', { name: '未读消息（2）' });
    await tab.waitFor();
    // The lines its text takes: the distinct tops of the boxes of a range over it.
    const lines = await tab.evaluate((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });
    expect(lines).toBe(1);
    expect(await tab.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});

describe('上传 on a phone', () => {
  it('offers only 选择文件 on a touch screen, where nothing can be dragged; 将文件拖到这里 with a mouse', async () => {
    const admin = await gatewayToken(site.url, 'admin', site.adminPassword);
    const created = await api(site.url, 'POST', '/api/v1/category', {
      token: admin,
      body: { title: '课件讲义', type: 0, enable: true },
    });
    expect(created.status, created.text).toBe(200);
    const member = await registerMember(site.backendUrl);
    const phone = await site.browser.newContext({
      baseURL: site.url,
      locale: 'zh-CN',
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    try {
      await setTokenCookie(phone, site.url, member.token);
      const touch = await phone.newPage();
      await touch.goto('/upload');
      await touch.getByRole('button', { name: '选择文件' }).waitFor();
      expect(await touch.getByText('将文件拖到这里，或').isVisible(), 'on a touch screen').toBe(false);
      const mouse = await memberPage(member, 390);
      await mouse.goto('/upload');
      await mouse.getByRole('button', { name: '选择文件' }).waitFor();
      expect(await mouse.getByText('将文件拖到这里，或').isVisible(), 'with a mouse').toBe(true);
    } finally {
      await phone.close();
    }
  });
});
