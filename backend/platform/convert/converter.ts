import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { checkArchive } from './archive-guard';
import { detectConverters, type ConverterReport } from './detect';
import { epubWithoutSvg } from './epub-svg';
import { ConversionError, abortReason, incompleteFile } from './errors';
import { ExternalConverters } from './external';
import {
  notText,
  planConversion,
  sniffContent,
  officeTextImport,
  type ConverterName,
  type FormatPlan,
} from './formats';
import {
  PAGE_TIMEOUT_MS,
  PagePool,
  type CoverFiles,
  type PageFile,
  type PageKind,
  type PendingImages,
  type RenderSettings,
  type WorkerSource,
} from './page-pool';
import { decodeTextFile, joinPageTexts, textAsXhtml } from './text';
import { CONVERTER_WORK_DIR, scratchFolder, scratchRoot } from '../scratch';
import { positionsFile } from './text-positions';

// The document conversion engine: an upload in, its pages (SVG or WebP), covers, text and page
// count out, in a directory the caller then moves into the blob store. No database, no HTTP:
// the document module runs it inside a job and records the result.

export type { ConverterName } from './formats';
export type { ConverterReport } from './detect';
export type { CoverFiles, PageFile, PageKind, PendingImages, ScanTarget } from './page-pool';
export { ConversionError, MISSING_CONVERTER_MESSAGES, memberConversionReason, type ConversionFailure } from './errors';
export { refusalOf, renderingRoute, sniffContent, type ContentKind } from './formats';
export { PAGE_BREAK } from './text';
export { positionsFile, POSITIONS_VERSION, type PagePositions, type PositionsLine } from './text-positions';

export interface ConversionLimits {
  /** the whole conversion, external converter included; then ConversionError('timeout') */
  timeoutMs: number;
  /**
   * one step of a task on the MuPDF threads: opening the document (counting and checking its pages), or one step of
   * one page (drawing it, its covers, its WebP); then its thread is ended and the document fails with
   * ConversionError('document-too-complex'), or ConversionError('page-too-complex') naming the page: a page tree or a
   * page that would take hours no longer holds a conversion until `timeoutMs`
   */
  pageTimeoutMs: number;
  /** documents with more pages are refused before any page is rendered */
  maxPages: number;
  /** zip containers: entries, and bytes once inflated (zip bombs) */
  maxArchiveEntries: number;
  maxArchiveBytes: number;
}

export interface ConverterSettings {
  /** MuPDF worker threads; default: the number of cores */
  workers?: number;
  /** LibreOffice or calibre processes at once; default 1 */
  externalConcurrency?: number;
  /** soffice / soffice.bin / its directory; null: never use LibreOffice; default: searched */
  libreofficePath?: string | null;
  /** ebook-convert or its directory; null: never use calibre; default: searched */
  calibrePath?: string | null;
  /** profiles of the external converters and scratch files; default `<tmpdir>/moredoc-convert` */
  workDir?: string;
  /** defaults for every conversion; a request may override them */
  limits?: Partial<ConversionLimits>;
  /**
   * a worker thread idle this long ends (its WASM memory goes with it); default 5 s: a
   * document's pages and the documents queued behind it keep the threads busy without a gap
   * that long, and a site loaded at once after its conversions peaked at 285–295 MiB with 5 s,
   * 297–316 with 30 s (docs/performance.md §3)
   */
  workerIdleTimeoutMs?: number;
  /**
   * added to the nice value (0–19) of the MuPDF threads, of the libvips threads that encode their images and of
   * LibreOffice and calibre, so that they yield the cores to the process's other threads; default 0
   */
  niceIncrement?: number;
}

export interface ConversionProgress {
  done: number;
  total: number;
}

