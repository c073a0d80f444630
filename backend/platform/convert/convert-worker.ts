// The thread side of the MuPDF page pool (page-pool.ts). MuPDF's WASM calls are synchronous,
// so they run here, in piscina worker threads, never on the event loop that answers requests.
//
// A thread loads it as an esbuild bundle (convert-worker.mjs), never as TypeScript: beside the
// server bundles in dist/server, or made on first use from source (../thread-modules.ts, which
// says why). Its results are the shapes page-pool.ts, the only caller, declares.
import { closeSync, fstatSync, openSync, readSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MessagePort } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
// before mupdf: MuPDF's structured-text fields for the characters' positions (text-positions.ts)
import './mupdf-handle';
import * as mupdf from 'mupdf';
import sharp from 'sharp';
import type { ConversionFailure } from './errors';
import { imageThreadLowerer } from './image-threads';
import type { PageFile, PageKind, PendingImages, RenderSettings, ScanTarget, WorkerSource } from './page-pool';
import { rasterScale, scanJpeg, scanWebp } from './scan-page';
import { firstIncompletePage } from './pdf-completeness';
import { photosOf, shrinkSvgImages } from './svg-images';
import { SvgPages } from './svg-pages';
import { encodePositions, positionsFile, textAndPositionsOf, textOf } from './text-positions';

/** Set to 1 by page-pool.ts when the task is to stop (checked between pages). */
type CancelFlag = Int32Array;

interface InspectTask {
  kind: 'inspect';
  source: WorkerSource;
  /**
   * `'open'` as the document begins to open: opening it, counting and checking its pages is one step of the budget
   * after which the thread is ended (page-pool.ts, TaskMessage)
   */
  progress: MessagePort;
}

interface RenderTask extends Omit<RenderSettings, 'cover'> {
  kind: 'render';
  source: WorkerSource;
  from: number;
  to: number;
  outDir: string;
  /** the covers, for the slice that starts at page 1 */
  cover: RenderSettings['cover'] | null;
  /**
   * `'open'` before the document is opened, `{ page }` as each step of a page begins (reading it, its covers, its SVG,
   * its WebP), each finished page's number, `'encoding'` while it waits for the covers' encoding, then 'end'
   */
  progress: MessagePort;
  cancel: CancelFlag;
}

interface PositionsTask {
  kind: 'positions';
  source: WorkerSource;
  from: number;
  to: number;
  outDir: string;
  gzipLevel: number;
  /** `'open'`, then `{ page }` as each page begins */
  progress: MessagePort;
  cancel: CancelFlag;
}

interface ScanWebpTask {
  kind: 'scan-webp';
  jpeg: Uint8Array;
  target: ScanTarget;
  webpOptions: RenderSettings['raster']['webpOptions'];
}

interface ShrinkPhotosTask {
  kind: 'shrink-photos';
  svg: Uint8Array;
  raster: RenderSettings['raster'];
  gzipLevel: number;
}

type ConvertTask = InspectTask | RenderTask | PositionsTask | ScanWebpTask | ShrinkPhotosTask;

type Failure = { ok: false; reason: ConversionFailure; detail: string };

/** A page read up to its SVG (preparePage): written already (`done`), or waiting for the slice's SVGs. */
type PreparedPage =
  | { n: number; done: { page: PageFile; text: string } }
  | { n: number; done?: undefined; page: mupdf.Page; bounds: mupdf.Rect; text: string };
type OpenPage = Extract<PreparedPage, { page: mupdf.Page }>;

mupdf.setLog(null);
// Each image is encoded once: libvips' operation cache would only hold page-sized buffers.
sharp.cache(false);
/** Hands this thread's priority (CONVERT_NICE) on to the libvips threads that encode its images. */
const lowerImageThreads = imageThreadLowerer();

/** The document this thread has open: each thread opens a document once for all its slices. */
let current: { key: string; document: mupdf.Document } | null = null;

