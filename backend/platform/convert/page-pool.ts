import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { threadModule } from '../thread-modules';
import { ConversionError, abortReason, type ConversionFailure } from './errors';

// The MuPDF side of a conversion, on worker threads (convert-worker.ts). The pages of one
// document are cut into slices; each thread opens the document once and renders the slices it
// is given, so a 2,000-page PDF moves forward slice by slice with a bounded amount in flight:
// at most one slice per thread, its pages written to disk as they are rendered.

/** How a worker thread opens the document. */
export interface WorkerSource {
  path: string;
  /** file name whose extension tells MuPDF the format */
  name: string;
  /** page size and font size for reflowable formats (EPUB, MOBI, FB2, text) */
  reflow: { width: number; height: number; em: number } | null;
  /** one per conversion: a thread keeps the document open across the slices of that key */
  key: string;
}

export type PageKind = 'svg-gzip' | 'webp' | 'jpeg' | 'svg';

/**
 * The WebP a scan page's JPEG is to become (scan-page.ts, scanWebp): its size in pixels, and whether it is smoothed.
 */
export interface ScanTarget {
  width: number;
  height: number;
  smooth: boolean;
}

export interface PageFile {
  /** 1-based page number */
  n: number;
  /**
   * file name inside the output directory: `<n>.gzip.svg`, `<n>.webp`, or with images as stored `<n>.jpg` (a scan) or
   * `<n>.svg` (photos)
   */
  file: string;
  kind: PageKind;
  bytes: number;
  /** images of the page still as the PDF stores them, to be brought to reading resolution later */
  pending?: PendingImages;
}

/**
 * What is left to do to a page whose images are as the PDF stores them
 * (`DocumentConverter.pageAtReadingResolution`): a scan page (`<n>.jpg`) to become its WebP, or a
 * plain SVG (`<n>.svg`) whose photos are to be brought to reading resolution, the page gzipped.
 */
export type PendingImages = { scan: ScanTarget } | { photos: true };

export interface CoverFiles {
  /** the first page letter-boxed to 2× the contract's box (420×594), WebP */
  webp: string;
  /** the first page letter-boxed to 210×297, what `/view/cover/<hash>` serves */
  png: string;
  /** the first page at 72 dpi (MOREDOC's), fitted into 840×1188 when larger */
  bigPng: string;
}

export interface RenderSettings {
  /** a page whose gzip-compressed SVG is larger than this is also rendered as WebP; the smaller is kept */
  svgGzipLimit: number;
  gzipLevel: number;
  /** whether each page's characters' positions are written (`<n>.pos.gz`, text-positions.ts) */
  positions: boolean;
  raster: { dpi: number; maxSide: number; webpOptions: WebpOptions };
  cover: {
    files: CoverFiles;
    big: Box;
    png: Box;
    webp: Box;
    webpOptions: WebpOptions;
    pngOptions: { compressionLevel: number };
  };
}

interface WebpOptions {
  quality: number;
  /** sharp's 0–6 */
  effort: number;
}

interface Box {
  width: number;
  height: number;
}

type WorkerFailure = { ok: false; reason: ConversionFailure; detail: string };
type InspectResult =
  { ok: true; pages: number; width: number; height: number; incompleteFrom: number | null } | WorkerFailure;
type RenderResult = { ok: true; pages: PageFile[]; texts: string[] } | WorkerFailure;

export interface DocumentInfo {
  pages: number;
  /** the first page, in points */
  width: number;
  height: number;
  /** a PDF MuPDF repaired: the first page whose objects are missing (pdf-completeness.ts), else null */
  incompleteFrom: number | null;
}

export interface RenderedPages {
  pageFiles: PageFile[];
  /** the extracted text of each page, in page order, as MuPDF gives it */
  texts: string[];
}

export interface PagePoolOptions {
  threads: number;
  /** a thread idle this long ends, giving its WASM memory back */
  idleTimeoutMs: number;
  /** the worker module, a file a thread loads as it is; by default convert-worker.ts's bundle (thread-modules.ts) */
  workerUrl?: URL;
  /**
   * Added to each thread's nice value (0–19; 0 keeps the process's priority). On Linux a thread
   * has a nice value of its own: the requests' thread keeps its share of the cores while pages
   * render beside it, and the threads take whatever is idle.
   */
  niceIncrement?: number;
}

/** How long a thread asked to stop may take to reach the end of its page before it is ended. */
const STOP_GRACE_MS = 10_000;