export interface ConversionRequest {
  sourcePath: string;
  /** the extension the uploader gave (`pdf`, `.DOCX`); the content must agree with it */
  ext: string;
  /** created if missing; receives every output file (after a failure it may hold part of them) */
  outDir: string;
  signal?: AbortSignal;
  onProgress?: (progress: ConversionProgress) => void;
  limits?: Partial<ConversionLimits>;
  /** false: no characters' positions (`positionFiles` empty), to measure what they cost (bench/conversion.ts); default true */
  positions?: boolean;
}

export interface ConversionResult {
  pages: number;
  /** size of the first page in points (pixels at 72 dpi, as MOREDOC's cover.big.png) */
  width: number;
  height: number;
  /** every page, in order; file names are relative to outDir */
  pageFiles: PageFile[];
  cover: CoverFiles;
  /** every page's text in order, NFKC-normalised, a form feed between pages (text.ts, joinPageTexts) */
  text: string;
  /**
   * where each page's characters are, in page order (`<n>.pos.gz`, text-positions.ts): the text as MuPDF drew it, not
   * normalised
   */
  positionFiles: string[];
  /** the intermediate PDF made by LibreOffice or calibre (`document.pdf` in outDir), kept so that
   * re-rendering never needs them again; null when MuPDF read the upload itself */
  pdfFile: string | null;
  converter: ConverterName;
}

/**
 * A page brought to reading resolution (`DocumentConverter.pageAtReadingResolution`): the file that replaces the
 * page's.
 */
export interface LighterPage {
  file: string;
  kind: PageKind;
  bytes: Buffer;
}

export interface DocumentConverter {
  /** Converts one document; throws ConversionError with a Chinese message when it cannot. */
  convertDocument(request: ConversionRequest): Promise<ConversionResult>;
  /**
   * Page `n`, whose images the conversion left as the PDF stores them (`PageFile.pending`), with
   * them at reading resolution, on a worker thread: a scan's JPEG as WebP (`<n>.webp`), or the
   * plain SVG with WebP photos, gzip-compressed (`<n>.gzip.svg`). `stored`: the page file's
   * bytes. null when the page stays as it is (a scan whose WebP would not be smaller).
   */
  pageAtReadingResolution(
    n: number,
    stored: Uint8Array,
    pending: PendingImages,
    signal?: AbortSignal,
  ): Promise<LighterPage | null>;
  /**
   * The positions of every page's characters (`<n>.pos.gz` in `outDir`), for a document
   * converted before they were kept: read by MuPDF from the upload (a format MuPDF reads
   * itself) or from the PDF LibreOffice or calibre made (ext `pdf`). Answers the page count.
   */
  extractPositions(request: Omit<ConversionRequest, 'onProgress'>): Promise<{ pages: number; positionFiles: string[] }>;
  /** What this install can convert with (for `GET /api/v1/envs`). */
  detectConverters(): Promise<ConverterReport>;
  /** Ends the worker threads; conversions still running fail. */
  close(): Promise<void>;
}

export const DEFAULT_LIMITS: ConversionLimits = {
  timeoutMs: 30 * 60_000, // MOREDOC's converter.timeout default (30 minutes)
  pageTimeoutMs: PAGE_TIMEOUT_MS, // 60 s
  maxPages: 10_000,
  maxArchiveEntries: 10_000,
  maxArchiveBytes: 1024 ** 3,
};

const PDF_FILE = 'document.pdf';
const COVER_FILES: CoverFiles = { webp: 'cover.webp', png: 'cover.png', bigPng: 'cover.big.png' };

// Reflowable documents are laid out on A5 pages (MuPDF's own default), 12 pt text: book-like
// pages whose 1:√2 shape matches the 210×297 cover box.
const REFLOW = { width: 420, height: 595, em: 12 };

