// The reader's first page inside the page itself: on a slow phone link an image asked for
// after the HTML costs one more round trip (0.56 s on "Slow 4G") before its first byte, so the
// gateway fetches page 1 from the backend as a visitor (the backend decides whether a visitor
// may see it) and puts it into the first screen's <img> as a `data:` URL (docs:
// docs/performance.md §6.1). The app takes the same URL over (web/src/features/reader/inlined-pages.ts) and
// does not fetch page 1 again. Kept with the page in the gateway's page cache: an image is
// inlined only up to INLINE_IMAGE_MAX_BYTES.
import type { Dispatcher } from 'undici';
import { escapeHtml } from './page-html';

/** A larger first page (a scan, a busy drawing) is asked for after the HTML, as other pages are. */
export const INLINE_IMAGE_MAX_BYTES = 256 * 1024;

/** The attribute that names, on an inlined <img>, the page image's own path (for the app). */
export const INLINED_SRC_ATTRIBUTE = 'data-inlined-src';

/**
 * An SVG as a `data:` URL that goes into a double-quoted HTML attribute as it is: the URL's
 * own specials (`%`, `#`) and the characters the URL parser drops (tabs, line breaks) escaped,
 * `&` and `"` as HTML wants. The rest stays text, which compresses with the page.
 */
export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${svg.replace(/[%#\t\n\r"&]/g, (c) => (c === '&' ? '&amp;' : `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`))}`;
}

/**
 * SVG page `path` as a `data:` URL for a visitor's page, or undefined: not served to a visitor
 * (refused, missing, not public), too large or not SVG. Rejects when the backend fails or is
 * late (`timeoutMs`): the page is then made without it, and made again on the next request.
 */
export async function fetchInlineImage(pool: Dispatcher, path: string, timeoutMs: number): Promise<string | undefined> {
  try {
    const res = await pool.request({
      path,
      method: 'GET',
      // Inflated by the backend: the page's own compression covers it.
      headers: { accept: 'image/*', 'accept-encoding': 'identity' },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    // A body left unread is destroyed: its abort is no error of the page's.
    res.body.on('error', () => undefined);
    const type = String(res.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim();
    const length = Number(res.headers['content-length'] ?? Number.NaN);
    if (
      res.statusCode !== 200 ||
      !String(res.headers['cache-control'] ?? '').includes('public') ||
      // A raster page (a scan) would travel as base64, a third larger and not compressed with the page.
      type !== 'image/svg+xml' ||
      length > INLINE_IMAGE_MAX_BYTES
    ) {
      res.body.destroy();
      return undefined;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > INLINE_IMAGE_MAX_BYTES) {
        res.body.destroy();
        return undefined;
      }
      chunks.push(chunk);
    }
    return svgDataUrl(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    // The page is served as before (the image asked for after it), and not kept.
    throw new Error(`page image ${path} for the page: ${(error as Error).message}`, { cause: error });
  }
}

const imageTag = (path: string) => `<img src="${escapeHtml(path)}"`;

/** Whether the page (or its first screen) shows image `path` in an <img> whose first attribute is its src. */
export const canInline = (html: string, path: string) => html.includes(imageTag(path));

/**
 * The page's first `<img src="path"` as `<img src="data:…" data-inlined-src="path"`; the page
 * unchanged when it has no such image.
 */
export function inlineImage(html: string, path: string, dataUrl: string): string {
  const preload = `<link rel="preload" as="image" href="${escapeHtml(path)}"`;
  return (
    html
      // React preloads an image of high priority from the screen itself: no more to ask for.
      .replace(new RegExp(`${preload.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^>]*>`, 'g'), '')
      .replace(imageTag(path), () => `<img src="${dataUrl}" ${INLINED_SRC_ATTRIBUTE}="${escapeHtml(path)}"`)
  );
}
