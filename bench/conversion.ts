// The conversion benchmark (`npm run bench -- --only=conversion`): pages per second of our
// pipeline (backend/platform/convert, MuPDF WASM on worker threads, every page written as
// gzip SVG or WebP, text and covers) against Debian's `mutool convert -F svg` (native MuPDF,
// one thread, plain SVG, nothing else) on the same generated files, in interleaved rounds.
// Our engine runs in a process of its own (processes/convert.ts): its memory peak is VmHWM,
// worker threads included. Then what the characters' positions cost: the documents with text
// converted with them and without, in interleaved rounds.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { gzipSync } from 'node:zlib';
import * as mupdf from 'mupdf';
import sharp from 'sharp';
import { RENDER_SETTINGS } from '../backend/platform/convert/converter';
import { rasterScale, scanJpeg, scanWebp } from '../backend/platform/convert/scan-page';
import { photosOf, shrinkSvgImages } from '../backend/platform/convert/svg-images';
import { SvgPages } from '../backend/platform/convert/svg-pages';
import { bilevelScanPdf, illustratedPdf, repeatedPdf, scannedPdf } from '../tests/helpers/documents';
import { chineseProsePdf } from './lib/chinese-pdf';
import { REPO_ROOT, memoryOf, stopChild } from './lib/processes';
import { heading, int, kib, mib, ratio, table } from './lib/report';
import { requireMutool, type Mutool } from './lib/tools';

export interface ConversionBenchOptions {
  rounds: number;
  /** rounds of the positions' share, each a conversion with them and one without */
  positionsRounds: number;
}

interface EngineAnswer {
  /** the conversion, until every page is readable */
  seconds: number;
  /** the engine process's CPU time (user + system, every thread) during the conversion */
  cpuSeconds: number;
  /**
   * then the pages whose images it left as stored, brought to reading resolution (the page images job), and how many
   */
  imagesSeconds: number;
  pendingPages: number;
  pages: number;
  files: number;
  webp: number;
  /** the pages once the page images job has run */
  bytes: number;
  /** the pages as the conversion left them */
  readableBytes: number;
  /** the characters' positions (`<n>.pos.gz`), 0 when converted without them */
  positionBytes: number;
  error?: string;
}

/** The engine's process: one conversion per request line, one answer per line. */
class EngineProcess {
  private constructor(
    private readonly child: ChildProcess,
    private readonly lines: AsyncIterator<string>,
  ) {}

  static async start(workDir: string): Promise<EngineProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'bench/processes/convert.ts')], {
      cwd: REPO_ROOT,
      env: { ...process.env, BENCH_WORK_DIR: workDir },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const reader: Interface = createInterface({ input: child.stdout! });
    const engine = new EngineProcess(child, reader[Symbol.asyncIterator]());
    const ready = await engine.next();
    if (!('ready' in ready)) throw new Error('the conversion process did not start');
    return engine;
  }

  get pid(): number {
    return this.child.pid!;
  }

  private async next(): Promise<Record<string, unknown>> {
    const line = await this.lines.next();
    if (line.done) throw new Error('the conversion process ended');
    return JSON.parse(line.value) as Record<string, unknown>;
  }

  async convert(sourcePath: string, outDir: string, positions = true): Promise<EngineAnswer> {
    this.child.stdin!.write(`${JSON.stringify({ sourcePath, outDir, positions })}\n`);
    const answer = (await this.next()) as unknown as EngineAnswer;
    if (answer.error) throw new Error(`our pipeline failed on ${sourcePath}: ${answer.error}`);
    return answer;
  }

  stop(): Promise<void> {
    this.child.stdin!.end();
    return stopChild(this.child);
  }
}

interface MutoolRun {
  seconds: number;
  files: number;
  bytes: number;
}

async function directorySize(dir: string): Promise<{ files: number; bytes: number }> {
  const names = await readdir(dir);
  const sizes = await Promise.all(names.map(async (name) => (await stat(join(dir, name))).size));
  return { files: names.length, bytes: sizes.reduce((sum, size) => sum + size, 0) };
}

async function runMutool(mutool: Mutool, file: string, outDir: string): Promise<MutoolRun> {
  const start = performance.now();
  const run = spawnSync(mutool.path, ['convert', '-F', 'svg', '-o', join(outDir, '%d.svg'), file], {
    encoding: 'utf8',
  });
  const seconds = (performance.now() - start) / 1000;
  if (run.status !== 0) throw new Error(`mutool convert failed on ${file}: ${run.stderr}`);
  return { seconds, ...(await directorySize(outDir)) };
}

async function fresh(dir: string): Promise<string> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  return dir;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

interface DocumentFigures {
  label: string;
  pages: number;
  sourceBytes: number;
  first: EngineAnswer;
  ours: EngineAnswer[];
  mutool: MutoolRun[];
  peakAfter: number;
}