function closeCurrent(): void {
  if (!current) return;
  current.document.destroy();
  current = null;
}

/** Reads the file through a descriptor, so a large PDF is never copied whole into WASM memory. */
function openStream(path: string): mupdf.Stream {
  const fd = openSync(path, 'r');
  const size = fstatSync(fd).size;
  return new mupdf.Stream({
    fileSize: () => size,
    read: (memory, offset, length, position) => readSync(fd, memory, offset, length, position),
    close: () => closeSync(fd),
  });
}

/** Opens the task's document (or reuses it); a document that needs a password is reported, not opened. */
function documentOf(source: WorkerSource): mupdf.Document | null {
  if (current?.key === source.key) return current.document;
  closeCurrent();
  const stream = openStream(source.path);
  try {
    const document = mupdf.Document.openDocument(stream, source.name);
    if (document.needsPassword() && !document.authenticatePassword('')) {
      document.destroy();
      return null;
    }
    if (source.reflow) document.layout(source.reflow.width, source.reflow.height, source.reflow.em);
    current = { key: source.key, document };
    return document;
  } finally {
    // The document holds its own reference to the stream; the file closes with the document.
    stream.destroy();
  }
}

/** MuPDF's errors mean a damaged or unreadable document; Node's (with a code: ENOENT, ENOSPC) do not. */
function failure(error: unknown): Failure {
  const reason = error instanceof Error && 'code' in error ? 'converter-failed' : 'corrupt';
  return { ok: false, reason, detail: error instanceof Error ? error.message : String(error) };
}

/** A trapped WASM instance cannot be trusted again: the thread ends and piscina starts a new one. */
function exitIfWasmBroke(error: unknown): void {
  if (error instanceof WebAssembly.RuntimeError) process.exit(70);
}

function inspect(
  task: InspectTask,
): { ok: true; pages: number; width: number; height: number; incompleteFrom: number | null } | Failure {
  try {
    // Up to the first page's size, MuPDF alone runs here (the file is read synchronously, through openStream).
    task.progress.postMessage('open');
    const document = documentOf(task.source);
    if (!document) return { ok: false, reason: 'encrypted', detail: 'a password is needed to open it' };
    const pages = document.countPages();
    const incompleteFrom = firstIncompletePage(document);
    if (pages === 0) return { ok: true, pages, width: 0, height: 0, incompleteFrom };
    const page = document.loadPage(0);
    const [x0, y0, x1, y1] = page.getBounds();
    page.destroy();
    return { ok: true, pages, width: x1 - x0, height: y1 - y0, incompleteFrom };
  } catch (error) {
    exitIfWasmBroke(error);
    closeCurrent();
    return failure(error);
  } finally {
    task.progress.close();
  }
}

/** RGB pixels of a page or its display list scaled by `scale`, copied out of WASM memory. */
function pixelsOf(
  drawing: mupdf.Page | mupdf.DisplayList,
  scale: number,
): { pixels: Buffer; raw: { width: number; height: number; channels: 3 } } {
  const pixmap = drawing.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false);
  const width = pixmap.getWidth();
  const height = pixmap.getHeight();
  const stride = pixmap.getStride();
  const samples = pixmap.getPixels();
  const pixels = Buffer.alloc(width * height * 3);
  for (let row = 0; row < height; row++) {
    pixels.set(samples.subarray(row * stride, row * stride + width * 3), row * width * 3);
  }
  pixmap.destroy();
  return { pixels, raw: { width, height, channels: 3 } };
}

const WHITE = { r: 255, g: 255, b: 255, alpha: 1 };

/**
 * The covers from page 1, drawn by MuPDF once: `cover.big.png` is the page at 72 dpi, as
 * MOREDOC's (mutool draw's default), fitted into the big box when larger; the letter-boxed
 * covers are scaled from the same drawing. MuPDF decodes a scan's JPEG at a half or a quarter of its size
 * when the drawing is that much smaller (a 200 dpi page in 15–25 ms, where sharp decodes it
 * whole in 30 ms).
 */