/**
 * The default time budget of one step of a task on a thread: opening the document (reading its page tree, counting and
 * checking its pages), or one step of a page (drawing it, its covers, its WebP). MuPDF's calls are synchronous and
 * cannot be interrupted, so a page that would draw for ever (a pattern of 0.02 pt tiles filling a 14400 pt page) or a
 * page tree that would take hours to check has its thread ended after that long. A heavy page takes seconds (2 million
 * rectangles: 3 s for the SVG and 7 s for a raster in native mutool).
 */
export const PAGE_TIMEOUT_MS = 60_000;

/**
 * What a task's thread reports on its progress port: the document being opened (`'open'`) and a step of a page begun
 * (`{ page }`), each of which has the step budget (StepBudget); a page written (its number); its MuPDF steps over, the
 * slice waiting for the covers libvips encodes (`'encoding'`: no budget, as for the images jobs); the end of a slice.
 */
type TaskMessage = 'open' | { page: number } | number | 'encoding' | 'end';

/**
 * The budget of a task's steps: each step its thread announces restarts it; past it `overrun` is aborted with the error
 * naming the step, and piscina ends the thread. Only the threads' MuPDF steps are announced: ending a thread inside
 * other native code (zlib, libvips) can abort the process (runOnThread).
 */
class StepBudget {
  readonly overrun = new AbortController();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly budgetMs: number) {}

  begin(step: 'open' | { page: number }): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.overrun.abort(this.overrunError(step)), this.budgetMs);
  }

  end(): void {
    clearTimeout(this.timer);
  }

  private overrunError(step: 'open' | { page: number }): ConversionError {
    if (step === 'open') {
      return new ConversionError('document-too-complex', {
        detail: `opening the document took more than ${this.budgetMs} ms`,
      });
    }
    return new ConversionError('page-too-complex', {
      detail: `page ${step.page} took more than ${this.budgetMs} ms`,
      message: `页面过于复杂，无法在限定时间内转换（第 ${step.page} 页）`,
    });
  }
}

/**
 * Pages per slice: about two slices per thread, at most 32 pages. A slice's pages share one SVG
 * device (svg-pages.ts), which outlines each glyph once: longer slices convert text faster
 * (slices of 25 against 13: 0.96–0.99× mutool instead of 0.89×, docs/performance.md §4), while two per
 * thread still even out the threads' load.
 */
const MAX_SLICE = 32;

export class PagePool {
  private readonly pool: Piscina;
  /** the file the threads load, once known (from source it is bundled on first use) */
  private readonly workerFile: Promise<string>;
  readonly threads: number;
  /** Aborted when a thread fails outside any task (its module does not load): the tasks waiting on it fail too. */
  private threadFailure = new AbortController();
  /** Aborted by close(): the running tasks are asked to stop like an abort asks them. */
  private readonly closing = new AbortController();
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(options: PagePoolOptions) {
    this.threads = Math.max(1, Math.floor(options.threads));
    if (options.workerUrl && !existsSync(fileURLToPath(options.workerUrl))) {
      throw new Error(`The conversion worker is missing: ${fileURLToPath(options.workerUrl)}`);
    }
    this.workerFile = options.workerUrl
      ? Promise.resolve(options.workerUrl.href)
      : threadModule(new URL('./convert-worker.ts', import.meta.url)).then((url) => url.href);
    // A worker that cannot be found or bundled fails each task that needs it (runOnThread).
    this.workerFile.catch(() => {});
    this.pool = new Piscina({
      minThreads: 0,
      maxThreads: this.threads,
      idleTimeout: options.idleTimeoutMs,
      // piscina calls nice(2) in each new thread (through @napi-rs/nice), which on Linux lowers
      // that thread alone.
      niceIncrement: Math.min(19, Math.max(0, Math.trunc(options.niceIncrement ?? 0))),
      // The worker is a bundle: no loader flags of the parent (tsx, vitest) are needed there.
      execArgv: [],
    });
    // Unhandled, this event would end the process; and piscina leaves the waiting tasks pending.
    this.pool.on('error', (error: Error) => {
      const failed = this.threadFailure;
      this.threadFailure = new AbortController();
      failed.abort(error);
    });
  }

  /** `overrun`: aborted with the error the task fails with, its thread ended at once (a page past its budget). */
  private run<T>(task: object, signal: AbortSignal, transferList?: MessagePort[], overrun?: AbortSignal): Promise<T> {
    const running = this.runOnThread<T>(task, AbortSignal.any([signal, this.closing.signal]), transferList, overrun);
    const settled = running.catch(() => undefined);
    this.inFlight.add(settled);
    void settled.finally(() => this.inFlight.delete(settled));
    return running;
  }

