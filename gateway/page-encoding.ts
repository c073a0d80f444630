// How a page is compressed: the coding a request's Accept-Encoding takes (pure: a header in, a
// coding out), and the page's bytes in that coding, made once and kept with the page.
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { RenderedPage } from './page-render';
import { negotiateEncoding, type ContentCoding } from './plugins/assets';

const PAGE_CODINGS: readonly ContentCoding[] = ['br', 'gzip'];

/** Browsers send one of a few Accept-Encoding values: each is weighed once. */
const codingOfHeader = new Map<string, ContentCoding | undefined>();
const CODING_MEMORY = 64;

/** The coding of a page answered to a request with this Accept-Encoding; undefined: none. */
export function pageCoding(acceptEncoding: string | undefined): ContentCoding | undefined {
  if (acceptEncoding === undefined) return undefined;
  if (codingOfHeader.has(acceptEncoding)) return codingOfHeader.get(acceptEncoding);
  const coding = negotiateEncoding(acceptEncoding, PAGE_CODINGS);
  if (codingOfHeader.size < CODING_MEMORY) codingOfHeader.set(acceptEncoding, coding);
  return coding;
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

// A page is compressed once and kept, so the level is the one of a file served many times, yet
// quick enough for a page made for one request (a logged-in reader's): brotli 5 takes about
// 0.3 ms for a 20 KiB page and leaves a third of its bytes, a slow phone connection's 0.1 s.
function compress(html: Buffer, coding: ContentCoding): Promise<Buffer> {
  if (coding === 'gzip') return gzipAsync(html, { level: 6 });
  return brotliAsync(html, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: 5,
      [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
      [zlib.BROTLI_PARAM_SIZE_HINT]: html.length,
    },
  });
}

/** The page's bytes in `coding`: at once when they are made, else once they are. */
export function encodedBody(page: RenderedPage, coding: ContentCoding): Buffer | Promise<Buffer> {
  const encoded = (page.encoded ??= {});
  const known = encoded[coding];
  if (known) return known;
  const making = compress(page.html, coding);
  encoded[coding] = making;
  void making.then(
    (body) => (encoded[coding] = body),
    () => delete encoded[coding],
  );
  return making;
}
