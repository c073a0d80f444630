// The search syntax tip (-词, quotes) where a search finds nothing, in Chromium at 390 px: each
// example stays whole on one line, the sentence around it wrapping instead.
import { describe, expect, it } from 'vitest';
import { useSiteInBrowser } from './browser';

const site = useSiteInBrowser();

describe('搜索技巧 on a phone', () => {
  it('keeps each example of the tip on one line at 390 px, in the document and the article search', async () => {
    const { page } = await site.visit();
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ['/search?wd=%E6%97%A0%E6%AD%A4%E8%AF%8D', '/article?wd=%E6%97%A0%E6%AD%A4%E8%AF%8D']) {
      await page.goto(path);
      const tip = page.locator('.app-search-tip');
      await tip.waitFor();
      const lines = await tip.locator('code').evaluateAll((examples) =>
        examples.map((example) => {
          const range = document.createRange();
          range.selectNodeContents(example);
          return [example.textContent, new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size];
        }),
      );
      expect(lines, path).toEqual([
        ['图书馆 -量子', 1],
        ['"机器学习"', 1],
      ]);
    }
  });
});
