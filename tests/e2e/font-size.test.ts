// A reader who sets a larger default font size in the browser (Chrome's 设置 > 外观 > 字号: the
// root's 16 px made 24 px) gets larger text on the site (decision 111): body text, headings and
// buttons grow with it, the buttons' height too, on the home, library, reader and member pages, and
// none of them gets wider than a 390 px phone. The reader's text layer stays where its page image
// draws the words: its size is the page's, not the browser's. The reader's download bar, fixed at
// the bottom, grows too, and what stands above it follows.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, login, registerMember, type Member } from '../helpers/backend';
import { createDocument, uploader, waitForStatus, type CreatedDocument } from '../helpers/document-api';
import { linesPdf } from '../helpers/documents';
import { appTookOver, EDGE_SLACK_PX, setTokenCookie, useSiteInBrowser } from './browser';

const site = useSiteInBrowser();
const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 900 };
const TITLE = '一份字号测试用的账簿';

/** The document's uploader, whose 我的文档 lists it. */
let member: Member;
let doc: CreatedDocument;
let categoryId = 0;

beforeAll(async () => {
  const adminToken = await login(site.backendUrl, 'admin', site.adminPassword);
  member = await uploader(site.backendUrl, adminToken);
  await api(site.backendUrl, 'POST', '/api/v1/category', { token: adminToken, body: { title: '字号测试' } });
  categoryId = (await api(site.backendUrl, 'GET', '/api/v1/category/list', { query: { wd: '字号测试' } })).body
    .category[0].id as number;
  const pages = [
    ['The first page of the ledger', 'Rows of figures under a heading.'],
    ['The second page', 'More rows.'],
  ];
  doc = await createDocument(site.backendUrl, member.token, linesPdf(pages), 'ledger.pdf', {
    title: TITLE,
    category_id: [categoryId],
  });
  await waitForStatus(site.backendUrl, member.token, doc.id, [2], 90_000);
}, 120_000);

/** What a screen's text measures: the first shown element of each kind, in CSS px (null: none shown). */
interface Measured {
  root: number;
  text: number | null;
  heading: number | null;
  button: number | null;
  buttonHeight: number | null;
  textLayer: number | null;
  overflow: number;
}

/**
 * A browser whose default font size is `fontSize` px, opened on `path` (logged in as the member where
 * asked). With `again`, that page of an earlier call is loaded anew at this size instead (its cookie
 * and window kept): a load as the first, without a new context.
 */
async function openAt(
  fontSize: number,
  path: string,
  { asMember = false, viewport = PHONE, again }: { asMember?: boolean; viewport?: typeof PHONE; again?: Page } = {},
): Promise<Page> {
  const page = again ?? (await site.visit()).page;
  if (!again) {
    await page.setViewportSize(viewport);
    if (asMember) await setTokenCookie(page.context(), site.url, member.token);
  }
  // Chrome's font size setting is this preference of the page (WebPreferences' default_font_size).
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Page.setFontSizes', { fontSizes: { standard: fontSize } });
  await page.goto(path);
  await appTookOver(page);
  return page;
}

function measure(page: Page): Promise<Measured> {
  return page.evaluate(() => {
    const shown = (selector: string) =>
      [...document.querySelectorAll<HTMLElement>(selector)].find(
        (element) => element.getClientRects().length > 0 && (element.textContent ?? '').trim() !== '',
      );
    const size = (element: HTMLElement | undefined) =>
      element ? parseFloat(getComputedStyle(element).fontSize) : null;
    const button = shown('.semi-button, main button');
    const root = document.documentElement;
    return {
      root: parseFloat(getComputedStyle(root).fontSize),
      text: size(shown('main p, main li, main td')),
      heading: size(shown('main h1, main h2, main h3')),
      button: size(button),
      buttonHeight: button ? button.getBoundingClientRect().height : null,
      textLayer: size(shown('.app-text-layer__line')),
      overflow: root.scrollWidth - root.clientWidth,
    };
  });
}

/** On a phone, the reader's bottom padding is the fixed download bar's height or more: its last lines are not under it. */
async function paddingClearsTheBar(page: Page): Promise<void> {
  const downloadBar = page.getByRole('region', { name: '下载', exact: true });
  await downloadBar.getByRole('button', { name: '下载' }).waitFor();
  const download = (await downloadBar.boundingBox())!;
  const padding = await page
    .locator('.app-reader-screen')
    .evaluate((screen) => parseFloat(getComputedStyle(screen).paddingBottom));
  expect(padding).toBeGreaterThanOrEqual(download.height - EDGE_SLACK_PX);
}

