// Decision 121 in Chromium: a search page another site opened (here the address bar, which the browser
// tells as Sec-Fetch-Site none, as it tells a link from another site's page) is a member's page whose
// searches go as a visitor's. With ROUTE_DATA_TIMEOUT_MS 0 the page comes without its search, which the
// SPA makes itself: recorded under user 0, not the member; the member's next search, typed on the page, is
// theirs.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { registerMember, withDatabase } from '../helpers/backend';
import { AS_VISITOR_HEADER } from '../../shared/writes';
import { gatewayToken, setTokenCookie, useSiteInBrowser } from './browser';

const site = useSiteInBrowser({ env: () => ({ ROUTE_DATA_TIMEOUT_MS: '0' }) });

const recordsOf = (keywords: string) =>
  withDatabase(site.dataDir, (db) =>
    db.selectFrom('search_record').select('user_id').where('keywords', '=', keywords).execute(),
  );

/** The search call the page makes for `words`, its marker header, once answered. */
const searchCallFor = (page: Page, words: string) =>
  page
    .waitForResponse((response) => {
      const url = new URL(response.url());
      return url.pathname === '/api/v1/document/search' && url.searchParams.get('wd') === words;
    })
    .then((response) => response.request().headers()[AS_VISITOR_HEADER]);

describe('a search page opened from another site, without its route data', () => {
  it("makes its search as a visitor's, and the member's own next search as theirs", async () => {
    const member = await registerMember(site.backendUrl);
    const { context, page } = await site.visit();
    await setTokenCookie(context, site.url, await gatewayToken(site.url, member.username, member.password));

    const linked = searchCallFor(page, '站外链接');
    await page.goto(`/search?wd=${encodeURIComponent('站外链接')}`);
    expect(await linked).toBe('1');
    expect(await recordsOf('站外链接')).toEqual([{ user_id: 0 }]);
    // Still the member's page.
    await page.getByTestId('user-menu').waitFor();

    const typed = searchCallFor(page, '自己搜索');
    const box = page.getByRole('search', { name: '搜索文档' }).getByRole('searchbox', { name: '搜索关键词' });
    await box.fill('自己搜索');
    await box.press('Enter');
    expect(await typed).toBeUndefined();
    expect(await recordsOf('自己搜索')).toEqual([{ user_id: member.user.id }]);
  });
});
