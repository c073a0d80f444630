// Every admin list at 1280×800 in Chromium, with rows as a live site has them (a buyer with a
// long name and an e-mail address, paid and waiting orders, long titles, dates): the whole
// table fits its panel, no cell lies under the actions column that sticks to the right edge,
// and each time is whole, on one line. (At 390 px the tables scroll sideways by design; an order's
// state shows under its number there too.)
import { describe, expect, it } from 'vitest';
import { api, login } from '../helpers/backend';
import { createDocument } from '../helpers/document-api';
import { textPdf } from '../helpers/documents';
import { keptAdminPage, openInApp, useSiteInBrowser } from './browser';

const site = useSiteInBrowser({
  env: () => ({
    CONFIG_VIP_ENABLE: 'true',
    CONFIG_PAY_ENABLE: 'true',
    CONFIG_PAY_PROVIDER: 'manual',
    CONFIG_PAY_MANUAL_INSTRUCTIONS: '请转账至 招商银行 6225 8888 0000 1234（户名：魔豆文库），转账备注填写订单号。',
    CONFIG_SMS_ENABLE: 'true',
  }),
});

/** The window the lists are measured in. */
const WIDE = { width: 1280, height: 800 };

/** The admin's page, kept across the tests: each reaches its list inside the app. */
const adminList = keptAdminPage(site);

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function ok(label: string, pending: Promise<{ status: number; text: string; body: any }>) {
  const res = await pending;
  expect(res.status, `${label}: ${res.text}`).toBe(200);
  return res.body;
}

/** Rows on every list screen, made through the API as members and the admin make them. */
async function seed(): Promise<void> {
  const url = site.backendUrl;
  const token = await login(url, 'admin', site.adminPassword);
  const admin = (method: string, path: string, body?: unknown, query?: Record<string, string | number>) =>
    api(url, method, path, { token, body, query });

  const member = await ok(
    'register',
    api(url, 'POST', '/api/v1/user/register', {
      body: { username: 'zhangxiaoming2024', password: 'member-password', email: 'zhangxiaoming2024@example.com' },
    }),
  );
  const as = (method: string, path: string, body: unknown) => api(url, method, path, { token: member.token, body });

  // Orders: one paid (both times), one waiting for the transfer (the most actions).
  for (const [plan, price] of [
    ['year', 298],
    ['month', 30],
  ] as const) {
    const order = await ok('order', as('POST', '/api/v1/order', { plan_code: plan, price }));
    await ok('pay', as('POST', '/api/v1/order/pay', { order_no: order.order_no, provider: 'manual' }));
    if (plan === 'year')
      await ok('confirm', admin('PUT', '/api/v1/order/confirm', { id: order.id, reason: '招商银行到账 298 元' }));
  }

  await ok(
    'article category',
    admin('POST', '/api/v1/category', { title: '站务公告', type: 1, description: '本站的通知与公告' }),
  );
  await ok(
    'document category',
    admin('POST', '/api/v1/category', { title: '计算机与互联网', type: 0, description: '编程、网络与数据库' }),
  );
  const articleCategory = (await ok('categories', admin('GET', '/api/v1/category/list', undefined, { type: 1 })))
    .category[0].id;
  const documentCategory = (await ok('categories', admin('GET', '/api/v1/category/list', undefined, { type: 0 })))
    .category[0].id;

  const article = await ok(
    'article',
    admin('POST', '/api/v1/article', {
      title: '关于本站文档上传与审核规则的说明（2024 年修订版）',
      identifier: 'upload-rules-2024',
      content: '<p>上传须知。</p>',
      category_id: [articleCategory],
      is_recommend: true,
    }),
  );
  const old = await ok(
    'article',
    admin('POST', '/api/v1/article', {
      title: '已经停用的旧版用户协议与隐私政策',
      identifier: 'old-terms-2019',
      content: '<p>旧版。</p>',
      category_id: [articleCategory],
    }),
  );
  await ok('recycle article', admin('DELETE', '/api/v1/article', undefined, { id: old.id }));

  const document = await createDocument(url, token, textPdf(3), '计算机网络原理与实践教程（第三版）.pdf', {
    category_id: [documentCategory],
    price: 5,
  });
  const recycled = await createDocument(url, token, textPdf(2), '数据结构与算法分析课后习题答案.pdf', {
    category_id: [documentCategory],
  });
  await ok('recycle document', admin('DELETE', '/api/v1/document', undefined, { id: recycled.id }));

  await ok(
    'comment',
    as('POST', '/api/v1/comment', {
      document_id: article.id,
      type: 1,
      content: '写得很清楚，感谢分享！请问审核一般需要多长时间？',
    }),
  );
  await ok(
    'report',
    as('POST', '/api/v1/report', {
      document_id: document.id,
      type: 0,
      reason: 1,
      remark: '该文档与某出版社教材内容完全一致，疑似侵权',
    }),
  );
  await ok(
    'feedback',
    as('POST', '/api/v1/feedback', {
      content: '上传大文件时进度条卡在 99% 不动，刷新后文档没有出现在列表中。',
      contact: 'zhangxiaoming2024@example.com',
      page: '/upload',
    }),
  );
  const feedback = await ok('feedback list', admin('GET', '/api/v1/feedback/list'));
  await ok(
    'feedback reply',
    admin('PUT', '/api/v1/feedback', {
      id: feedback.feedback[0].id,
      status: 1,
      reply: '已收到，下个版本会修复大文件上传进度卡住的问题，感谢反馈',
    }),
  );
  await ok('search', api(url, 'GET', '/api/v1/document/search', { query: { wd: '计算机网络 教程' } }));
  await ok(
    'sms',
    api(url, 'POST', '/api/v1/user/sms/code', {
      headers: { 'x-forwarded-for': '203.0.113.54' },
      body: { mobile: '13812345678', type: 'register' },
    }),
  );

  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), '新学期横幅.png');
  const image = await fetch(`${url}/api/v1/upload/banner`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(image.status).toBe(200);
  const { data } = (await image.json()) as { data: { path: string } };
  await ok(
    'banner',
    admin('POST', '/api/v1/banner', {
      title: '新学期资料大放送',
      path: data.path,
      url: 'https://www.example.com/activity/back-to-school-2024',
      type: 1,
      enable: true,
      sort: 1,
    }),
  );
  await ok(
    'friendlink',
    admin('POST', '/api/v1/friendlink', {
      title: '开源中国社区',
      link: 'https://www.oschina.net/project/lang/19/javascript',
      enable: true,
      sort: 3,
    }),
  );
  await ok(
    'advertisement',
    admin('POST', '/api/v1/advertisement', {
      title: '首页顶部横幅广告（春季促销）',
      position: 'global_top',
      content: '<p>春季促销</p>',
      enable: true,
      start_time: new Date().toISOString(),
      end_time: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    }),
  );
  await ok(
    'punishment',
    admin('POST', '/api/v1/punishment', {
      user_id: [member.user.id],
      type: [6],
      enable: true,
      reason: '多次发布与站点主题无关的广告内容',
      end_time: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    }),
  );
}