describe('a browser set to a larger font size, on a 390 px phone', () => {
  const screens = [
    { name: 'the home page', path: () => '/', asMember: false, button: true, waitFor: 'main h2' },
    {
      name: 'the library',
      path: () => '/library',
      asMember: false,
      button: false,
      waitFor: `main a:has-text("${TITLE}")`,
    },
    {
      name: 'the reader',
      path: () => `/library/${categoryId}/${doc.id}`,
      asMember: false,
      button: true,
      waitFor: '.app-text-layer__line',
      // The page at 24 px is the download bar's phone case at that size (see below).
      atLarge: { also: ', its last lines out from under the download bar', check: paddingClearsTheBar },
    },
    { name: "the member's page", path: () => '/member', asMember: true, button: true, waitFor: 'main .semi-button' },
    {
      name: "the member's documents",
      path: () => '/member/document',
      asMember: true,
      button: true,
      waitFor: `main td:has-text("${TITLE}")`,
    },
  ];

  for (const screen of screens)
    it(`draws ${screen.name}'s text, headings and buttons half as large again at 24 px, no wider than the phone${screen.atLarge?.also ?? ''}`, async () => {
      let page: Page | undefined;
      const at = async (fontSize: number) => {
        page = await openAt(fontSize, screen.path(), { asMember: screen.asMember, again: page });
        await page.locator(screen.waitFor).first().waitFor();
        return measure(page);
      };
      const normal = await at(16);
      const large = await at(24);
      expect(normal.root).toBe(16);
      expect(large.root).toBe(24);
      // Each kind the screen shows at 16 px is there at 24 px, 1.5 times the size.
      for (const kind of ['text', 'heading', 'button', 'buttonHeight'] as const) {
        if (normal[kind] === null) continue;
        expect(large[kind], `${screen.name}: ${kind}`).toBeCloseTo(normal[kind] * 1.5, 1);
      }
      // What the screen shows is measured: its text and heading, and a button where it has one.
      expect(normal.text, `${screen.name}: no text measured`).not.toBeNull();
      expect(normal.heading, `${screen.name}: no heading measured`).not.toBeNull();
      if (screen.button) expect(normal.button, `${screen.name}: no button measured`).not.toBeNull();
      // The text over a page image is the size of the words the image draws.
      expect(large.textLayer).toBe(normal.textLayer);
      expect(normal.overflow).toBe(0);
      expect(large.overflow, `${screen.name}: wider than the phone at 24 px`).toBe(0);
      if (screen.atLarge) await screen.atLarge.check(page!);
    });

  it("grows the reader's toolbar with its text on a wide screen too: the page field and the buttons", async () => {
    let page: Page | undefined;
    const at = async (fontSize: number) => {
      page = await openAt(fontSize, `/library/${categoryId}/${doc.id}`, { viewport: WIDE, again: page });
      const toolbar = page.getByRole('toolbar', { name: '阅读工具' });
      // Inside its borders, which stay 1 px.
      const field = await toolbar.getByLabel('跳转到页码').evaluate((input) => input.clientHeight);
      const button = await toolbar.getByRole('button', { name: '跳转' }).boundingBox();
      return { field, button: button!.height };
    };
    const normal = await at(16);
    const large = await at(24);
    expect(large.field).toBeCloseTo(normal.field * 1.5, 1);
    expect(large.button).toBeCloseTo(normal.button * 1.5, 1);
  });
});

describe("the reader's download bar, fixed at the bottom below 900 px, at a larger font size", () => {
  const reader = () => `/library/${categoryId}/${doc.id}`;

  // 24 px is the largest of Chrome's 字号 choices; 自定义字体 goes on to 72 px. The bar's button and
  // text grow with it: at 40 px the bar is 97 px high (49 px at 16 px), and the floating bar, which
  // stood 64 px + 16 px up, covered its top 17 px.
  for (const fontSize of [24, 40]) {
    it(`has the floating bar (反馈, 返回顶部) stand above it at ${fontSize} px, not over it`, async () => {
      // Between 641 and 1023 px the floating bar sits in the bottom corner.
      const page = await openAt(fontSize, reader(), { viewport: { width: 800, height: 900 } });
      const downloadBar = page.getByRole('region', { name: '下载', exact: true });
      await downloadBar.getByRole('button', { name: '下载' }).waitFor();
      const corner = page.getByRole('complementary', { name: '快捷操作' });
      const [box, download] = await Promise.all([corner.boundingBox(), downloadBar.boundingBox()]);
      expect(box!.y + box!.height).toBeLessThanOrEqual(download!.y + EDGE_SLACK_PX);
    });
  }

  // At 24 px on the page of the reader's test above.
  it("keeps the reader's last lines out from under it on a phone at 40 px: its bottom padding is the bar's height or more", async () => {
    await paddingClearsTheBar(await openAt(40, reader()));
  });

  it('has the floating bar stand above it while it says a shortfall below the price, which makes it taller', async () => {
    // At 500 魔豆 a new member (20 魔豆) is short: 下载 says by how much in the bar, below the
    // price and the button. The bar was 143 px high at 16 px, the floating bar over its top 63 px.
    const setPrice = async (price: number) => {
      const priced = await api(site.backendUrl, 'PUT', '/api/v1/document', {
        token: member.token,
        body: { id: doc.id, title: TITLE, price, category_id: [categoryId] },
      });
      expect(priced.status).toBe(200);
    };
    const poor = await registerMember(site.backendUrl);
    await setPrice(500);
    try {
      // One page, loaded at each size.
      const { page, context } = await site.visit();
      await page.setViewportSize({ width: 800, height: 900 });
      await setTokenCookie(context, site.url, poor.token);
      for (const fontSize of [16, 24]) {
        const cdp = await context.newCDPSession(page);
        await cdp.send('Page.setFontSizes', { fontSizes: { standard: fontSize } });
        await page.goto(`/library/${categoryId}/${doc.id}`);
        await appTookOver(page);
        const downloadBar = page.getByRole('region', { name: '下载', exact: true });
        await downloadBar.getByText('500 魔豆', { exact: true }).waitFor();
        await downloadBar.getByRole('button', { name: '下载' }).click();
        await downloadBar.getByRole('group', { name: '魔豆不足' }).waitFor();
        const corner = page.getByRole('complementary', { name: '快捷操作' });
        // Read together, once the floating bar has moved up (it follows the bar's new height).
        const overlap = async () => {
          const [box, download] = await Promise.all([corner.boundingBox(), downloadBar.boundingBox()]);
          return box!.y + box!.height - download!.y;
        };
        await expect.poll(overlap, { message: `${fontSize} px` }).toBeLessThanOrEqual(EDGE_SLACK_PX);
      }
    } finally {
      await setPrice(0);
    }
  });
});