/**
 * Page 1 of a PDF as the engine would write it each way: gzip SVG, WebP of MuPDF's rendering
 * at reading resolution, and WebP straight from the JPEG when the scan shortcut takes the page.
 */
async function pageSizes(
  pdf: Buffer,
): Promise<{ svg: number; photos: number; webp: number; fromJpeg: number | null; photosFirst: boolean }> {
  const page = mupdf.Document.openDocument(pdf, 'application/pdf').loadPage(0);
  const bounds = page.getBounds();
  // The SVG as the engine's worker writes it (svg-pages.ts: glyph outlines rounded; svg-images.ts: photos at reading
  // resolution).
  const svgs = new SvgPages();
  const list = page.toDisplayList();
  svgs.add(page, list, bounds);
  const drawn = svgs.finish()[0]!;
  // written as drawn first (convert-worker.ts, finishPage): photos as stored, the rest within the limit
  const asStored = photosOf(drawn);
  const photosFirst =
    asStored !== null &&
    gzipSync(asStored.rest, { level: RENDER_SETTINGS.gzipLevel }).length <= RENDER_SETTINGS.svgGzipLimit;
  const shrunk = await shrinkSvgImages(drawn, RENDER_SETTINGS.raster);
  const svg = gzipSync(shrunk.svg, { level: RENDER_SETTINGS.gzipLevel }).length;
  const scale = rasterScale(bounds, RENDER_SETTINGS.raster);
  const pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false);
  const raw = { width: pixmap.getWidth(), height: pixmap.getHeight(), channels: 3 as const };
  const webp = (
    await sharp(Buffer.from(pixmap.getPixels()), { raw }).webp(RENDER_SETTINGS.raster.webpOptions).toBuffer()
  ).length;
  const scan = await scanJpeg(page, list, bounds, RENDER_SETTINGS);
  const fromJpeg = scan
    ? ((await scanWebp(scan.jpeg, scan.target, RENDER_SETTINGS.raster.webpOptions))?.length ?? null)
    : null;
  return { svg, photos: shrunk.readingBytes, webp, fromJpeg, photosFirst };
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const below = sorted[Math.floor(at)]!;
  return below + (sorted[Math.ceil(at)]! - below) * (at - Math.floor(at));
};

const percent = (value: number) => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)} %`;

/**
 * What the characters' positions add to a conversion (issue 45's goals: ≤ 15 % of its time, ≤ 20 % of its bytes per
 * page): each document converted with them and without (ConversionRequest.positions) in interleaved rounds, the one
 * that goes first alternating, so that both meet the same load on a busy machine. Besides the medians, each round's
 * pair gives a ratio: their spread says how far the figure can be trusted.
 */
async function positionsShare(
  engine: EngineProcess,
  documents: { label: string; file: string }[],
  rounds: number,
  dir: string,
): Promise<void> {
  const loads: number[] = [loadavg()[0]!];
  const rows: (string | number)[][] = [];
  const outDir = join(dir, 'positions');
  for (const document of documents) {
    // the engine has converted it with positions already; once without, so that both ways are warm
    await engine.convert(document.file, await fresh(outDir), false);
    const runs = { with: [] as EngineAnswer[], without: [] as EngineAnswer[] };
    for (let round = 1; round <= rounds; round++) {
      process.stderr.write(`  ${document.label}: positions, round ${round}/${rounds} …\n`);
      for (const positions of round % 2 === 1 ? [true, false] : [false, true])
        (positions ? runs.with : runs.without).push(
          await engine.convert(document.file, await fresh(outDir), positions),
        );
      loads.push(loadavg()[0]!);
    }
    const pages = runs.with[0]!.pages;
    for (const run of [...runs.with, ...runs.without])
      if (run.files !== pages) throw new Error(`our pipeline wrote ${run.files} of ${pages} pages`);
    if (runs.without.some((run) => run.positionBytes > 0)) throw new Error('positions written when not asked for');
    const share = (figure: (run: EngineAnswer) => number) => {
      const paired = runs.with.map((run, i) => figure(run) / figure(runs.without[i]!) - 1);
      const withMedian = median(runs.with.map(figure));
      const withoutMedian = median(runs.without.map(figure));
      return {
        withMedian,
        withoutMedian,
        ratio: withMedian / withoutMedian - 1,
        spread: `${percent(quantile(paired, 0.25))} … ${percent(quantile(paired, 0.75))} (${percent(Math.min(...paired))} … ${percent(Math.max(...paired))})`,
      };
    };
    const pageBytes = median(runs.without.map((run) => run.bytes)) / pages;
    const positionBytes = median(runs.with.map((run) => run.positionBytes)) / pages;
    const timeCells = (what: string, figure: (run: EngineAnswer) => number) => {
      const time = share(figure);
      return [
        `${document.label}, ${what}`,
        pages,
        (time.withoutMedian * 1000).toFixed(0),
        (time.withMedian * 1000).toFixed(0),
        percent(time.ratio),
        time.spread,
      ];
    };
    rows.push(
      [
        ...timeCells('wall', (run) => run.seconds),
        kib(pageBytes),
        kib(pageBytes + positionBytes),
        percent(positionBytes / pageBytes),
      ],
      [...timeCells('CPU', (run) => run.cpuSeconds), '', '', ''],
    );
  }
  console.log(
    `\nWhat the characters' positions add (\`<n>.pos.gz\`, text-positions.ts): each document converted without them and`,
  );
  console.log(
    `with them in ${rounds} interleaved rounds (which goes first alternates), medians. "wall": the conversion until every`,
  );
  console.log(
    'page reads; "CPU": the engine process\'s CPU time meanwhile, every thread. Per round, (with − without) ÷ without:',
  );
  console.log(
    `interquartile range (and extremes). Load average (1 min) ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} during the rounds.\n`,
  );
  console.log(
    table(
      [
        'document',
        'pages',
        'without ms',
        'with ms',
        '(with − without) ÷ without',
        'per round: IQR (range)',
        'KiB/page without',
        'KiB/page with',
        'positions ÷ pages',
      ],
      rows,
    ),
  );
}

