// The screens a visitor and a member meet, checked by axe-core (its WCAG 2.x A and AA rules and
// best practices: contrast, names, landmarks, headings) in Chromium against the real gateway and
// embedded backend, at 1280 px and at 390 px, and the landmarks of the admin back office's frame.
// Any violation fails, named with where it is. And the key screens' accessible names, as Chromium
// computes them, hold no English icon name (Semi's icons are named by their type: "search").
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, login, setConfig } from '../helpers/backend';
import { createDocument, uploader, waitForStatus } from '../helpers/document-api';
import { fixture, textPdf } from '../helpers/documents';
import { iconWordsIn } from '../helpers/semi-icon-names';
import {
  appTookOver,
  gatewayToken,
  logInByCookie,
  navigateInApp,
  openInApp,
  setTokenCookie,
  useSiteInBrowser,
} from './browser';

const site = useSiteInBrowser();
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const WIDTHS = [1280, 390];

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

let documentPath: string;
let longDocumentPath: string;
let articlePath: string;
let member: { username: string; password: string };

beforeAll(async () => {
  const adminToken = await login(site.backendUrl, 'admin', site.adminPassword);
  await api(site.backendUrl, 'POST', '/api/v1/category', { token: adminToken, body: { title: '阅读材料' } });
  const category = (await api(site.backendUrl, 'GET', '/api/v1/category/list', { query: { wd: '阅读材料' } })).body
    .category[0].id as number;
  const author = await uploader(site.backendUrl, adminToken);
  const doc = await createDocument(
    site.backendUrl,
    author.token,
    readFileSync(fixture('chinese.pdf')),
    '城市图书馆的一天.pdf',
    { category_id: [category], price: 2 },
  );
  await waitForStatus(site.backendUrl, author.token, doc.id, [2]);
  documentPath = `/library/${category}/${doc.id}`;
  // Twelve pages: those far below the first screen stay undrawn, their number on the bare page.
  const long = await createDocument(site.backendUrl, author.token, textPdf(12), '十二页讲义.pdf', {
    category_id: [category],
  });
  await waitForStatus(site.backendUrl, author.token, long.id, [2]);
  longDocumentPath = `/library/${category}/${long.id}`;
  await api(site.backendUrl, 'POST', '/api/v1/category', { token: adminToken, body: { title: '站内公告', type: 1 } });
  const created = await api(site.backendUrl, 'POST', '/api/v1/article', {
    token: adminToken,
    body: {
      identifier: 'reading-month',
      title: '读书月活动公告',
      keywords: '公告',
      content: '<p>读书月期间，上传文档可获得双倍魔豆。</p>',
    },
  });
  expect(created.status).toBe(200);
  // Recommended: the lists show it with its 推荐 badge.
  const listed = await api(site.backendUrl, 'GET', '/api/v1/article/list', {
    token: adminToken,
    query: { wd: '读书月活动公告' },
  });
  const recommended = await api(site.backendUrl, 'PUT', '/api/v1/article/recommend', {
    token: adminToken,
    body: { article_id: [listed.body.article[0].id], is_recommend: true },
  });
  expect(recommended.status).toBe(200);
  articlePath = '/article/reading-month';
  member = { username: author.username, password: author.password };
}, 120_000);

/** What axe checks: every rule on the whole document unless `rules` or `exclude` (selectors) narrow it. */
interface Check {
  rules?: string[];
  exclude?: string[];
}

/**
 * Opens `path` at `width` and answers axe's violations on it, each named with where it is. The
 * first screen of a width is loaded, the others are reached inside the app as its links do (the
 * DOM axe reads is the app's either way).
 */
async function violationsOn(
  page: Page,
  path: string,
  width: number,
  how: 'load' | 'in app',
  check: Check = {},
): Promise<string[]> {
  await page.setViewportSize({ width, height: 900 });
  await openScreen(page, path, how);
  return axeViolations(page, `${path} at ${width} px`, check);
}

/** Opens `path`, loaded or inside the app, and waits until its screen shows its data. */
async function openScreen(page: Page, path: string, how: 'load' | 'in app'): Promise<void> {
  if (how === 'load') {
    await page.goto(path);
    await appTookOver(page);
    await page.waitForLoadState('networkidle');
  } else {
    await openInApp(page, path);
  }
  // The screen's data shown, not its skeleton (which has no names to check), and the navigation's
  // progress bar gone: axe read while a lazy screen's code still loaded sees the bar and no screen.
  await page.waitForFunction(
    () => !document.querySelector('#root [aria-busy="true"], #root .semi-skeleton, .app-navigation-progress'),
  );
  // A fade (the reader's 第 3 页正在加载…, in after 0.4 s) read halfway is paler than it will be.
  await animationsEnded(page);
}

