// pageInSight: which of the reader's page frames is the page being read, from where the frames
// (and a chosen find hit) stand in the window below the toolbar. The browser tests see it through
// the counter (reader-text); here each rule of it on frames laid out by hand.
import { describe, expect, it } from 'vitest';
import { pageInSight } from '../../web/src/features/reader/use-lazy-pages';

/** The toolbar's bottom edge and the window's: a screen of 800 px below the toolbar. */
const TOP = 100;
const BOTTOM = 900;

const box = (top: number, bottom: number) => ({
  top,
  bottom,
  height: bottom - top,
  left: 0,
  right: 300,
  width: 300,
  x: 0,
  y: top,
  toJSON: () => ({}),
});

/** Page `page`'s frame, from `top` to `bottom` in the window; with the chosen find hit at `mark`. */
function frame(page: number, top: number, bottom: number, mark?: { top: number; bottom: number }): HTMLElement {
  const element = document.createElement('div');
  element.dataset.page = String(page);
  element.getBoundingClientRect = () => box(top, bottom);
  if (mark) {
    const hit = document.createElement('span');
    hit.className = 'app-text-layer__mark app-text-layer__mark--current';
    hit.getBoundingClientRect = () => box(mark.top, mark.bottom);
    element.append(hit);
  }
  return element;
}

describe('pageInSight', () => {
  it('is the first page, in page order, that shows at least half of itself below the toolbar', () => {
    // Page 2 shows 600 of its 1000 px below the toolbar, page 3 its top 200: given in any order, page 2.
    const frames = [frame(3, 700, 1700), frame(2, -300, 700), frame(1, -1300, -300)];
    expect(pageInSight(frames, TOP, BOTTOM)).toBe(2);
  });

  it('leaves out what the toolbar covers: a page mostly under it is not the one read', () => {
    // Page 1 shows 350 of its 600 px in the window, but 250 below the toolbar.
    expect(pageInSight([frame(1, -250, 350), frame(2, 360, 1360)], TOP, BOTTOM)).toBe(2);
    expect(pageInSight([frame(1, -250, 350), frame(2, 360, 1360)], 0, BOTTOM)).toBe(1);
  });

  it('is a short page a jump put at the top, not the tall one that fills the rest of the screen', () => {
    // A landscape table (200 px high) under the toolbar, a portrait page below it filling 500 px.
    expect(pageInSight([frame(4, 100, 300), frame(5, 400, 1400)], TOP, BOTTOM)).toBe(4);
  });

  it('is a page taller than the screen that fills half of it, though less than half of itself shows', () => {
    // Zoomed in: page 6 is 3000 px high and shows 450 px, a short page 7 below it shows whole.
    expect(pageInSight([frame(6, -2450, 550), frame(7, 560, 760)], TOP, BOTTOM)).toBe(6);
  });

  it('is the page that shows most when none shows half of itself or fills half of the screen', () => {
    // Two pages 3000 px high, 100 and 350 px of them in sight, an advertisement between them.
    expect(pageInSight([frame(8, -2800, 200), frame(9, 550, 3550)], TOP, BOTTOM)).toBe(9);
  });

  it('is the page of the chosen find hit in sight below the toolbar, before a page that shows more', () => {
    // Page 2 fills the screen, the hit is near page 3's top, which shows only its first 150 px.
    const frames = [frame(2, -200, 750), frame(3, 750, 1750, { top: 780, bottom: 800 })];
    expect(pageInSight(frames, TOP, BOTTOM)).toBe(3);
  });

  it('passes over a chosen hit under the toolbar, below the window or not drawn', () => {
    const under = [frame(2, -200, 800), frame(3, 50, 1050, { top: 60, bottom: 80 })];
    expect(pageInSight(under, TOP, BOTTOM)).toBe(2);
    const below = [frame(2, -200, 800), frame(3, 800, 1800, { top: 950, bottom: 970 })];
    expect(pageInSight(below, TOP, BOTTOM)).toBe(2);
    const undrawn = [frame(2, -200, 800), frame(3, 800, 1800, { top: 0, bottom: 0 })];
    expect(pageInSight(undrawn, TOP, BOTTOM)).toBe(2);
  });

  it('is the first page without layout (no sizes known), and none without frames', () => {
    expect(pageInSight([frame(5, 0, 0), frame(4, 0, 0)], TOP, BOTTOM)).toBe(4);
    expect(pageInSight([], TOP, BOTTOM)).toBeUndefined();
  });
});
