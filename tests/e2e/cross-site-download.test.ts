// A GET never spends for another site. The download RPC is a GET (MOREDOC's route): a page on
// another site could make a signed-in member's browser send it by a navigation, a form, an
// image or a fetch, the SameSite=Lax cookie going along with the top-level ones, and spend the
// member's credits. Here a page on a second origin (localhost, another site than the gateway's
// 127.0.0.1) tries all four in real Chromium: no credit moves, the uploader gets nothing, no
// download is recorded or counted against a quota; the SPA's own download button still works.
// The member's browser is one context for the file, logged in by the gateway's login call made
// from it (the cookie as the gateway sets it, no page load; the form has tests of its own).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import type { Page, Request, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, registerMember, withDatabase, type Member } from '../helpers/backend';
import { createDocument, uploader, waitForStatus } from '../helpers/document-api';
import { fixture } from '../helpers/documents';
import { keptVisit, logInByApi, useSiteInBrowser } from './browser';

const PRICE = 10;
const TITLE = '跨站下载测试文档';

// Members start with exactly the price; one download a day per member and per address, so
// that a download an attack had counted would leave the member's own one refused.
const site = useSiteInBrowser({
  env: () => ({
    CONFIG_SCORE_REGISTER: String(PRICE),
    CONFIG_DOWNLOAD_TIMES_EVERY_DAY: '1',
    CONFIG_DOWNLOAD_TIMES_EVERY_IP: '1',
  }),
});
const buyerVisit = keptVisit(site);

let author: Member;
let buyer: Member;
let documentId = 0;
let documentPath = '';
let attacker: Server;
let attackerOrigin = '';

/** The other site's pages, each sending the download its own way, then setting its title to `done`. */
function attackPage(kind: string, target: string): string {
  const done = "document.title = 'done'";
  switch (kind) {
    case 'navigate':
      return `<script>location.href = ${JSON.stringify(target)};</script>`;
    case 'form': {
      const url = new URL(target);
      return `<form method="GET" action="${url.origin}${url.pathname}"><input type="hidden" name="id" value="${url.searchParams.get('id')}"></form><script>document.forms[0].submit();</script>`;
    }
    case 'image':
      return `<img src="${target}" onload="${done}" onerror="${done}">`;
    default:
      return `<script>fetch(${JSON.stringify(target)}, { mode: 'no-cors', credentials: 'include' }).then(() => { ${done}; }, () => { ${done}; });</script>`;
  }
}

const credits = async (member: Member) =>
  (await api(site.backendUrl, 'GET', '/api/v1/user', { token: member.token })).body.credit_count ?? 0;
const downloads = () =>
  withDatabase(site.dataDir, async (db) =>
    Number(
      (
        await db
          .selectFrom('download')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  );

beforeAll(async () => {
  const adminToken = await login(site.backendUrl, 'admin', site.adminPassword);
  await api(site.backendUrl, 'POST', '/api/v1/category', { token: adminToken, body: { title: '跨站测试' } });
  const category = (await api(site.backendUrl, 'GET', '/api/v1/category/list', { query: { wd: '跨站测试' } })).body
    .category[0].id as number;
  author = await uploader(site.backendUrl, adminToken);
  const doc = await createDocument(
    site.backendUrl,
    author.token,
    readFileSync(fixture('chinese.pdf')),
    `${TITLE}.pdf`,
    { category_id: [category], price: PRICE },
  );
  await waitForStatus(site.backendUrl, author.token, doc.id, [2]);
  documentId = doc.id;
  documentPath = `/library/${category}/${doc.id}`;
  buyer = await registerMember(site.backendUrl);

  const target = `${site.url}/api/v1/document/download?id=${documentId}`;
  attacker = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>page</title>${attackPage((req.url ?? '').slice(1), target)}`);
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerOrigin = `http://localhost:${(attacker.address() as AddressInfo).port}`;
}, 180_000);
afterAll(() => new Promise<void>((resolve) => (attacker ? attacker.close(() => resolve()) : resolve())));

/**
 * Opens the other site's page in the signed-in member's browser; answers how the gateway's
 * answer to the download it sent came back (undefined: blocked by the browser, our
 * Cross-Origin-Resource-Policy) and whether the member's cookie went with it.
 */
async function attack(page: Page, kind: string): Promise<{ status: number | undefined; withCookie: boolean }> {
  const isDownload = (request: Request) => new URL(request.url()).pathname === '/api/v1/document/download';
  let answered = (_settled: { status: number | undefined; request: Request }) => {};
  const settled = new Promise<{ status: number | undefined; request: Request }>((resolve) => {
    answered = resolve;
  });
  const onResponse = (response: Response) =>
    isDownload(response.request()) && answered({ status: response.status(), request: response.request() });
  const onFailed = (request: Request) => isDownload(request) && answered({ status: undefined, request });
  page.on('response', onResponse);
  page.on('requestfailed', onFailed);
  try {
    await page.goto(`${attackerOrigin}/${kind}`);
    const { status, request } = await settled;
    const headers = await request.allHeaders();
    return { status, withCookie: /(?:^|;\s*)token=/.test(headers.cookie ?? '') };
  } finally {
    page.off('response', onResponse);
    page.off('requestfailed', onFailed);
  }
}

describe('a download another site starts', () => {
  it('spends nothing, pays nothing and counts nothing, however it is sent', async () => {
    const before = { buyer: await credits(buyer), author: await credits(author) };
    expect(before.buyer).toBe(PRICE);
    const { page, context } = await buyerVisit();
    await logInByApi(context, site.url, buyer.username, buyer.password);
    expect((await context.cookies()).find((c) => c.name === 'token')).toMatchObject({
      sameSite: 'Lax',
      httpOnly: true,
    });

    // The top-level ones carry the member's cookie (SameSite=Lax) and are refused for where they come from.
    expect(await attack(page, 'navigate')).toEqual({ status: 403, withCookie: true });
    expect(await page.locator('body').textContent()).toContain('下载须在本站的文档页面点击“下载”按钮发起');
    expect(await attack(page, 'form')).toEqual({ status: 403, withCookie: true });
    // The others go without the cookie, as a visitor's download (the address's quota).
    for (const kind of ['image', 'fetch']) {
      const sent = await attack(page, kind);
      expect(sent.withCookie, kind).toBe(false);
      expect([403, undefined], kind).toContain(sent.status);
      await page.waitForFunction(() => document.title === 'done');
    }

    expect(await credits(buyer)).toBe(before.buyer);
    expect(await credits(author)).toBe(before.author);
    expect(await downloads()).toBe(0);
  });

  it('leaves the download button of the document page working: the price moves once', async () => {
    const before = { buyer: await credits(buyer), author: await credits(author) };
    const { page, context } = await buyerVisit();
    if (!(await context.cookies()).some((c) => c.name === 'token'))
      await logInByApi(context, site.url, buyer.username, buyer.password);
    await page.goto(documentPath);
    const panel = page.getByRole('region', { name: '下载文档' });
    const downloading = page.waitForEvent('download');
    await panel.getByRole('button', { name: `下载（${PRICE} 魔豆）` }).click();
    await panel.getByRole('button', { name: '确定下载' }).click();
    const file = await downloading;
    expect(file.suggestedFilename()).toBe(`${TITLE}.pdf`);
    expect(await credits(buyer)).toBe(before.buyer - PRICE);
    expect(await credits(author)).toBe(before.author + PRICE);
    expect(await downloads()).toBe(1);
  });
});