async function writeCover(
  list: mupdf.DisplayList,
  pageWidth: number,
  pageHeight: number,
  cover: RenderSettings['cover'],
  outDir: string,
): Promise<void> {
  const bigScale = Math.min(1, cover.big.width / pageWidth, cover.big.height / pageHeight);
  // A page smaller than the WebP's box (a card, a ticket) is drawn at that box's scale instead,
  // so that no cover is an enlargement; the big one is then scaled down to 72 dpi.
  const scale = Math.max(bigScale, Math.min(cover.webp.width / pageWidth, cover.webp.height / pageHeight));
  const { pixels, raw } = pixelsOf(list, scale);
  const image = sharp(pixels, { raw });
  const big =
    scale === bigScale
      ? image.clone()
      : image
          .clone()
          .resize(Math.max(1, Math.ceil(pageWidth * bigScale)), Math.max(1, Math.ceil(pageHeight * bigScale)), {
            fit: 'fill',
          });
  const boxed = (box: { width: number; height: number }) =>
    image.clone().resize(box.width, box.height, { fit: 'contain', background: WHITE });
  await Promise.all([
    big.png(cover.pngOptions).toFile(join(outDir, cover.files.bigPng)),
    boxed(cover.png).png(cover.pngOptions).toFile(join(outDir, cover.files.png)),
    boxed(cover.webp).webp(cover.webpOptions).toFile(join(outDir, cover.files.webp)),
  ]);
}

const PAGE_FILE_EXT: Record<PageKind, string> = { webp: 'webp', jpeg: 'jpg', 'svg-gzip': 'gzip.svg', svg: 'svg' };

/** Writes a page file; `pending`: its images are still as the PDF stores them (page-pool.ts, PendingImages). */
function writePage(
  task: { outDir: string },
  n: number,
  kind: PageKind,
  bytes: Buffer,
  pending?: PendingImages,
): PageFile {
  const file = `${n}.${PAGE_FILE_EXT[kind]}`;
  writeFileSync(join(task.outDir, file), bytes);
  return pending ? { n, file, kind, bytes: bytes.length, pending } : { n, file, kind, bytes: bytes.length };
}

/**
 * Page `n` up to its SVG: its text and its characters' positions (`<n>.pos.gz`), the covers (page 1), and a scan's
 * JPEG, for which no SVG is
 * drawn (`done`); any other page is drawn into the slice's SVG device and stays open until its
 * SVG is written (its display list does not: a slice of heavy pages holds one at a time).
 */
async function preparePage(
  document: mupdf.Document,
  n: number,
  task: RenderTask,
  svgs: SvgPages,
  background: Promise<void>[],
): Promise<PreparedPage> {
  const page = document.loadPage(n - 1);
  const list = page.toDisplayList();
  try {
    const bounds = page.getBounds();
    // The text and where its characters are, from one structured text of the page (the text alone without positions).
    let text: string;
    if (task.positions) {
      const found = textAndPositionsOf(mupdf, list, bounds);
      writeFileSync(join(task.outDir, positionsFile(n)), encodePositions(found.positions, task.gzipLevel));
      text = found.text;
    } else text = textOf(list);
    const scan = await scanJpeg(page, list, bounds, task);
    // The covers' pixels are taken now (the display list goes at the end of this page); their
    // encoding, on libvips' threads, goes on beside the slice's next pages, awaited at its end.
    if (n === 1 && task.cover) {
      task.progress.postMessage({ page: n });
      background.push(writeCover(list, bounds[2] - bounds[0], bounds[3] - bounds[1], task.cover, task.outDir));
    }
    if (scan) {
      page.destroy();
      return { n, done: { page: writePage(task, n, 'jpeg', scan.jpeg, { scan: scan.target }), text } };
    }
    svgs.add(page, list, bounds);
    return { n, page, bounds, text };
  } catch (error) {
    page.destroy();
    throw error;
  } finally {
    list.destroy();
  }
}