export const RENDER_SETTINGS: RenderSettings = {
  // Measured on A4 pages (docs/performance.md §4): Chinese text from LibreOffice is
  // 75–95 KB as gzip SVG; a scan embeds its JPEG, 280 KB (150 dpi) to 2.2 MB (300 dpi colour),
  // where a WebP at 150 dpi is 55–105 KB. Above 128 KB a page is also rendered as WebP and the
  // smaller file is kept: scans become WebP, and so does a very dense text page (10.5 pt, 700
  // distinct characters: 456 KB SVG, 317 KB WebP); ordinary text never pays for the WebP.
  svgGzipLimit: 128 * 1024,
  // Level 4: 5 % more bytes than level 6 on Chinese text pages (80 against 76 KB), in 60 % of the
  // time; gzip is half of the work on such a page, MuPDF's SVG the other half.
  gzipLevel: 4,
  positions: true,
  // WebP quality 75, effort 2: a 200 dpi scan page gives 81 KB in 80 ms, where sharp's default
  // (quality 80, effort 4) gives 117 KB in 255 ms.
  raster: { dpi: 150, maxSide: 2480, webpOptions: { quality: 75, effort: 2 } },
  cover: {
    files: COVER_FILES,
    // the page at 72 dpi (595 × 842 for A4), as MOREDOC's; a larger page is fitted into this box
    big: { width: 840, height: 1188 },
    png: { width: 210, height: 297 },
    webp: { width: 420, height: 594 },
    webpOptions: { quality: 75, effort: 2 },
    // zlib level 3: the 840 × 1188 PNG of a scan in 34 ms instead of 164 (level 6, sharp's
    // default) for 6 % more bytes (760 against 718 KiB); a text page's 13 against 15 ms, 2 % more.
    pngOptions: { compressionLevel: 3 },
  },
};

/**
 * How long a detection of LibreOffice and calibre stands for the dashboard; a conversion that
 * needs one the last detection missed looks again at once, so that installing it needs no restart.
 */
const DETECTION_TTL_MS = 30_000;

class Converter implements DocumentConverter {
  private readonly pool: PagePool;
  private detection: { report: Promise<ConverterReport>; at: number };
  private external: ExternalConverters | undefined;
  private readonly workDir: string;
  private readonly limits: ConversionLimits;
  /**
   * The LibreOffice profiles and calibre settings of this engine alone: two LibreOffice runs on one profile (another
   * process's engine on the machine, which shared `<workDir>/profiles`) made no PDF, and the run failed.
   */
  private profiles: Promise<string> | undefined;

  constructor(private readonly settings: ConverterSettings) {
    this.workDir = settings.workDir ?? join(scratchRoot(), CONVERTER_WORK_DIR);
    this.limits = { ...DEFAULT_LIMITS, ...settings.limits };
    this.pool = new PagePool({
      threads: settings.workers ?? availableParallelism(),
      idleTimeoutMs: settings.workerIdleTimeoutMs ?? 5_000,
      niceIncrement: settings.niceIncrement ?? 0,
    });
    this.detection = this.detect();
  }

  private detect(): { report: Promise<ConverterReport>; at: number } {
    const report = detectConverters({
      libreofficePath: this.settings.libreofficePath,
      calibrePath: this.settings.calibrePath,
    });
    return { report, at: Date.now() };
  }

  detectConverters(): Promise<ConverterReport> {
    if (Date.now() - this.detection.at > DETECTION_TTL_MS) this.detection = this.detect();
    return this.detection.report;
  }

  async pageAtReadingResolution(
    n: number,
    stored: Uint8Array,
    pending: PendingImages,
    signal = new AbortController().signal,
  ): Promise<LighterPage | null> {
    if ('scan' in pending) {
      const webp = await this.pool.scanWebp(stored, pending.scan, RENDER_SETTINGS.raster.webpOptions, signal);
      return webp && { file: `${n}.webp`, kind: 'webp', bytes: webp };
    }
    return {
      file: `${n}.gzip.svg`,
      kind: 'svg-gzip',
      bytes: await this.pool.shrinkPhotos(stored, RENDER_SETTINGS, signal),
    };
  }