/** The figures behind RENDER_SETTINGS.svgGzipLimit: what a page weighs as SVG and as WebP. */
async function pageWeights(): Promise<void> {
  const cases: [string, () => Promise<Buffer>][] = [
    ['Chinese text page (LibreOffice, 12 pt)', async () => repeatedPdf(1)],
    ['the same with a 1600 × 1067 photo drawn 480 × 320 pt', () => illustratedPdf(1)],
    ['scan, 100 dpi grey, JPEG quality 60', () => scannedPdf(1, 100, 60)],
    ['scan, 150 dpi grey, JPEG quality 75', () => scannedPdf(1, 150)],
    ['scan, 200 dpi grey, JPEG quality 75', () => scannedPdf(1, 200)],
    ['scan, 300 dpi grey, JPEG quality 75', () => scannedPdf(1, 300)],
  ];
  const rows: (string | number)[][] = [];
  for (const [label, make] of cases) {
    const { svg, photos, webp, fromJpeg, photosFirst } = await pageSizes(await make());
    const kept =
      fromJpeg !== null
        ? 'its JPEG, then WebP from it'
        : photosFirst
          ? 'plain SVG, then gzip SVG'
          : svg - photos <= RENDER_SETTINGS.svgGzipLimit
            ? 'SVG'
            : webp < svg
              ? 'WebP'
              : 'SVG';
    rows.push([
      label,
      kib(svg),
      photos === 0 ? '—' : kib(photos),
      kib(webp),
      fromJpeg === null ? '—' : kib(fromJpeg),
      kept,
    ]);
  }
  const limit = kib(RENDER_SETTINGS.svgGzipLimit);
  const { dpi, webpOptions } = RENDER_SETTINGS.raster;
  console.log(
    `\nOne A4 page written each way (gzip level ${RENDER_SETTINGS.gzipLevel}; WebP at ${dpi} dpi, quality ${webpOptions.quality}, effort ${webpOptions.effort}).`,
  );
  console.log(
    `Above ${limit} KiB of gzip SVG, not counting its photos brought to ${dpi} dpi (svg-images.ts), the engine renders the`,
  );
  console.log(
    `WebP too and keeps the smaller file; a scan whose JPEG alone is over ${limit} KiB is that JPEG, then the WebP made from it (scan-page.ts), without an SVG;`,
  );
  console.log(
    'a page with photos is first the plain SVG with the photos as stored, then the gzip SVG with them at reading resolution.\n',
  );
  console.log(
    table(
      ['page', 'gzip SVG KiB', 'of which photos KiB', 'WebP KiB (MuPDF)', 'WebP KiB (from the JPEG)', 'kept'],
      rows,
    ),
  );
}