/**
 * Whether these bytes, gzipped at the stored level, are within the SVG limit: at once when they
 * are well within it raw; else by gzip level 1 (twice as fast, and in practice never smaller than
 * a higher level's), the stored level deciding only when level 1 does not fit. Only a check: the
 * page is written plain, and gzipped whole by the page images job.
 */
function fitsGzipped(bytes: Buffer, task: RenderTask): boolean {
  if (bytes.length <= task.svgGzipLimit - 1024) return true;
  if (gzipSync(bytes, { level: 1 }).length <= task.svgGzipLimit) return true;
  return gzipSync(bytes, { level: task.gzipLevel }).length <= task.svgGzipLimit;
}

/**
 * Writes a prepared page from its SVG: gzip, or the WebP at reading resolution when that is
 * smaller than a heavy SVG. A page with photos is written as MuPDF drew it, a plain SVG with the
 * JPEGs the PDF stores (gzip would spend 17 ms a page on their base64 for a tenth of it), so it
 * reads at once; the document module's job brings the photos to reading resolution and gzips the
 * page later (shrinkPhotos). The photos do not count against the limit, since a raster of the
 * page would carry them too; a page heavy even without them has its photos brought to reading
 * resolution here and the usual choice made.
 */
async function finishPage(
  { n, page, bounds, text }: OpenPage,
  svg: Buffer,
  task: RenderTask,
): Promise<{ page: PageFile; text: string }> {
  const photos = photosOf(svg);
  if (photos && fitsGzipped(photos.rest, task)) {
    return { page: writePage(task, n, 'svg', svg, { photos: true }), text };
  }
  const { svg: shrunk, readingBytes } = await shrinkSvgImages(svg, task.raster);
  const gzipped = gzipSync(shrunk, { level: task.gzipLevel });
  if (gzipped.length - readingBytes > task.svgGzipLimit) {
    // A heavy page (a scan, usually): the WebP at reading resolution replaces it when smaller.
    const { pixels, raw } = pixelsOf(page, rasterScale(bounds, task.raster));
    const webp = await sharp(pixels, { raw }).webp(task.raster.webpOptions).toBuffer();
    if (webp.length < gzipped.length) return { page: writePage(task, n, 'webp', webp), text };
  }
  return { page: writePage(task, n, 'svg-gzip', gzipped), text };
}

async function render(task: RenderTask): Promise<{ ok: true; pages: PageFile[]; texts: string[] } | Failure> {
  const done: { n: number; page: PageFile; text: string }[] = [];
  const open: OpenPage[] = [];
  /** work started for the slice and awaited at its end (the covers) */
  const background: Promise<void>[] = [];
  const svgs = new SvgPages();
  const release = () => {
    for (const { page } of open.splice(0)) page.destroy();
    svgs.destroy();
  };
  try {
    task.progress.postMessage('open');
    const document = documentOf(task.source);
    if (!document) return { ok: false, reason: 'encrypted', detail: 'a password is needed to open it' };
    for (let n = task.from; n <= task.to; n++) {
      // Asked to stop (abort, timeout): end here, between pages, rather than be ended mid-page.
      if (Atomics.load(task.cancel, 0) === 1)
        return { ok: false, reason: 'aborted', detail: `stopped before page ${n}` };
      task.progress.postMessage({ page: n });
      const prepared = await preparePage(document, n, task, svgs, background);
      lowerImageThreads();
      if (prepared.done) {
        done.push({ n, ...prepared.done });
        task.progress.postMessage(n);
      } else open.push(prepared as OpenPage);
    }
    // The slice's SVGs, drawn through one device: each glyph outlined once for the slice.
    if (open.length > 0) task.progress.postMessage({ page: open[0]!.n });
    const pageSvgs = svgs.finish();
    while (open.length > 0) {
      const prepared = open.shift()!;
      task.progress.postMessage({ page: prepared.n });
      try {
        done.push({ n: prepared.n, ...(await finishPage(prepared, pageSvgs.shift()!, task)) });
        lowerImageThreads();
      } finally {
        prepared.page.destroy();
      }
      task.progress.postMessage(prepared.n);
    }
    // The covers' encoding, bounded by their size, is not a MuPDF step: the last page's budget ends here.
    if (background.length > 0) task.progress.postMessage('encoding');
    await Promise.all(background);
    lowerImageThreads(true);
  } catch (error) {
    exitIfWasmBroke(error);
    release();
    closeCurrent();
    return failure(error);
  } finally {
    // Whatever happened, nothing started here writes into the folder after the task has answered.
    await Promise.allSettled(background);
    release();
    task.progress.postMessage('end');
    task.progress.close();
    // Fonts and images decoded for this slice are dropped, so a thread's memory stays flat.
    mupdf.emptyStore();
  }
  done.sort((a, b) => a.n - b.n);
  return { ok: true, pages: done.map((entry) => entry.page), texts: done.map((entry) => entry.text) };
}