  async extractPositions(
    request: Omit<ConversionRequest, 'onProgress'>,
  ): Promise<{ pages: number; positionFiles: string[] }> {
    const limits = { ...this.limits, ...request.limits };
    const timeout = AbortSignal.timeout(limits.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    await mkdir(request.outDir, { recursive: true });
    await mkdir(this.workDir, { recursive: true });
    const scratch = await scratchFolder('positions', this.workDir);
    try {
      const plan = planConversion(request.ext, await sniffContent(request.sourcePath));
      if (plan.converter !== 'mupdf')
        throw new ConversionError('unsupported-format', {
          detail: `positions are read from the PDF ${plan.converter} made`,
        });
      const { source } = await this.prepare(request, plan, scratch, signal);
      const { pages } = await this.pool.inspect(source, signal, limits.pageTimeoutMs);
      await this.pool.positionsAll(
        source,
        pages,
        request.outDir,
        RENDER_SETTINGS.gzipLevel,
        signal,
        limits.pageTimeoutMs,
      );
      return { pages, positionFiles: Array.from({ length: pages }, (_, i) => positionsFile(i + 1)) };
    } catch (error) {
      if (signal.aborted) throw abortReason(signal);
      throw error;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  /** LibreOffice and calibre as last found; looked for again when the one `needed` was missing. */
  private async externalConverters(needed: 'libreoffice' | 'calibre'): Promise<ExternalConverters> {
    let tools = await this.detection.report;
    if (!tools[needed]) {
      this.detection = this.detect();
      tools = await this.detection.report;
    }
    const stateDir = await (this.profiles ??= this.makeProfilesFolder());
    this.external ??= new ExternalConverters({
      stateDir,
      libreoffice: tools.libreoffice,
      calibre: tools.calibre,
      concurrency: this.settings.externalConcurrency ?? 1,
      niceIncrement: this.settings.niceIncrement ?? 0,
    });
    this.external.useTools(tools);
    return this.external;
  }

  async convertDocument(request: ConversionRequest): Promise<ConversionResult> {
    const limits = { ...this.limits, ...request.limits };
    const timeout = AbortSignal.timeout(limits.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    await mkdir(request.outDir, { recursive: true });
    await mkdir(this.workDir, { recursive: true });
    const scratch = await scratchFolder('job', this.workDir);
    try {
      return await this.convert(request, limits, scratch, signal);
    } catch (error) {
      if (signal.aborted) throw abortReason(signal);
      throw error;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  private async convert(
    request: ConversionRequest,
    limits: ConversionLimits,
    scratch: string,
    signal: AbortSignal,
  ): Promise<ConversionResult> {
    const size = (await stat(request.sourcePath)).size;
    if (size === 0) throw new ConversionError('empty-file');
    const plan = planConversion(request.ext, await sniffContent(request.sourcePath));
    if (plan.archive)
      await checkArchive(
        request.sourcePath,
        { maxEntries: limits.maxArchiveEntries, maxUncompressedBytes: limits.maxArchiveBytes },
        signal,
      );

    const { source, pdfFile } = await this.prepare(request, plan, scratch, signal);
    const info = await this.pool.inspect(source, signal, limits.pageTimeoutMs);
    // A damaged file is refused rather than published with blank pages (pdf-completeness.ts).
    if (info.incompleteFrom !== null) throw incompleteFile(info.incompleteFrom);
    if (info.pages === 0) throw new ConversionError('no-pages');
    if (info.pages > limits.maxPages) {
      throw new ConversionError('too-many-pages', {
        detail: `${info.pages} pages`,
        message: `文档共 ${info.pages} 页，超出 ${limits.maxPages} 页的限制，无法转换`,
      });
    }

    const total = info.pages;
    let reported = 0;
    const report = (done: number) => {
      if (done <= reported) return;
      reported = done;
      request.onProgress?.({ done, total });
    };
    const positions = request.positions ?? RENDER_SETTINGS.positions;
    const settings = { ...RENDER_SETTINGS, positions };
    const rendered = await this.pool.renderAll(
      source,
      total,
      request.outDir,
      settings,
      signal,
      report,
      limits.pageTimeoutMs,
    );
    report(total);
    return {
      pages: total,
      width: Math.round(info.width),
      height: Math.round(info.height),
      pageFiles: rendered.pageFiles,
      cover: COVER_FILES,
      text: joinPageTexts(rendered.texts),
      positionFiles: positions ? Array.from({ length: total }, (_, i) => positionsFile(i + 1)) : [],
      pdfFile,
      converter: plan.converter,
    };
  }

  /** Makes the file MuPDF will open: the upload itself, a re-encoded copy, or a PDF from LibreOffice or calibre. */
  private async prepare(
    request: ConversionRequest,
    plan: FormatPlan,
    scratch: string,
    signal: AbortSignal,
  ): Promise<{ source: WorkerSource; pdfFile: string | null }> {
    const key = randomUUID();
    const ext = request.ext.replace(/^\./, '').toLowerCase();
    let input = request.sourcePath;
    let libreofficeFilter = plan.libreofficeFilter;
    if (plan.input === 'utf8-text' || plan.input === 'office-text') {
      const text = decodeTextFile(await readFile(request.sourcePath));
      if (text === null) throw notText(ext);
      const office = plan.input === 'office-text' ? officeTextImport(ext, text) : null;
      libreofficeFilter ??= office?.filter;
      if (plan.converter === 'mupdf') {
        input = join(scratch, plan.mupdfName!);
        await writeFile(input, textAsXhtml(text));
      } else if (office?.utf8 ?? true) {
        input = join(scratch, `document.${ext}`);
        await writeFile(input, text);
      }
    } else if (plan.input === 'png-image') {
      input = join(scratch, 'document.png');
      try {
        // sharp loads with the first image to convert, not at the process's start (the page threads load their own).
        const { default: sharp } = await import('sharp');
        await sharp(request.sourcePath).png().toFile(input);
      } catch (error) {
        throw new ConversionError('corrupt', { detail: (error as Error).message });
      }
    } else if (plan.input === 'epub') {
      const rewritten = join(scratch, plan.mupdfName!);
      if (await epubWithoutSvg(request.sourcePath, rewritten, signal)) input = rewritten;
    }

    if (plan.converter === 'mupdf') {
      return {
        source: { path: input, name: plan.mupdfName!, reflow: plan.reflowable ? REFLOW : null, key },
        pdfFile: null,
      };
    }

    const external = await this.externalConverters(plan.converter);
    let pdf: string;
    if (plan.converter === 'libreoffice') {
      // A plain name with the upload's extension: LibreOffice picks its filter by it, and names the PDF after it.
      const named = join(scratch, `document.${ext}`);
      if (input !== named) await copyFile(input, named);
      pdf = await external.libreofficeToPdf(named, join(scratch, 'out'), signal, libreofficeFilter);
    } else {
      const named = join(scratch, `document.${ext}`);
      await copyFile(input, named);
      pdf = await external.calibreToPdf(named, join(scratch, PDF_FILE), scratch, signal);
    }
    const kept = join(request.outDir, PDF_FILE);
    await rename(pdf, kept).catch(async () => {
      await copyFile(pdf, kept);
    });
    return { source: { path: kept, name: PDF_FILE, reflow: null, key }, pdfFile: PDF_FILE };
  }

  private async makeProfilesFolder(): Promise<string> {
    await mkdir(this.workDir, { recursive: true });
    return scratchFolder('profiles', this.workDir);
  }

  async close(): Promise<void> {
    await this.pool.close();
    const profiles = await this.profiles?.catch(() => undefined);
    if (profiles) await rm(profiles, { recursive: true, force: true });
  }
}

/** The engine with its worker pool; one per process (the backend creates it at start). */
export function createDocumentConverter(settings: ConverterSettings = {}): DocumentConverter {
  return new Converter(settings);
}