  private async runOnThread<T>(
    task: object,
    signal: AbortSignal,
    transferList?: MessagePort[],
    overrun?: AbortSignal,
  ): Promise<T> {
    const threadFailure = this.threadFailure.signal;
    // A stop is asked of the thread first (it checks between pages): ending a thread at once can
    // catch it inside native code (zlib, libvips), and Node then aborts the whole process
    // ("close before init"). Only a thread still busy after the grace is ended, stuck in MuPDF.
    const cancel = new Int32Array(new SharedArrayBuffer(4));
    const hardStop = new AbortController();
    let grace: NodeJS.Timeout | undefined;
    const stop = () => {
      Atomics.store(cancel, 0, 1);
      grace = setTimeout(() => hardStop.abort(signal.reason), STOP_GRACE_MS);
      grace.unref();
    };
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
    try {
      const options = {
        filename: await this.workerFile,
        // piscina ends the thread of a task aborted while it runs; its next task gets a new one
        signal: AbortSignal.any([hardStop.signal, threadFailure, ...(overrun ? [overrun] : [])]),
        ...(transferList ? { transferList } : {}),
      };
      const result = (await this.pool.run({ ...task, cancel }, options)) as T;
      if (signal.aborted) throw abortReason(signal);
      return result;
    } catch (error) {
      if (overrun?.aborted) throw overrun.reason as ConversionError;
      if (signal.aborted) throw abortReason(signal);
      // The thread died under the task (WASM trap, out of memory) or could not start: only this document fails.
      const cause = threadFailure.aborted ? (threadFailure.reason as Error) : (error as Error);
      throw new ConversionError('worker-crashed', { detail: cause.message });
    } finally {
      clearTimeout(grace);
      signal.removeEventListener('abort', stop);
    }
  }

  /**
   * A task whose thread announces its steps on a progress port (TaskMessage), each given `budgetMs` (StepBudget).
   * `onMessage` is told the pages written and the end of a slice; with `untilEnd`, the result waits for that end
   * (the result comes through another port and may overtake the pages).
   */
  private async runBudgeted<T>(
    task: object,
    signal: AbortSignal,
    budgetMs: number,
    { onMessage, untilEnd = false }: { onMessage?: (message: number | 'end') => void; untilEnd?: boolean } = {},
  ): Promise<T> {
    const channel = new MessageChannel();
    const budget = new StepBudget(budgetMs);
    // ('close' would not do for the end: a piscina thread sleeps between tasks before its close is sent.)
    let ended!: () => void;
    const allReported = new Promise<void>((resolve) => (ended = resolve));
    channel.port1.on('message', (message: TaskMessage) => {
      if (message === 'open' || typeof message === 'object') return budget.begin(message);
      if (message === 'encoding') return budget.end();
      if (message === 'end') {
        budget.end();
        ended();
      }
      onMessage?.(message);
    });
    try {
      const result = await this.run<T>(
        { ...task, progress: channel.port2 },
        signal,
        [channel.port2],
        budget.overrun.signal,
      );
      if (untilEnd) await allReported;
      return result;
    } finally {
      // An ended thread sends no 'end'.
      budget.end();
      channel.port1.close();
    }
  }

  /**
   * Page count and first page size; ConversionError when MuPDF cannot open the document, or
   * ConversionError('document-too-complex') when opening it takes longer than `budgetMs` (its thread is ended).
   */
  async inspect(source: WorkerSource, signal: AbortSignal, budgetMs = PAGE_TIMEOUT_MS): Promise<DocumentInfo> {
    const result = await this.runBudgeted<InspectResult>({ kind: 'inspect', source }, signal, budgetMs);
    if (!result.ok) throw new ConversionError(result.reason, { detail: result.detail });
    return { pages: result.pages, width: result.width, height: result.height, incompleteFrom: result.incompleteFrom };
  }

