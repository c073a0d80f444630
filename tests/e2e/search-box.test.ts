// The search boxes in Chromium: the syntax tip (-词, quotes) where a search finds nothing keeps
// each example whole on one line at 390 px, the sentence around it wrapping instead; the
// 100-character note shows only when what was typed or pasted was cut. One visitor's page for
// the file: the second search and the second test's screen are reached inside the app.
import { describe, expect, it } from 'vitest';
import { keptVisit, useSiteInBrowser } from './browser';

const site = useSiteInBrowser();
const visitor = keptVisit(site);

describe('搜索技巧 on a phone', () => {
  it('keeps each example of the tip on one line at 390 px, in the document and the article search', async () => {
    const { page } = await visitor();
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ['/search?wd=%E6%97%A0%E6%AD%A4%E8%AF%8D', '/article?wd=%E6%97%A0%E6%AD%A4%E8%AF%8D']) {
      // Loaded, the tip is in the gateway's first screen: measured before the app replaced it (which `visitor` waits
      // for), its examples may be detached under the reading, without a line box (0 lines for each, seen once).
      await visitor(path);
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

describe('the 100-character query limit', () => {
  it('says a query was cut only when a paste or a keystroke was, not at exactly 100 characters', async () => {
    const { context, page } = await visitor();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.setViewportSize({ width: 1280, height: 900 });
    await visitor('/search');
    const box = page.getByRole('search', { name: '搜索文档' }).getByRole('searchbox', { name: '搜索关键词' });
    const note = page.getByText('关键词最多 100 个字，超出的部分不会输入');
    const paste = async (text: string) => {
      await page.evaluate((words) => navigator.clipboard.writeText(words), text);
      await box.press('ControlOrMeta+V');
    };
    await box.click();
    await paste('天文'.repeat(50));
    expect(await box.inputValue()).toHaveLength(100);
    expect(await note.count()).toBe(0);
    await page.keyboard.type('星');
    await note.waitFor();
    await box.press('Backspace');
    await note.waitFor({ state: 'detached' });
    await box.fill('');
    await paste('天文'.repeat(60));
    expect(await box.inputValue()).toBe('天文'.repeat(50));
    await note.waitFor();
  });
});
