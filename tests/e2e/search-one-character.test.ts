// Issue 45, one-character search, in Chromium at 1280 and 390 px against the real gateway and
// embedded backend: a single character finds the documents whose text holds it (as the first
// character of a token), and the results page marks it in their snippets. One page for both
// widths: loaded at the first, the window narrowed for the second.
import { beforeAll, describe, expect, it } from 'vitest';
import { indexDocuments, insertDocument, type DocumentFixture } from '../helpers/document-fixtures';
import { keptVisit, useSiteInBrowser } from './browser';

const site = useSiteInBrowser();
const visitor = keptVisit(site);

const TITLE = '清代刻本修复札记';
const TEXT = '四楼的古籍修复室里，王老师最近修复的是一部清代刻本，书中有一幅麒麟图。';

let kirin: DocumentFixture;

beforeAll(async () => {
  kirin = await insertDocument(site.dataDir, { userId: 1, title: TITLE });
  const other = await insertDocument(site.dataDir, { userId: 1, title: '城市公园导览' });
  await indexDocuments(site.dataDir, [
    { id: kirin.id, title: TITLE, content: TEXT },
    { id: other.id, title: other.title, content: '公园里有很多花草树木，空气清新。' },
  ]);
});

describe('一字搜索', () => {
  for (const width of [1280, 390]) {
    it(`finds the document whose text holds the character, marked in its snippet (${width} px)`, async () => {
      const { page } = await visitor();
      await page.setViewportSize({ width, height: 900 });
      const path = `/search?wd=${encodeURIComponent('麒')}`;
      if (page.url() !== new URL(path, site.url).href) await visitor(path);
      const results = page.getByRole('region', { name: '搜索结果' });
      const hit = results.getByRole('listitem').filter({ hasText: TITLE });
      await hit.waitFor();
      expect(await results.getByRole('listitem').count()).toBe(1);
      expect(await hit.locator('.app-search-result__snippet mark').first().textContent()).toBe('麒');
      expect(await hit.locator('.app-search-result__snippet').textContent()).toContain('一幅麒麟图');
    });
  }
});