  /**
   * Renders every page into `outDir`, reporting each finished page; slices run on all threads. A page whose step
   * (drawing it, its covers, its WebP) lasts longer than `pageTimeoutMs` has its thread ended, and the document fails
   * with ConversionError('page-too-complex') naming it; a thread that opens the document for its slice has as long to
   * open it (ConversionError('document-too-complex')).
   */
  async renderAll(
    source: WorkerSource,
    pages: number,
    outDir: string,
    settings: RenderSettings,
    signal: AbortSignal,
    onPage: (done: number) => void,
    pageTimeoutMs = PAGE_TIMEOUT_MS,
  ): Promise<RenderedPages> {
    const size = Math.max(1, Math.min(MAX_SLICE, Math.ceil(pages / (this.threads * 2))));
    const slices: { from: number; to: number }[] = [];
    for (let from = 1; from <= pages; from += size) slices.push({ from, to: Math.min(pages, from + size - 1) });

    const results: PageFile[][] = [];
    const texts: string[][] = [];
    let done = 0;
    let next = 0;
    let failure: ConversionError | undefined;
    // After a failure the slices still running are asked to stop too: the document has failed.
    const failed = new AbortController();
    const slicesSignal = AbortSignal.any([signal, failed.signal]);

    const renderSlice = async (index: number) => {
      const { from, to } = slices[index]!;
      const task = { kind: 'render', source, from, to, outDir, ...settings, cover: from === 1 ? settings.cover : null };
      const result = await this.runBudgeted<RenderResult>(task, slicesSignal, pageTimeoutMs, {
        onMessage: (message) => message !== 'end' && onPage(++done),
        untilEnd: true,
      });
      if (!result.ok) throw new ConversionError(result.reason, { detail: `page ${from}–${to}: ${result.detail}` });
      results[index] = result.pages;
      texts[index] = result.texts;
    };

    // One lane per thread takes the next slice; after a failure no new slice starts, and the
    // slices already running finish (an abort ends them at once through the signal).
    const lane = async () => {
      while (next < slices.length && !failure) {
        const index = next++;
        try {
          await renderSlice(index);
        } catch (error) {
          failure ??= error as ConversionError;
          failed.abort(failure);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.threads, slices.length) }, lane));
    if (failure) throw failure;
    return { pageFiles: results.flat(), texts: texts.flat() };
  }

  /**
   * Writes the positions of every page's characters into `outDir` (`<n>.pos.gz`), and nothing
   * else: for a document converted before they were kept. Slices run on all threads; opening the document and each
   * page have `budgetMs`, as in renderAll.
   */
  async positionsAll(
    source: WorkerSource,
    pages: number,
    outDir: string,
    gzipLevel: number,
    signal: AbortSignal,
    budgetMs = PAGE_TIMEOUT_MS,
  ): Promise<void> {
    // No SVG device to share here: slices only even out the threads' load.
    const size = Math.max(1, Math.min(MAX_SLICE * 4, Math.ceil(pages / (this.threads * 2))));
    let next = 1;
    let failure: ConversionError | undefined;
    const lane = async () => {
      while (next <= pages && !failure) {
        const from = next;
        const to = Math.min(pages, from + size - 1);
        next = to + 1;
        const result = await this.runBudgeted<WorkerFailure | { ok: true }>(
          { kind: 'positions', source, from, to, outDir, gzipLevel },
          signal,
          budgetMs,
        ).catch((error: unknown) => ({ ok: false as const, error }));
        if (result.ok) continue;
        failure ??=
          'error' in result
            ? (result.error as ConversionError)
            : new ConversionError(result.reason, { detail: `page ${from}–${to}: ${result.detail}` });
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.threads, Math.ceil(pages / size)) }, lane));
    if (failure) throw failure;
  }

  /** A scan page's JPEG as WebP at reading resolution, or null when that is not smaller (scan-page.ts, scanWebp). */
  async scanWebp(
    jpeg: Uint8Array,
    target: ScanTarget,
    webpOptions: WebpOptions,
    signal: AbortSignal,
  ): Promise<Buffer | null> {
    const webp = await this.run<Uint8Array | null>({ kind: 'scan-webp', jpeg, target, webpOptions }, signal);
    return webp && Buffer.from(webp.buffer, webp.byteOffset, webp.byteLength);
  }

  /** A page's plain SVG with its photos at reading resolution (svg-images.ts), gzip-compressed. */
  async shrinkPhotos(
    svg: Uint8Array,
    settings: Pick<RenderSettings, 'raster' | 'gzipLevel'>,
    signal: AbortSignal,
  ): Promise<Buffer> {
    const gzipped = await this.run<Uint8Array>(
      { kind: 'shrink-photos', svg, raster: settings.raster, gzipLevel: settings.gzipLevel },
      signal,
    );
    return Buffer.from(gzipped.buffer, gzipped.byteOffset, gzipped.byteLength);
  }

  /** Asks the running tasks to stop, waits for them (at most the grace), then ends the threads. */
  async close(): Promise<void> {
    this.closing.abort(new ConversionError('aborted'));
    await Promise.all(this.inFlight);
    await this.pool.destroy();
  }
}