/** Lists without a time column. */
const TIMELESS = new Set([
  '/admin/article/category',
  '/admin/document/category',
  '/admin/document/language',
  '/admin/navigation',
]);

/** Every list screen of the admin menu. */
const SCREENS = [
  '/admin/order',
  '/admin/article/list',
  '/admin/article/recycle',
  '/admin/article/category',
  '/admin/document/list',
  '/admin/document/recycle',
  '/admin/document/category',
  '/admin/document/language',
  '/admin/document/searchrecord',
  '/admin/user/list',
  '/admin/user/group',
  '/admin/user/permission',
  '/admin/user/punishment',
  '/admin/user/vip',
  '/admin/user/sms',
  '/admin/comment',
  '/admin/report',
  '/admin/feedback',
  '/admin/attachment',
  '/admin/banner',
  '/admin/friendlink',
  '/admin/navigation',
  '/admin/advertisement',
];

interface Layout {
  rows: number;
  /** the table's width beyond its panel */
  overflow: number;
  /** cells under the sticky actions cell of their row */
  covered: string[];
  dates: number;
  /** times cut off or broken over two lines */
  brokenDates: string[];
}

describe('admin lists at 1280 px wide', () => {
  it('show every column of their first rows beside the actions, each time on one line', async () => {
    await seed();
    const page = await adminList('/admin/dashboard', WIDE);

    for (const path of SCREENS) {
      await openInApp(page, path);
      // Found and measured in one go, once the table's first rows show: a row found in one step
      // may be gone, to a loading table, by the next.
      let layout: Layout = { rows: 0, overflow: 0, covered: [], dates: 0, brokenDates: [] };
      const measure = () =>
        page.evaluate((table): Layout => {
          const body = document.querySelector<HTMLElement>(`${table} .semi-table-body`);
          if (!body) return { rows: 0, overflow: 0, covered: [], dates: 0, brokenDates: [] };
          const heads = [...document.querySelectorAll(`${table} thead th`)].map((th) => th.textContent ?? '');
          const rows = [...document.querySelectorAll(`${table} tbody tr.semi-table-row`)].slice(0, 5);
          const covered: string[] = [];
          const brokenDates: string[] = [];
          let dates = 0;
          for (const row of rows) {
            const cells = [...row.children] as HTMLElement[];
            const actions = cells
              .find((cell) => cell.classList.contains('app-resource-table__actions'))
              ?.getBoundingClientRect();
            cells.forEach((cell, index) => {
              const box = cell.getBoundingClientRect();
              const text = (cell.textContent ?? '').trim();
              if (
                actions &&
                !cell.classList.contains('app-resource-table__actions') &&
                box.right > actions.left + 0.5 &&
                box.left < actions.right - 0.5
              ) {
                covered.push(`${heads[index]}“${text}”`);
              }
              const time = [...cell.querySelectorAll('*')].find(
                (el) =>
                  el.children.length === 0 && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test((el.textContent ?? '').trim()),
              );
              if (!time) return;
              dates += 1;
              if (
                time.getClientRects().length !== 1 ||
                cell.scrollWidth > cell.clientWidth ||
                time.getBoundingClientRect().right > box.right
              ) {
                brokenDates.push(`${heads[index]}“${text}”`);
              }
            });
          }
          return { rows: rows.length, overflow: body.scrollWidth - body.clientWidth, covered, dates, brokenDates };
        }, '.app-resource-table');
      await expect.poll(async () => (layout = await measure()).rows, { message: path }).toBeGreaterThan(0);
      expect(layout.covered, `${path}: cells under the actions`).toEqual([]);
      expect(layout.overflow, `${path}: the table is wider than its panel`).toBeLessThanOrEqual(0);
      if (!TIMELESS.has(path)) expect(layout.dates, `${path}: a time in the first rows`).toBeGreaterThan(0);
      expect(layout.brokenDates, `${path}: times cut off or broken`).toEqual([]);
    }
  });

  it("keep a banner's title readable with its link under it, and a category's names whole", async () => {
    const page = await adminList('/admin/banner', WIDE);
    const title = page
      .locator('.app-resource-table tbody tr.semi-table-row')
      .first()
      .locator('td', { hasText: '新学期资料大放送' });
    await title.waitFor();
    const banner = await title.evaluate((cell) => {
      const link = cell.querySelector<HTMLAnchorElement>('a.app-resource-url')!;
      return {
        width: cell.getBoundingClientRect().width,
        linkLines: link.getClientRects().length,
        cut: link.scrollWidth > link.clientWidth,
        href: link.href,
        hover: link.title,
      };
    });
    expect(banner.width, 'the title column').toBeGreaterThanOrEqual(12 * 14);
    expect(banner).toMatchObject({
      linkLines: 1,
      cut: true,
      href: 'https://www.example.com/activity/back-to-school-2024',
      hover: 'https://www.example.com/activity/back-to-school-2024',
    });

    await adminList('/admin/document/list', WIDE);
    const category = page
      .locator('.app-resource-table tbody tr.semi-table-row')
      .first()
      .locator('.app-resource-trail > span')
      .first();
    await category.waitFor();
    expect(await category.textContent()).toBe('计算机与互联网');
    expect(await category.evaluate((name) => name.getClientRects().length)).toBe(1);
  });

  it("keep a feedback's reply readable, not a few characters a line", async () => {
    const page = await adminList('/admin/feedback', WIDE);
    const reply = page
      .locator('.app-resource-table tbody tr.semi-table-row')
      .first()
      .locator('td', { hasText: '已收到，下个版本会修复' });
    await reply.waitFor();
    expect(
      await reply.evaluate((cell) => cell.getBoundingClientRect().width),
      'the reply column',
    ).toBeGreaterThanOrEqual(10 * 14);
  });

  it("keep a report's item, the reporter's words and the admin's note readable, the table in its panel", async () => {
    const token = await login(site.backendUrl, 'admin', site.adminPassword);
    const admin = (method: string, path: string, body?: unknown) => api(site.backendUrl, method, path, { token, body });
    const report = (await ok('report list', admin('GET', '/api/v1/report/list'))).report[0];
    await ok(
      'report handled',
      admin('PUT', '/api/v1/report', {
        id: report.id,
        status: true,
        remark: '已核实为出版社教材的完整扫描件，文档已下架并通知上传者',
      }),
    );
    const page = await adminList('/admin/report', WIDE);
    const row = page.locator('.app-resource-table tbody tr.semi-table-row').first();
    const note = row.locator('td', { hasText: '已核实为出版社教材' });
    await note.waitFor();
    const widths = await note.evaluate((cell) => {
      const body = cell.closest<HTMLElement>('.semi-table-body')!;
      return {
        cell: cell.getBoundingClientRect().width,
        words: cell.textContent?.includes('该文档与某出版社教材内容完全一致') ?? false,
        target: cell.textContent?.includes('计算机网络原理与实践教程') ?? false,
        overflow: body.scrollWidth - body.clientWidth,
      };
    });
    expect(widths.cell, "the note's column").toBeGreaterThanOrEqual(10 * 14);
    expect(widths, 'the item, the words and the note in one cell').toMatchObject({ words: true, target: true });
    expect(widths.overflow, 'the table is wider than its panel').toBeLessThanOrEqual(0);
  });

  it("draw a link among a row's actions (the documents' 阅读) like the buttons beside it, opened first", async () => {
    const page = await adminList('/admin/document/list', WIDE);
    const actions = page.locator('.app-resource-table tbody tr.semi-table-row .app-resource-actions').first();
    await actions.waitFor();
    const look = await actions.evaluate((cell) => {
      const link = cell.querySelector<HTMLElement>('.app-resource-link')!;
      const button = cell.querySelector<HTMLElement>('.semi-button')!;
      const middle = (el: HTMLElement) => {
        const box = el.getBoundingClientRect();
        return box.top + box.height / 2;
      };
      return { decoration: getComputedStyle(link).textDecorationLine, offset: Math.abs(middle(link) - middle(button)) };
    });
    expect(look.decoration).toBe('none');
    expect(look.offset).toBeLessThanOrEqual(1);
  });

  it("keep a permission's path readable at 390 px, two lines at most, not a few letters a line", async () => {
    const page = await adminList('/admin/user/permission', { width: 390, height: 844 });
    const path = page.locator('.app-resource-table .app-resource-code', {
      hasText: '/api.v1.DocumentAPI/CheckDocument',
    });
    await path.waitFor();
    const lines = await path.evaluate((code) => {
      const range = document.createRange();
      range.selectNodeContents(code);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });
    // Before, its 6em column held a few letters a line: five lines.
    expect(lines).toBeLessThanOrEqual(2);
  });

  it("keep an order's days with their number, （30 天） not broken before 天", async () => {
    const member = await ok(
      'register',
      api(site.backendUrl, 'POST', '/api/v1/user/register', {
        body: { username: 'wangdays2024', password: 'member-password' },
      }),
    );
    await ok(
      'order',
      api(site.backendUrl, 'POST', '/api/v1/order', { token: member.token, body: { plan_code: 'month', price: 30 } }),
    );
    const page = await adminList('/admin/order', WIDE);
    const plan = page
      .locator('.app-resource-table tbody tr.semi-table-row', { hasText: 'wangdays2024' })
      .locator('.app-resource-stack > span', { hasText: '（30 天）' });
    await plan.waitFor();
    // The lines that （30 天） of the cell's text takes, wherever its text nodes start and end.
    const lines = await plan.evaluate((span) => {
      const walker = document.createTreeWalker(span, NodeFilter.SHOW_TEXT);
      const range = document.createRange();
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        if (text.includes('（')) range.setStart(node, text.indexOf('（'));
        if (text.includes('）')) range.setEnd(node, text.indexOf('）') + 1);
      }
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });
    expect(lines).toBe(1);
  });

  it("show each order's state at 390 px without scrolling sideways, and once at 1280 px", async () => {
    // One waiting for the admin to confirm the transfer, one not paid yet.
    const order = async (username: string, plan: string, price: number) => {
      const member = await ok(
        'register',
        api(site.backendUrl, 'POST', '/api/v1/user/register', { body: { username, password: 'member-password' } }),
      );
      const as = (path: string, body: unknown) => api(site.backendUrl, 'POST', path, { token: member.token, body });
      return { as, order: await ok('order', as('/api/v1/order', { plan_code: plan, price })) };
    };
    const transfer = await order('zhaophone2024', 'month', 30);
    await ok('pay', transfer.as('/api/v1/order/pay', { order_no: transfer.order.order_no, provider: 'manual' }));
    await order('qianphone2024', 'year', 298);

    const page = await adminList('/admin/order', { width: 390, height: 844 });
    const rows = page.locator('.app-resource-table tbody tr.semi-table-row');
    await rows.first().waitFor();
    // Each row's visible state tags (待确认收款, 已支付, 待支付…), measured against the screen.
    const states = () =>
      rows.evaluateAll((list) =>
        list.map((row) =>
          [...row.querySelectorAll<HTMLElement>('.semi-tag')]
            .filter((tag) => tag.getClientRects().length > 0)
            .map((tag) => {
              const box = tag.getBoundingClientRect();
              return { text: tag.textContent, inView: box.left >= 0 && box.right <= window.innerWidth };
            }),
        ),
      );
    // How many times a screen reader hears each buyer's state in their row's cells (the names the
    // accessibility tree gives its gridcells): once, at either width, though a phone shows it twice.
    const heard = () =>
      Promise.all(
        [
          ['zhaophone2024', '待确认收款'],
          ['qianphone2024', '待支付'],
        ].map(async ([buyer = '', state = '']) => {
          const tree = await rows.filter({ hasText: buyer }).ariaSnapshot();
          const cells = tree.split('\n').filter((line) => /^\s*- (grid)?cell /.test(line));
          return cells.join('\n').split(state).length - 1;
        }),
      );
    const narrow = await states();
    expect(narrow.length).toBeGreaterThanOrEqual(2);
    expect(narrow.flat().map((tag) => tag.text)).toContain('待确认收款');
    for (const tags of narrow) expect(tags.some((tag) => tag.inView)).toBe(true);
    expect(await heard()).toEqual([1, 1]);

    await page.setViewportSize({ width: 1280, height: 800 });
    for (const tags of await states()) expect(tags.map((tag) => tag.inView)).toEqual([true]);
    expect(await heard()).toEqual([1, 1]);
  });

  it("keep a user's name and credits on one line each after their avatar", async () => {
    await ok(
      'register',
      api(site.backendUrl, 'POST', '/api/v1/user/register', {
        body: { username: 'lixiaolong88', password: 'member-password', email: 'lixiaolong88@example.com' },
      }),
    );
    const page = await adminList('/admin/user/list', WIDE);
    const cell = page
      .locator('.app-resource-table tbody tr.semi-table-row', { hasText: 'lixiaolong88' })
      .locator('.app-user-cell');
    await cell.waitFor();
    // The lines each text of the cell takes (before, the name stood on three: lix / iaol / ong88).
    const lines = await cell.locator('.app-resource-stack > span').evaluateAll((spans) =>
      spans.map((span) => {
        const range = document.createRange();
        range.selectNodeContents(span);
        return [span.textContent, new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size];
      }),
    );
    expect(lines).toEqual([
      ['lixiaolong88', 1],
      ['魔豆 10', 1],
    ]);
  });

  it("keep a role's description readable under its name, not a few characters a line", async () => {
    const token = await login(site.backendUrl, 'admin', site.adminPassword);
    await ok(
      'role',
      api(site.backendUrl, 'POST', '/api/v1/group', {
        token,
        body: { title: '内容审核员', description: '负责审核文档、评论和举报，并处理用户反馈的编辑团队' },
      }),
    );
    const page = await adminList('/admin/user/group', WIDE);
    const description = page
      .locator('.app-resource-table tbody tr.semi-table-row', { hasText: '内容审核员' })
      .getByText('负责审核文档、评论和举报，并处理用户反馈的编辑团队');
    await description.waitFor();
    // Lines it takes (before, in a column of its own 61 px wide: a dozen, two or three characters each).
    const lines = await description.evaluate((span) => {
      const range = document.createRange();
      range.selectNodeContents(span);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });
    expect(lines).toBeLessThanOrEqual(3);
  });
});
