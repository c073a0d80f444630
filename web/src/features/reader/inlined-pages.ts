// Page images the gateway put inside the page (gateway/inline-image.ts: the first page as a
// `data:` URL, on its <img data-inlined-src="/view/page/…">), kept when the app starts, before
// React replaces the gateway's first screen: the reader shows the same URL, and page 1 is not
// fetched again.

/** gateway/inline-image.ts `INLINED_SRC_ATTRIBUTE`. */
const INLINED_SRC = 'data-inlined-src';

const kept = new Map<string, string>();

/** Keeps the inlined images of the gateway's first screen in `container`, by their own path. */
export function keepInlinedPages(container: ParentNode): void {
  for (const img of container.querySelectorAll<HTMLImageElement>(`img[${INLINED_SRC}]`)) {
    const path = img.getAttribute(INLINED_SRC);
    const src = img.getAttribute('src');
    if (path && src?.startsWith('data:')) kept.set(path, src);
  }
}

/** The image of page `path` as the page carried it, if it did. */
export const inlinedPage = (path: string): string | undefined => kept.get(path);