/**
 * The positions of the characters of a slice's pages, and nothing else (a document converted before they were kept).
 */
function positions(task: PositionsTask): { ok: true } | Failure {
  try {
    task.progress.postMessage('open');
    const document = documentOf(task.source);
    if (!document) return { ok: false, reason: 'encrypted', detail: 'a password is needed to open it' };
    for (let n = task.from; n <= task.to; n++) {
      if (Atomics.load(task.cancel, 0) === 1)
        return { ok: false, reason: 'aborted', detail: `stopped before page ${n}` };
      task.progress.postMessage({ page: n });
      const page = document.loadPage(n - 1);
      const list = page.toDisplayList();
      try {
        const { positions: found } = textAndPositionsOf(mupdf, list, page.getBounds());
        writeFileSync(join(task.outDir, positionsFile(n)), encodePositions(found, task.gzipLevel));
      } finally {
        list.destroy();
        page.destroy();
      }
    }
    return { ok: true };
  } catch (error) {
    exitIfWasmBroke(error);
    closeCurrent();
    return failure(error);
  } finally {
    task.progress.close();
    mupdf.emptyStore();
  }
}

/** A scan page's JPEG as WebP (scan-page.ts, scanWebp), encoded at this thread's priority. */
async function encodeScan(task: ScanWebpTask): Promise<Buffer | null> {
  const jpeg = Buffer.from(task.jpeg.buffer, task.jpeg.byteOffset, task.jpeg.byteLength);
  const webp = await scanWebp(jpeg, task.target, task.webpOptions);
  lowerImageThreads();
  return webp;
}

/** A page's plain SVG with its photos brought to reading resolution (svg-images.ts), gzip-compressed. */
async function shrinkPhotos(task: ShrinkPhotosTask): Promise<Buffer> {
  const { svg } = await shrinkSvgImages(
    Buffer.from(task.svg.buffer, task.svg.byteOffset, task.svg.byteLength),
    task.raster,
  );
  lowerImageThreads();
  return gzipSync(svg, { level: task.gzipLevel });
}

/**
 * Piscina's entry: one task is the inspection of a document, the rendering of a slice of its
 * pages, the positions of a slice's characters, or the images of a page left as the PDF stores them (a scan's WebP, a
 * page's photos).
 */
export default function convertTask(task: ConvertTask): unknown {
  if (task.kind === 'scan-webp') return encodeScan(task);
  if (task.kind === 'shrink-photos') return shrinkPhotos(task);
  if (task.kind === 'positions') return positions(task);
  if (task.kind === 'inspect') return inspect(task);
  return render(task);
}
