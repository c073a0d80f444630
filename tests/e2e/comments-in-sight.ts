// A link to the comments under a document or an article (`#comments`): what the page lays out
// above them held back until the page went there, and whether they are in sight.
import type { Page, Route } from 'playwright-core';

/**
 * Holds the answers to the requests for `url` until the returned function is called, then lets
 * them (and any later one) through, or answers them with `body`: what the page lays out above a
 * link's target comes after the page went there.
 */
export async function holdUntilReleased(page: Page, url: string | RegExp, body?: Buffer): Promise<() => Promise<void>> {
  const held: Route[] = [];
  let holding = true;
  const answer = (route: Route) => (body ? route.fulfill({ body, contentType: 'image/png' }) : route.continue());
  await page.route(url, (route) => (holding ? void held.push(route) : answer(route)));
  return async () => {
    holding = false;
    await Promise.all(held.splice(0).map(answer));
  };
}

/** Whether the comments' heading is in sight (not under the sticky header, nor past the window's bottom). */
export const commentsInSight = (page: Page) =>
  page.evaluate(() => {
    const heading = document.getElementById('comments-title');
    const box = heading?.getBoundingClientRect();
    if (!heading || !box || box.bottom > window.innerHeight) return false;
    return heading.contains(document.elementFromPoint(box.left + 4, box.top + box.height / 2));
  });

/** The heading's place from the page's top. */
export const commentsOffset = (page: Page) =>
  page.evaluate(() => document.getElementById('comments-title')!.getBoundingClientRect().top + window.scrollY);

/** Once the layout's observers have answered the last change (two frames). */
export const settled = (page: Page) =>
  page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

/**
 * Whether the comment `id` (a link's `#comment-<id>`) is in sight, under the sticky header, and marked.
 */
export const commentInSight = (page: Page, id: number) =>
  page.evaluate((id) => {
    const comment = document.getElementById(`comment-${id}`);
    const box = comment?.getBoundingClientRect();
    if (!comment || !box || box.bottom > window.innerHeight) return false;
    const seen = comment.contains(document.elementFromPoint(box.left + 4, box.top + Math.min(10, box.height / 2)));
    return seen && comment.classList.contains('app-comment--marked');
  }, id);