/**
 * Waits until the page's animations that end have ended, or were cancelled (a page's loading text
 * gone with its image drawn): the spinners of the pages still loading turn for good (their
 * `finished` never comes).
 */
async function animationsEnded(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/** Runs axe on the page as it is now: its violations, each named with `where` and the elements. */
async function axeViolations(page: Page, where: string, check: Check = {}): Promise<string[]> {
  const violations = await page.evaluate(async ({ rules, exclude }: Check) => {
    const axe = (
      window as unknown as {
        axe: { run: (context: object, options: object) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    return (
      await axe.run(exclude ? { exclude: exclude.map((selector) => [selector]) } : document, {
        resultTypes: ['violations'],
        ...(rules ? { runOnly: { type: 'rule', values: rules } } : {}),
      })
    ).violations;
  }, check);
  return violations.map(
    (v) =>
      `${where}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(' '))
        .join(' | ')}`,
  );
}

/**
 * A page on the site with axe loaded into every document it opens (past the site's CSP, as an init
 * script); logged in as `user` if given (the login's token in the cookie: the form is not checked here).
 */
async function checkedPage(user?: { username: string; password: string }): Promise<Page> {
  const { page, context } = await site.visit();
  await context.addInitScript({ path: AXE });
  if (user) await setTokenCookie(context, site.url, await gatewayToken(site.url, user.username, user.password));
  return page;
}

/**
 * What on the page as it is now has an icon's English type name ("search", "arrow_up"…, which
 * Semi's icon makes its aria-label) in its accessible name, in Chromium's accessibility tree, or
 * in an aria-label outside an aria-hidden part: `where: role "name"`, one line each.
 */
async function iconWordsOn(page: Page, where: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const names = nodes
      .filter((node) => !node.ignored && !['StaticText', 'InlineTextBox'].includes(String(node.role?.value)))
      .map((node) => ({ role: String(node.role?.value), name: String(node.name?.value ?? '') }))
      .filter(({ name }) => iconWordsIn(name).length > 0)
      .map(({ role, name }) => `${where}: ${role} "${name}"`);
    const labels = (
      await page.evaluate(() =>
        [...document.querySelectorAll('[aria-label]')]
          .filter((element) => !element.closest('[aria-hidden="true"]'))
          .map((element) => element.getAttribute('aria-label') ?? ''),
      )
    )
      .filter((label) => iconWordsIn(label).length > 0)
      .map((label) => `${where}: [aria-label="${label}"]`);
    return [...new Set([...names, ...labels])];
  } finally {
    await cdp.detach();
  }
}

/**
 * The key screens whose accessible names are checked for icons' English names (`iconWordsOn`), at 1280 px,
 * as each user's axe check reaches them.
 */
const NAMED_SCREENS = {
  get visitor() {
    return ['/', '/library', documentPath, `/search?wd=${encodeURIComponent('图书馆')}`, '/auth/login'];
  },
  get member() {
    return ['/member', '/member/document', documentPath];
  },
  admin: ['/admin/dashboard', '/admin/document/list'],
};

describe('accessibility (axe-core)', () => {
  it("finds nothing on the screens of a visitor, and no icon's English name in what a screen reader reads on the key ones", async () => {
    const page = await checkedPage();
    const paths = [
      '/',
      '/library',
      documentPath,
      `/search?wd=${encodeURIComponent('图书馆')}`,
      '/search',
      '/article',
      articlePath,
      '/vip',
      '/auth/login',
      '/auth/register',
      '/auth/forgot',
      // What is not there: a category, a document, an article.
      '/library/999999',
      `${documentPath.replace(/\/\d+$/, '')}/999999`,
      '/article/detail/no-such-article',
    ];
    const found: string[] = [];
    const iconWords: string[] = [];
    for (const width of WIDTHS)
      for (const [index, path] of paths.entries()) {
        found.push(...(await violationsOn(page, path, width, index === 0 ? 'load' : 'in app')));
        if (width === 1280 && NAMED_SCREENS.visitor.includes(path)) iconWords.push(...(await iconWordsOn(page, path)));
      }
    expect(found).toEqual([]);
    // The article list was checked with its 推荐 badge.
    await openInApp(page, '/article');
    await page.locator('.app-article-list__badge', { hasText: '推荐' }).waitFor();
    // (A dialog's icon names: in the test of a dialog open below.)
    expect(iconWords).toEqual([]);
  }, 120_000);

  it("shows where the keyboard is in the fields that draw no outline (the search boxes, the article editor) and the user menu's items", async () => {
    // A member from the start (the search box is the same for a visitor): the editor is reached inside the app.
    const page = await checkedPage(member);
    const ringOf = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((el) => getComputedStyle(el).boxShadow);
    await page.goto('/');
    await appTookOver(page);
    expect(await ringOf('.app-search-box__form')).toBe('none');
    await page.getByRole('search', { name: '站内搜索' }).getByRole('searchbox').focus();
    expect(await ringOf('.app-search-box__form')).not.toBe('none');
    await openInApp(page, '/member/article/set');
    const editor = page.getByRole('textbox', { name: '内容' });
    await editor.waitFor();
    expect(await ringOf('.app-rich-editor')).toBe('none');
    await editor.focus();
    expect(await ringOf('.app-rich-editor')).not.toBe('none');
    // The header's user menu, opened and gone down by the keyboard: its item drawn round, not only tinted.
    await page.getByTestId('user-menu').focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowDown');
    const item = page.locator('.app-menu__item:focus');
    expect(await item.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');
  });

  it("rings the text fields and selects the keyboard is in, Semi's and native, as the search box is ringed, at 390 px", async () => {
    const page = await checkedPage();
    /** The ring round `field` (a Semi input's frame for it), unfocused and focused: box-shadow and outline. */
    const ringsOf = async (field: Locator) => {
      const ring = () =>
        field.evaluate((el) => {
          const frame = el.closest('.semi-input-wrapper, .semi-input-textarea-wrapper, .app-search-box__form') ?? el;
          const style = getComputedStyle(frame);
          return { shadow: style.boxShadow, outline: style.outlineStyle };
        });
      await field.evaluate((el) => (el as HTMLElement).blur());
      const before = await ring();
      await field.focus();
      return { before, after: await ring() };
    };
    // The header's search box, in sight at 1280 px: its ring is the one every field's should be.
    await openScreen(page, '/', 'load');
    const searchBox = await ringsOf(page.getByRole('search', { name: '站内搜索' }).getByRole('searchbox'));
    expect(searchBox.before.shadow).toBe('none');
    expect(searchBox.after.shadow).not.toBe('none');
    const ringed = { shadow: searchBox.after.shadow, outline: 'none' };
    await page.setViewportSize({ width: 390, height: 800 });
    const fields: Record<string, { before: unknown; after: unknown }> = {};
    await openScreen(page, '/auth/login', 'in app');
    fields['用户名 (Semi)'] = await ringsOf(page.getByLabel('用户名', { exact: true }));
    await openScreen(page, `/search?wd=${encodeURIComponent('图书馆')}`, 'in app');
    fields['分类 (native select)'] = await ringsOf(page.getByLabel('分类', { exact: true }));
    await openScreen(page, documentPath, 'in app');
    await page.getByRole('button', { name: '查找' }).click();
    fields['查找 (native input)'] = await ringsOf(page.getByLabel('查找文档中的文字'));
    await logInByCookie(page, site.url, member.username, member.password, documentPath);
    fields['发表评论 (native textarea)'] = await ringsOf(page.getByLabel('发表评论', { exact: true }));
    const unfocused = { shadow: 'none', outline: 'none' };
    expect(fields).toEqual(
      Object.fromEntries(Object.keys(fields).map((name) => [name, { before: unfocused, after: ringed }])),
    );
  });

  it('scrolls what the keyboard focuses out from under the sticky header, going back up the page', async () => {
    const page = await checkedPage();
    // Short, so that going back up the home page's links scrolls it.
    await page.setViewportSize({ width: 1280, height: 420 });
    await page.goto('/');
    await appTookOver(page);
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => {
      const links = document.querySelectorAll<HTMLElement>('main a[href], main button');
      links[links.length - 1]?.focus();
    });
    const covered: string[] = [];
    for (let step = 0; step < 30; step++) {
      await page.keyboard.press('Shift+Tab');
      const where = await page.evaluate(() => {
        const focused = document.activeElement as HTMLElement | null;
        if (!focused?.closest('main')) return 'out';
        const box = focused.getBoundingClientRect();
        const top = document.elementFromPoint(box.left + box.width / 2, box.top + Math.min(box.height / 2, 8));
        return top && focused.contains(top) ? 'seen' : `${focused.textContent?.trim()} at ${Math.round(box.top)} px`;
      });
      if (where === 'out') break;
      if (where !== 'seen') covered.push(where);
    }
    expect(covered).toEqual([]);
  });

  it('moves nothing across the screen for a visitor who prefers reduced motion: 返回顶部 jumps, a toast appears', async () => {
    const { page } = await site.visit();
    await page.emulateMedia({ reducedMotion: 'reduce' });
    // Short, so that the home page scrolls; wide, where 返回顶部 floats at the side.
    await page.setViewportSize({ width: 1280, height: 420 });
    await page.goto('/');
    await appTookOver(page);
    await page.waitForLoadState('networkidle');
    // The page is at its top as the click ends: a glide would leave it where it was until later.
    const scrolled = await page.evaluate(() => {
      window.scrollTo(0, document.documentElement.scrollHeight);
      const before = window.scrollY;
      document.querySelector<HTMLButtonElement>('button[title="返回顶部"]')?.click();
      return { before, after: window.scrollY };
    });
    expect(scrolled.before).toBeGreaterThan(0);
    expect(scrolled.after).toBe(0);
    // A toast (分享's) comes in without sliding: its transitions last no time.
    await openScreen(page, documentPath, 'in app');
    await page.getByRole('button', { name: '分享', exact: true }).click();
    const durations = await page
      .locator('.app-toast')
      .first()
      .evaluate((toast) =>
        getComputedStyle(toast)
          .transitionDuration.split(',')
          .map((d) => parseFloat(d)),
      );
    expect(durations.length).toBeGreaterThan(0);
    expect(Math.max(...durations)).toBeLessThan(0.001);
  });

  it('announces a screen whose code loads as a status, its progress bar in a live region', async () => {
    const page = await checkedPage();
    await page.goto('/');
    await appTookOver(page);
    await page.waitForLoadState('networkidle');
    // The next screen's code held back: the navigation stays pending with its bar shown.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/*.js', async (route) => {
      await held;
      await route.continue();
    });
    await navigateInApp(page, '/vip');
    await page.locator('.app-navigation-progress').waitFor();
    expect(await axeViolations(page, 'loading /vip', { rules: ['region'] })).toEqual([]);
    await expect.poll(() => page.getByRole('status').filter({ hasText: '页面加载中' }).count()).toBe(1);
    release();
    await page.locator('.app-navigation-progress').waitFor({ state: 'detached' });
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await page.getByRole('status').filter({ hasText: '页面加载中' }).count()).toBe(0);
  });

  it("finds every part of the admin back office's frame in a landmark (its screens' Semi widgets are not checked), and no icon's English name in what a screen reader reads there", async () => {
    const page = await checkedPage({ username: 'admin', password: site.adminPassword });
    const rules = [
      'region',
      'landmark-unique',
      'landmark-no-duplicate-banner',
      'landmark-no-duplicate-contentinfo',
      'landmark-no-duplicate-main',
      'aria-allowed-role',
    ];
    const found: string[] = [];
    const iconWords: string[] = [];
    for (const width of WIDTHS)
      for (const [index, path] of NAMED_SCREENS.admin.entries()) {
        found.push(...(await violationsOn(page, path, width, index === 0 ? 'load' : 'in app', { rules })));
        if (width === 1280) iconWords.push(...(await iconWordsOn(page, path)));
      }
    expect(found).toEqual([]);
    expect(iconWords).toEqual([]);
  }, 120_000);

  it("finds nothing on the screens of a member, and no icon's English name in what a screen reader reads on the key ones", async () => {
    const page = await checkedPage(member);
    const paths = [
      '/member',
      '/member/profile',
      '/member/document',
      '/member/article',
      '/member/article/set',
      '/member/favorite',
      '/member/download',
      '/member/order',
      '/member/message',
      '/upload',
      documentPath,
    ];
    const found: string[] = [];
    const iconWords: string[] = [];
    for (const width of WIDTHS)
      for (const [index, path] of paths.entries()) {
        found.push(...(await violationsOn(page, path, width, index === 0 ? 'load' : 'in app')));
        if (width === 1280 && NAMED_SCREENS.member.includes(path)) iconWords.push(...(await iconWordsOn(page, path)));
      }
    expect(found).toEqual([]);
    expect(iconWords).toEqual([]);
  }, 120_000);

  it("finds nothing with a toast shown, a dialog open (nor an icon's English name in it) or the pages of a long document still undrawn", async () => {
    const page = await checkedPage();
    const found: string[] = [];
    for (const width of WIDTHS) {
      // The pages not yet drawn show their number (12 / 12) on the bare page.
      found.push(...(await violationsOn(page, longDocumentPath, width, 'load')));
      await page.locator('.app-reader__page:not(:has(img))').first().waitFor({ state: 'attached' });
      // 分享 copies the address (or cannot, headless) and says so in a toast.
      // It is said through the polite live region, there (empty) before it: a region that comes filled goes unread.
      const said = page.getByRole('region', { name: '通知 (F8)' }).locator('[aria-live="polite"]');
      expect(await said.textContent()).toBe('');
      await page.getByRole('button', { name: '分享', exact: true }).focus();
      await page.keyboard.press('Enter');
      await page.locator('.app-toast').first().waitFor();
      const title = (await page.locator('.app-toast__title').first().textContent()) ?? '';
      expect(title).not.toBe('');
      expect(await said.textContent()).toContain(title);
      found.push(...(await axeViolations(page, `${longDocumentPath} at ${width} px, a toast shown`)));
    }
    // A dialog (the floating 意见反馈 of a wide window): its title the heading under the page's <h1>.
    await page.setViewportSize({ width: 1280, height: 900 });
    await openScreen(page, documentPath, 'in app');
    await page.getByRole('button', { name: '意见反馈' }).click();
    const dialog = page.getByRole('dialog', { name: '意见反馈' });
    await dialog.getByRole('form', { name: '意见反馈' }).waitFor();
    // Read once it has faded in: halfway, its text is paler than it will be.
    await animationsEnded(page);
    found.push(...(await axeViolations(page, `${documentPath} at 1280 px, 意见反馈 open`)));
    expect(found).toEqual([]);
    // Semi's Modal adds no icon's English name to what a screen reader reads: its close button is
    // named in Chinese, not left nameless (Semi's: "close").
    expect(await iconWordsOn(page, `${documentPath} (意见反馈)`)).toEqual([]);
    expect(await dialog.getByRole('button', { name: '关闭', exact: true }).count()).toBe(1);
  }, 120_000);

  it("leaves none of the reader's toolbar buttons to review: each is named, its face an icon or words", async () => {
    // A sign alone (−, ↑) is text whose contrast axe cannot judge: it asks for a review ("needs review").
    const page = await checkedPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await openScreen(page, documentPath, 'load');
    await page.getByRole('button', { name: '查找' }).click();
    await page.getByRole('searchbox', { name: '查找文档中的文字' }).fill('图书');
    await page.keyboard.press('Enter');
    await page.getByRole('list', { name: '查找结果' }).getByRole('button').first().waitFor();
    const toReview = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: {
            run: (
              context: object,
              options: object,
            ) => Promise<{ incomplete: { id: string; nodes: { target: string[]; html: string }[] }[] }>;
          };
        }
      ).axe;
      const found = await axe.run({ include: [['.app-reader__toolbar']] }, { resultTypes: ['incomplete'] });
      return found.incomplete.flatMap((rule) =>
        rule.nodes.filter((node) => node.html.includes('semi-button')).map((node) => `${rule.id}: ${node.html}`),
      );
    });
    expect(toReview).toEqual([]);
  }, 60_000);

  it('finds nothing on /vip and its checkout while membership is on sale', async () => {
    await setConfig(site.backendUrl, await login(site.backendUrl, 'admin', site.adminPassword), {
      'vip.enable': 'true',
      'pay.enable': 'true',
      'pay.provider': 'manual',
      'pay.manual_instructions': '请转账至本站账户，备注订单号。',
    });
    const page = await checkedPage(member);
    const found: string[] = [];
    for (const width of WIDTHS) {
      found.push(...(await violationsOn(page, '/vip', width, 'load')));
      // The recommended plan's button is the orange one.
      await page.locator('[data-plan="year"]').getByRole('button').click();
      await page.getByRole('button', { name: '立即支付' }).waitFor();
      await page.waitForLoadState('networkidle');
      found.push(...(await axeViolations(page, `/vip/checkout?plan=year at ${width} px`)));
    }
    expect(found).toEqual([]);
  }, 120_000);
});