export async function conversionBenchmark(options: ConversionBenchOptions): Promise<void> {
  const mutool = requireMutool();
  heading('6. Conversion');
  const dir = await mkdtemp(join(tmpdir(), 'moredoc-bench-convert-'));
  let engine: EngineProcess | undefined;
  try {
    process.stderr.write('  generating the documents …\n');
    // `text`: the characters' positions are measured on it (a scan has none)
    const documents = [
      {
        label: '100-page text PDF (Chinese, LibreOffice)',
        file: join(dir, 'text-100.pdf'),
        make: async () => repeatedPdf(100),
        text: true,
      },
      {
        label: '100 different pages of Chinese prose',
        file: join(dir, 'prose-100.pdf'),
        make: async () => chineseProsePdf(100),
        text: true,
      },
      {
        label: '30-page scanned PDF (200 dpi grey JPEG)',
        file: join(dir, 'scan-30.pdf'),
        make: () => scannedPdf(30, 200),
      },
      {
        label: '30-page bilevel scan (300 dpi, 1 bit)',
        file: join(dir, 'bilevel-30.pdf'),
        make: async () => bilevelScanPdf(30),
      },
      {
        label: '30 illustrated pages (Chinese text, a photo each)',
        file: join(dir, 'illustrated-30.pdf'),
        make: () => illustratedPdf(30),
        text: true,
      },
    ];
    for (const document of documents) writeFileSync(document.file, await document.make());

    engine = await EngineProcess.start(join(dir, 'work'));
    const figures: DocumentFigures[] = [];
    for (const document of documents) {
      const pagesDir = join(dir, 'ours');
      const mutoolDir = join(dir, 'mutool');
      // The first conversion of each document starts the threads (when idle) and fills the caches.
      process.stderr.write(`  ${document.label}: first conversion …\n`);
      const first = await engine.convert(document.file, await fresh(pagesDir));
      const ours: EngineAnswer[] = [];
      const references: MutoolRun[] = [];
      for (let round = 1; round <= options.rounds; round++) {
        process.stderr.write(`  ${document.label}: round ${round}/${options.rounds} …\n`);
        ours.push(await engine.convert(document.file, await fresh(pagesDir)));
        references.push(await runMutool(mutool, document.file, await fresh(mutoolDir)));
      }
      const pages = first.pages;
      for (const run of ours)
        if (run.files !== pages) throw new Error(`our pipeline wrote ${run.files} of ${pages} pages`);
      for (const run of references)
        if (run.files !== pages) throw new Error(`mutool wrote ${run.files} of ${pages} pages`);
      figures.push({
        label: document.label,
        pages,
        sourceBytes: (await stat(document.file)).size,
        first,
        ours,
        mutool: references,
        peakAfter: (await memoryOf(engine.pid)).peak,
      });
    }

    console.log(
      `Our pipeline (${availableParallelism()} worker threads: gzip SVG, WebP or a scan's JPEG per page, text, covers) against`,
    );
    console.log(
      `\`mutool convert -F svg -o out/%d.svg\` (mutool ${mutool.version}, one thread, plain SVG only), ${options.rounds} interleaved`,
    );
    console.log(
      'rounds after a first conversion, medians; every page of every run checked to be written. "ours" is the',
    );
    console.log(
      'conversion until every page reads, its images as the PDF stores them (a scan page is its JPEG, a photo is',
    );
    console.log('copied into the SVG); a job of its own then brings them to 150 dpi as WebP ("then images at reading');
    console.log('resolution": both, one after the other).\n');
    console.log(
      table(
        [
          'document',
          'pages',
          'mutool pages/s',
          'ours pages/s',
          'ours ÷ mutool',
          'then images at reading resolution',
          'ours, first run',
          'mutool output',
          'our output',
          'our peak RSS',
        ],
        figures.map((f) => {
          const ourRate = f.pages / median(f.ours.map((run) => run.seconds));
          const mutoolRate = f.pages / median(f.mutool.map((run) => run.seconds));
          const wholeRate = f.pages / median(f.ours.map((run) => run.seconds + run.imagesSeconds));
          const output = f.ours[0]!;
          const pending = output.pendingPages > 0;
          return [
            `${f.label}, ${mib(f.sourceBytes)} MiB`,
            f.pages,
            int(mutoolRate),
            int(ourRate),
            ratio(ourRate, mutoolRate),
            pending ? `${int(wholeRate)} pages/s, ${ratio(wholeRate, mutoolRate)}` : '—',
            `${(f.pages / f.first.seconds).toFixed(1)} pages/s`,
            `${kib(f.mutool[0]!.bytes / f.pages)} KiB/page SVG`,
            `${pending ? `${kib(output.readableBytes / f.pages)} → ` : ''}${kib(output.bytes / f.pages)} KiB/page${output.webp > 0 ? ` (${output.webp} WebP)` : ''}`,
            `${mib(f.peakAfter)} MiB`,
          ];
        }),
      ),
    );
    console.log('\n- pages/s from the median wall time of a whole document; "first run" includes starting the threads');
    console.log(
      "  (MuPDF's WASM compiled in each) for the first document; the peak RSS is the engine process's VmHWM after",
    );
    console.log(
      '  that document\'s runs (it only grows). "our output" with images left as stored: as converted → after the job.',
    );
    if (options.positionsRounds > 0)
      await positionsShare(
        engine,
        documents.filter((document) => document.text),
        options.positionsRounds,
        dir,
      );
    await pageWeights();
  } finally {
    await engine?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
