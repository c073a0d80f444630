import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import * as mupdf from 'mupdf';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDocumentConverter,
  type ConversionProgress,
  type ConversionRequest,
  type ConversionResult,
  type DocumentConverter,
} from '../../../backend/platform/convert/converter';

import { textAsXhtml } from '../../../backend/platform/convert/text';
import { conversionFailure } from './conversion-failure';
import { BODY_WORD } from '../../fixtures/documents/generate';
import {
  convertedFiles,
  encryptedPdf,
  passwordOfficeFile,
  fixture,
  fontCrowdPdf,
  formBombPdf,
  illustratedPageWith,
  illustratedPdf,
  pageGrey,
  patternBombPdf,
  repeatedPdf,
  scannedPdf,
  scatteredStrokes,
  textPdf,
} from '../../helpers/documents';
import { deflated, zip } from '../../helpers/zip';

// The conversion engine on real files: the committed fixtures, and big or hostile files made
// here. MuPDF formats only; LibreOffice and calibre are in external.test.ts.

let converter: DocumentConverter;
let dir: string;
let outputs = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'convert-engine-'));
  converter = createDocumentConverter({ workers: 2, workDir: join(dir, 'work') });
});
afterAll(async () => {
  await converter.close();
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, data: Buffer | string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, data);
  return path;
}

function convert(
  sourcePath: string,
  ext: string,
  options: Partial<ConversionRequest> = {},
): Promise<ConversionResult & { outDir: string }> {
  const outDir = join(dir, `out-${++outputs}`);
  return converter.convertDocument({ sourcePath, ext, outDir, ...options }).then((result) => ({ ...result, outDir }));
}

/** A bad input fails that document only: the next conversion on the same engine succeeds. */
async function stillConverts(): Promise<void> {
  const result = await convert(fixture('scanned.pdf'), 'pdf');
  expect(result.pages).toBe(1);
}

/** Milliseconds of CPU the process spends in the next second. */
async function cpuInASecond(): Promise<number> {
  const cpu = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const { user, system } = process.cpuUsage(cpu);
  return (user + system) / 1000;
}

/**
 * Nothing of a document whose thread was ended is left: no scratch folder, no thread still busy
 * with it (it would keep a core busy, every second: 578 ms of CPU in 1 s; a busy second of the
 * process's own, 587 ms once in a run of this whole file, passes), and the pool converts on both
 * threads.
 */
async function nothingLeftRunning(): Promise<void> {
  const scratch = (await readdir(join(dir, 'work'))).filter((name) => /^(job|positions)-/.test(name));
  expect(scratch).toEqual([]);
  const seconds = [await cpuInASecond()];
  while (seconds.at(-1)! >= 400 && seconds.length < 3) seconds.push(await cpuInASecond());
  expect(seconds.at(-1)).toBeLessThan(400);
  const [first, second] = await Promise.all([
    convert(fixture('chinese.pdf'), 'pdf'),
    convert(fixture('scanned.pdf'), 'pdf'),
  ]);
  expect([first.pages, second.pages]).toEqual([3, 1]);
}

/** The page parsed by librsvg (sharp) as an SVG of the page's size in points (rounded). */
async function expectSvgPage(outDir: string, file: string, width: number, height: number): Promise<void> {
  const svg = gunzipSync(await readFile(join(outDir, file)));
  expect(svg.subarray(0, 4).toString()).toBe('<svg');
  const viewBox = /<svg [^>]*viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg.toString('utf8', 0, 1000));
  expect(viewBox?.slice(1).map((n) => Math.round(Number(n)))).toEqual([width, height]);
  const parsed = await sharp(svg).metadata();
  expect(parsed.format).toBe('svg');
  expect(Math.abs(parsed.width - width)).toBeLessThanOrEqual(1);
  expect(Math.abs(parsed.height - height)).toBeLessThanOrEqual(1);
}

describe('a PDF', () => {
  let result: Awaited<ReturnType<typeof convert>>;
  const progress: ConversionProgress[] = [];

  beforeAll(async () => {
    result = await convert(fixture('chinese.pdf'), 'pdf', { onProgress: (p) => progress.push(p) });
  }, 60_000);

  it('gives the page count, the first page size in points, and MuPDF as the converter', () => {
    expect(result).toMatchObject({ pages: 3, width: 595, height: 842, converter: 'mupdf', pdfFile: null });
  });

  it('writes every page as gzip-compressed SVG with the page as viewBox', async () => {
    expect(result.pageFiles.map((page) => page.file)).toEqual(['1.gzip.svg', '2.gzip.svg', '3.gzip.svg']);
    for (const page of result.pageFiles) {
      expect(page.kind).toBe('svg-gzip');
      expect(page.bytes).toBeGreaterThan(1000);
      await expectSvgPage(result.outDir, page.file, 595, 842);
    }
  });

  it('draws the text as glyph paths, not as text naming a font', async () => {
    const svg = gunzipSync(await readFile(join(result.outDir, '2.gzip.svg'))).toString();
    expect(svg).toContain('<path id="font_');
    expect(svg).not.toContain('font-family');
  });

  it('extracts the text of every page, normalised, with the word only page 2 holds', () => {
    expect(result.text).toContain(BODY_WORD);
    expect(result.text).toContain('城市图书馆的一天');
    expect(result.text).toContain('阅读改变生活');
    expect(result.text).toContain('几位等候的读者'); // a line break in the PDF cut this one
    expect(result.text).not.toMatch(/[Ａ-Ｚａ-ｚ０-９]/u); // full-width letters and digits folded
    expect(result.text).toMatch(/[，。]/u); // full-width punctuation kept as Chinese is written
  });

  it("keeps the pages' texts apart, a form feed between them: the word only page 2 holds is in the second", () => {
    const pages = result.text.split('\f');
    expect(pages).toHaveLength(3);
    expect(pages[1]).toContain(BODY_WORD);
    expect(pages[0]! + pages[2]!).not.toContain(BODY_WORD);
  });

  it('makes the covers: PNG letter-boxed to 210×297, WebP at twice that, the page at 72 dpi as a big PNG', async () => {
    expect(result.cover).toEqual({ png: 'cover.png', webp: 'cover.webp', bigPng: 'cover.big.png' });
    expect(await sharp(join(result.outDir, 'cover.png')).metadata()).toMatchObject({
      format: 'png',
      width: 210,
      height: 297,
    });
    expect(await sharp(join(result.outDir, 'cover.webp')).metadata()).toMatchObject({
      format: 'webp',
      width: 420,
      height: 594,
    });
    expect(await sharp(join(result.outDir, 'cover.big.png')).metadata()).toMatchObject({
      format: 'png',
      width: 596,
      height: 842,
    }); // 595.3 × 841.9 points
  });

  it("writes nothing else into the output directory (the pages, their characters' positions, the covers)", async () => {
    expect(result.positionFiles).toEqual(['1.pos.gz', '2.pos.gz', '3.pos.gz']);
    expect((await readdir(result.outDir)).sort()).toEqual(convertedFiles(3));
  });

  it('reports progress page by page', () => {
    expect(progress).toEqual([1, 2, 3].map((done) => ({ done, total: 3 })));
  });

  it("converted without positions, stores no characters' positions, and the same pages and text", async () => {
    const bare = await convert(fixture('chinese.pdf'), 'pdf', { positions: false });
    expect(bare.positionFiles).toEqual([]);
    expect((await readdir(bare.outDir)).sort()).toEqual(convertedFiles(3).filter((name) => !name.endsWith('.pos.gz')));
    expect(bare.pageFiles.map((page) => page.file)).toEqual(result.pageFiles.map((page) => page.file));
    expect(bare.text).toBe(result.text);
    // with them (the default, as the site converts): one file per page, each a page's lines of text
    const stored = JSON.parse(gunzipSync(await readFile(join(result.outDir, '2.pos.gz'))).toString('utf8')) as {
      l: [number, number, number, number, string, number[]][];
    };
    expect(stored.l.map((line) => line[4]).join('')).toContain(BODY_WORD);
  });
});

describe('the big cover', () => {
  it("is the page at 72 dpi as MOREDOC's, and a page larger than 840 × 1188 points is fitted into that", async () => {
    const a5 = await convert(await write('a5.pdf', textPdf(1, [420, 595])), 'pdf');
    expect(await sharp(join(a5.outDir, 'cover.big.png')).metadata()).toMatchObject({ width: 420, height: 595 });
    const a1 = await convert(await write('a1.pdf', textPdf(1, [1684, 2384])), 'pdf');
    expect(await sharp(join(a1.outDir, 'cover.big.png')).metadata()).toMatchObject({ width: 840, height: 1188 });
    expect(await sharp(join(a1.outDir, 'cover.png')).metadata()).toMatchObject({ width: 210, height: 297 });
  });

  it("of a page smaller than the WebP cover's box is still 72 dpi, and the WebP cover is drawn at its own size, not enlarged", async () => {
    const card = textPdf(1, [252, 144]);
    const result = await convert(await write('card.pdf', card), 'pdf');
    expect(await sharp(join(result.outDir, 'cover.big.png')).metadata()).toMatchObject({ width: 252, height: 144 });
    const webp = await sharp(join(result.outDir, 'cover.webp')).greyscale().raw().toBuffer({ resolveWithObject: true });
    expect([webp.info.width, webp.info.height]).toEqual([420, 594]);
    // MuPDF's drawing at the WebP's scale, letter-boxed the same way
    const drawn = pageGrey(mupdf.Document.openDocument(card, 'application/pdf').loadPage(0), 420 / 252);
    const theirs = await sharp(drawn.pixels, { raw: { width: drawn.width, height: drawn.height, channels: 1 } })
      .resize(420, 594, { fit: 'contain', background: '#fff' })
      .greyscale()
      .raw()
      .toBuffer();
    let sum = 0;
    for (let i = 0; i < theirs.length; i++) sum += Math.abs(webp.data[i]! - theirs[i]!);
    // 0.12 measured; the 72 dpi drawing enlarged differs by 1.3
    expect(sum / theirs.length).toBeLessThan(0.6);
  });
});

describe('scanned pages', () => {
  it('keeps a small scan as SVG (its JPEG is smaller than a WebP of the page), its picture to be brought to reading resolution', async () => {
    const result = await convert(fixture('scanned.pdf'), 'pdf');
    expect(result.pageFiles).toEqual([
      expect.objectContaining({ n: 1, file: '1.svg', kind: 'svg', pending: { photos: true } }),
    ]);
    expect(result.text).toBe('');
  });

  it('keeps a 200 dpi scan page as the JPEG its PDF stores (no decoding), then makes it a WebP at 150 dpi on a thread', async () => {
    const pdf = await scannedPdf(2, 200);
    const result = await convert(await write('scan.pdf', pdf), 'pdf');
    const target = { width: 1240, height: 1754, smooth: false };
    expect(result.pageFiles.map((page) => [page.file, page.kind, page.pending])).toEqual([
      ['1.jpg', 'jpeg', { scan: target }],
      ['2.jpg', 'jpeg', { scan: target }],
    ]);
    for (const page of result.pageFiles) {
      const jpeg = await readFile(join(result.outDir, page.file));
      // the PDF's own stream, found in the PDF byte for byte
      expect(pdf.includes(jpeg)).toBe(true);
      expect(await sharp(jpeg).metadata()).toMatchObject({ format: 'jpeg', width: 1654, height: 2339 });
      const lighter = await converter.pageAtReadingResolution(page.n, jpeg, page.pending!);
      expect(lighter).toMatchObject({ file: `${page.n}.webp`, kind: 'webp' });
      const webp = lighter!.bytes;
      const image = await sharp(webp).metadata();
      expect(image).toMatchObject({ format: 'webp', width: 1240, height: 1754 });
      expect(webp.length).toBeLessThan(Math.min(128 * 1024, jpeg.length / 4));
    }
    // The covers show page 1 as MuPDF draws it at 72 dpi (it decodes the JPEG at half its size for it).
    const big = await sharp(join(result.outDir, 'cover.big.png'))
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([big.info.width, big.info.height]).toEqual([595, 842]);
    const drawn = pageGrey(mupdf.Document.openDocument(pdf, 'application/pdf').loadPage(0), 1);
    // compared at a quarter of the size, where the scanner grain averages out
    const quarter = (image: Sharp) => image.resize(210, 297, { fit: 'fill' }).greyscale().raw().toBuffer();
    const ours = await quarter(sharp(big.data, { raw: big.info }));
    const theirs = await quarter(
      sharp(drawn.pixels, { raw: { width: drawn.width, height: drawn.height, channels: 1 } }),
    );
    let sum = 0;
    for (let i = 0; i < ours.length; i++) sum += Math.abs(ours[i]! - theirs[i]!);
    // 0.5 measured; a page upside down differs by several grey levels
    expect(sum / ours.length).toBeLessThan(2);
    expect(await sharp(join(result.outDir, 'cover.png')).metadata()).toMatchObject({ width: 210, height: 297 });
  }, 60_000);
});

describe('pages with photos', () => {
  it('stay vector with their photos as the PDF stores them, then each brought to 150 dpi of its drawn size as WebP inside the SVG', async () => {
    // Text and a 1600 × 1067 photo (about 290 KiB of JPEG) on each page: as MuPDF writes it the
    // SVG passes the 128 KiB limit, and the page became a WebP of the whole page, text included.
    const result = await convert(await write('illustrated.pdf', await illustratedPdf(3)), 'pdf');
    expect(result.pageFiles.map((page) => [page.file, page.kind, page.pending])).toEqual([
      ['1.svg', 'svg', { photos: true }],
      ['2.svg', 'svg', { photos: true }],
      ['3.svg', 'svg', { photos: true }],
    ]);
    expect(result.text).toContain(BODY_WORD);
    for (const page of result.pageFiles) {
      // readable at once: the page as MuPDF drew it, the photo as the PDF has it
      const before = (await readFile(join(result.outDir, page.file))).toString('latin1');
      expect(await sharp(Buffer.from(before, 'latin1')).metadata()).toMatchObject({
        format: 'svg',
        width: 595,
        height: 842,
      });
      expect(before).toContain('<use data-text=');
      const jpeg = Buffer.from(/data:image\/jpeg;base64,([^"]*)"/.exec(before)![1]!, 'base64');
      expect(await sharp(jpeg).metadata()).toMatchObject({ format: 'jpeg', width: 1600, height: 1067 });
      // then lighter: the same page, gzip-compressed, its photo at reading resolution
      const { file, bytes: lighter } = (await converter.pageAtReadingResolution(
        page.n,
        Buffer.from(before, 'latin1'),
        page.pending!,
      ))!;
      expect(file).toBe(`${page.n}.gzip.svg`);
      expect(lighter.length).toBeLessThan(Math.min(160 * 1024, before.length / 3));
      const svg = gunzipSync(lighter).toString('latin1');
      expect(svg).not.toContain('data:image/jpeg');
      const photo = Buffer.from(/data:image\/webp;base64,([^"]*)"/.exec(svg)![1]!, 'base64');
      expect(await sharp(photo).metadata()).toMatchObject({ format: 'webp', width: 1000, height: 667 });
      expect(svg.replace(/data:image\/webp;base64,[^"]*"/, '')).toBe(
        before.replace(/data:image\/jpeg;base64,[^"]*"/, ''),
      );
    }
  }, 60_000);

  it('are finished during the conversion when the rest of the page is heavy: no plain SVG is left waiting', async () => {
    // The illustrated page with 6,000 short strokes at random places over it (the scan check's
    // device left their paths to the garbage collector, which freed them after their display list
    // and crashed the thread: scan-page.ts). Without its photo the SVG is still past 128 KiB
    // gzip-compressed (147 KiB), so the conversion shrinks the photo itself and keeps the lighter
    // of the gzip SVG and the page's WebP.
    const heavy = await illustratedPageWith(scatteredStrokes(6_000));
    const result = await convert(await write('heavy-illustrated.pdf', heavy), 'pdf');
    expect(result.pageFiles).toHaveLength(1);
    const [only] = result.pageFiles;
    expect(only!.pending).toBeUndefined();
    expect(['svg-gzip', 'webp']).toContain(only!.kind);
    expect((await readdir(result.outDir)).filter((name) => name.startsWith('1.') && name !== '1.pos.gz')).toEqual([
      only!.file,
    ]);
  }, 60_000);
});

describe('formats MuPDF opens itself', () => {
  it('EPUB: laid out on A5 pages, the text of every chapter', async () => {
    const result = await convert(fixture('chinese.epub'), 'epub');
    expect(result).toMatchObject({ converter: 'mupdf', width: 420, height: 595, pdfFile: null });
    expect(result.pages).toBeGreaterThanOrEqual(3);
    expect(result.text).toContain(BODY_WORD);
    await expectSvgPage(result.outDir, '1.gzip.svg', 420, 595);
  });

  it('EPUB: SVG, inline or in a file, and WebP images are drawn, never as the text "[image]"', async () => {
    // MuPDF's npm build has no SVG or WebP handler: each of these pages was the text "[image]" (epub-svg.ts).
    const colours = { red: [200, 30, 30], blue: [30, 60, 200], green: [30, 160, 60], yellow: [230, 200, 20] } as const;
    const png = (colour: keyof typeof colours) =>
      sharp({ create: { width: 300, height: 400, channels: 3, background: rgb(colour) } });
    const rgb = (colour: keyof typeof colours) => {
      const [r, g, b] = colours[colour];
      return { r, g, b };
    };
    const pages = [
      // an inline svg holding an image, its namespaces declared on the page (<html xmlns:svg>), the href in single quotes
      `<div><svg:svg width="100%" height="100%" viewBox="0 0 300 400"><svg:image width="300" height="400" xlink:href='images/cover.png'/></svg:svg></div>`,
      // an inline svg drawn without an image
      `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="400"><rect width="300" height="400" fill="rgb(${colours.blue.join(',')})"/></svg>`,
      `<p><img src="images/photo.webp" alt="照片"/></p>`,
      `<p><img src="images/drawing.svg" alt=""/></p>`,
      `<p>${BODY_WORD}在最后一页。</p>`,
    ];
    const drawing = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="400"><rect width="300" height="400" fill="rgb(${colours.yellow.join(',')})"/></svg>`;
    const epub = zip([
      { name: 'mimetype', data: 'application/epub+zip', store: true },
      {
        name: 'META-INF/container.xml',
        data: '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
      },
      {
        name: 'OEBPS/content.opf',
        data:
          '<?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>图</dc:title><dc:identifier id="id">svg-pages</dc:identifier></metadata><manifest>' +
          pages
            .map((_, i) => `<item id="p${i + 1}" href="p${i + 1}.xhtml" media-type="application/xhtml+xml"/>`)
            .join('') +
          '</manifest><spine>' +
          pages.map((_, i) => `<itemref idref="p${i + 1}"/>`).join('') +
          '</spine></package>',
      },
      ...pages.map((body, i) => ({
        name: `OEBPS/p${i + 1}.xhtml`,
        data: `<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:svg="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><head><title>${i + 1}</title></head><body>${body}</body></html>`,
      })),
      { name: 'OEBPS/images/cover.png', data: await png('red').png().toBuffer() },
      { name: 'OEBPS/images/photo.webp', data: await png('green').webp({ lossless: true }).toBuffer() },
      { name: 'OEBPS/images/drawing.svg', data: drawing },
    ]);
    const result = await convert(await write('svg-pages.epub', epub), 'epub');
    expect(result.pages).toBe(5);
    expect(result.text.split('\f')).toEqual(['', '', '', '', `${BODY_WORD}在最后一页。`]);
    /** The share of page n's pixels (its SVG drawn by librsvg) within 40 of the colour in every channel. */
    const shareOf = async (n: number, colour: keyof typeof colours) => {
      const page = result.pageFiles[n - 1]!;
      const bytes = await readFile(join(result.outDir, page.file));
      const { data, info } = await sharp(page.kind === 'svg-gzip' ? gunzipSync(bytes) : bytes)
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      let near = 0;
      for (let i = 0; i < data.length; i += 3)
        if (colours[colour].every((value, c) => Math.abs(data[i + c]! - value) <= 40)) near++;
      return near / (info.width * info.height);
    };
    // The cover as wide as the page's text (348 × 464 pt between 36 pt margins: 65 %); the inline drawing 300 px wide,
    // MuPDF's pixel a point (300 × 400 pt: 48 %); the images of 300 × 400 pixels at 0.75 pt (225 × 300 pt: 27 %).
    expect(await shareOf(1, 'red')).toBeGreaterThan(0.6);
    expect(await shareOf(2, 'blue')).toBeGreaterThan(0.4);
    expect(await shareOf(3, 'green')).toBeGreaterThan(0.25);
    expect(await shareOf(4, 'yellow')).toBeGreaterThan(0.25);
  });

  it('EPUB: an SVG file past 32 MiB is not read into memory to be drawn, and the book converts', async () => {
    // a drawing librsvg reads, past the limit by comments of 1 MiB (libxml2 refuses a single one over 10 MB)
    const comment = Buffer.from(`<!-- ${'x'.repeat(1024 ** 2)} -->`);
    const svg = Buffer.concat([
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="400">'),
      ...Array.from({ length: 33 }, () => comment),
      Buffer.from('<rect width="300" height="400" fill="blue"/></svg>'),
    ]);
    const epub = zip([
      { name: 'mimetype', data: 'application/epub+zip', store: true },
      {
        name: 'META-INF/container.xml',
        data: '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
      },
      {
        name: 'content.opf',
        data: '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="2.0"><manifest><item id="p" href="p.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="p"/></spine></package>',
      },
      {
        name: 'p.xhtml',
        data: `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><p>${BODY_WORD}</p><p><img src="big.svg" alt=""/></p></body></html>`,
      },
      { name: 'big.svg', data: deflated(svg) },
    ]);
    const result = await convert(await write('big-svg.epub', epub), 'epub');
    // left to MuPDF, which has no SVG handler
    expect(result.text.replace(/\s+/g, '')).toBe(`${BODY_WORD}[image]`);
  });

  it('MOBI (version 6)', async () => {
    const result = await convert(fixture('chinese.mobi'), 'mobi');
    expect(result.converter).toBe('mupdf');
    expect(result.text).toContain(BODY_WORD);
  });

  it('plain text in UTF-8 and in GBK', async () => {
    const utf8 = await convert(fixture('chinese.txt'), 'txt');
    expect(utf8).toMatchObject({ converter: 'mupdf', width: 420, height: 595 });
    expect(utf8.text).toContain(BODY_WORD);
    const gbk = await convert(await write('gbk.txt', Buffer.from('b2e2cad4cec4b1be0d0a'.repeat(20), 'hex')), 'txt');
    expect(gbk.text).toContain('测试文本');
  });

  it('plain text in Big5 and in UTF-16 without a byte-order mark: the characters written', async () => {
    // Python: ('第一章 燈塔\n這是一個繁體中文文本測試檔案。\n' * 50).encode('big5')
    const big5 = await convert(
      await write(
        'big5.txt',
        Buffer.from(
          'b2c4a440b3b920bf4fb6f00ab36fac4fa440add3c163c5e9a4a4a4e5a4e5a5bbb4fab8d5c0c9aed7a1430a'.repeat(50),
          'hex',
        ),
      ),
      'txt',
    );
    expect(big5.text.startsWith('第一章燈塔這是一個繁體中文文本測試檔案。\n第一章燈塔這是')).toBe(true);
    const utf16 = Buffer.from('第一章 灯塔\r\nThe lighthouse.\r\n这是一个测试。\r\n'.repeat(50), 'utf16le');
    const utf16le = await convert(await write('utf16le.txt', utf16), 'txt');
    expect(utf16le.text.startsWith('第一章灯塔\nThe lighthouse.\n这是一个测试。\n')).toBe(true);
  });

  it('plain text in UTF-16 without a byte-order mark of Chinese alone (no ASCII: no zero byte), little- and big-endian', async () => {
    const sentence = '第三章：灯塔。这是两个没有英文字母的测试，城市图书馆的大门还关着。';
    const chinese = sentence.repeat(40);
    const le = Buffer.from(chinese, 'utf16le');
    expect(le.includes(0)).toBe(false);
    for (const [name, bytes] of [
      ['utf16le-chinese.txt', le],
      ['utf16be-chinese.txt', Buffer.from(le).swap16()],
    ] as const) {
      const result = await convert(await write(name, bytes), 'txt');
      // MuPDF lays the one long line out over many lines: the characters are compared without the breaks
      expect(result.text.replace(/\s+/gu, '').startsWith(sentence.repeat(3))).toBe(true);
    }
  });

  it('a .txt that is binary data says so', async () => {
    const nul = Buffer.concat([Buffer.from('一段文字'), Buffer.alloc(64), Buffer.from([0x13, 0x37, 0x00, 0x80])]);
    const error = await conversionFailure(convert(await write('nul.txt', nul), 'txt'));
    expect(error).toMatchObject({ reason: 'content-mismatch', message: '文件不是文本文件，无法转换' });
  });

  it('plain text: one text per page as MuPDF lays the file out (a form feed in the file makes no page)', async () => {
    const lines = Array.from(
      { length: 150 },
      (_, i) => `第${i + 1}行：城市图书馆的读者安静地读书，窗外的树影慢慢移动。`,
    );
    lines[40] = `\f${lines[40]}`;
    lines[120] = '第121行：这一行写着暗号玄武湖。';
    const source = lines.join('\n');
    const result = await convert(await write('long.txt', source), 'txt');
    const pages = result.text.split('\f');
    expect(result.pages).toBeGreaterThan(3);
    expect(pages).toHaveLength(result.pages);
    // MuPDF's layout of the same text on the engine's A5 pages, 12 pt
    const laidOut = mupdf.Document.openDocument(Buffer.from(textAsXhtml(source)), 'document.xhtml');
    laidOut.layout(420, 595, 12);
    expect(laidOut.countPages()).toBe(result.pages);
    const pageOf = (texts: string[]) => texts.findIndex((text) => text.includes('暗号玄武湖'));
    const expected = pageOf(
      Array.from({ length: laidOut.countPages() }, (_, n) => laidOut.loadPage(n).toStructuredText('').asText()),
    );
    expect(expected).toBeGreaterThan(0);
    expect(pageOf(pages)).toBe(expected);
  });

  it('Markdown and text keep every line as written: Chinese headings, lists, tables and entities', async () => {
    const source = [
      '# 学习笔记',
      '',
      '## 第一节',
      '',
      '- 要点一：**重要**内容',
      '',
      '| 表头 | 值 |',
      '|---|---|',
      '',
      '## 第二节',
      '',
      '结尾暗号青龙潭 &amp; <b>',
    ].join('\n');
    const result = await convert(await write('笔记.md', source), 'md');
    expect(result.pages).toBe(1);
    for (const line of ['第一节', '要点一：**重要**内容', '| 表头 | 值 |', '第二节', '结尾暗号青龙潭 &amp; <b>'])
      expect(result.text).toContain(line);
    expect((await convert(await write('notes.txt', source), 'txt')).text).toContain('结尾暗号青龙潭 &amp; <b>');
  });

  it('comic book archives and images, WebP included', async () => {
    const page = (background: string) => sharp({ create: { width: 300, height: 400, channels: 3, background } });
    const comic = zip([
      { name: '001.png', data: await page('#cc3333').png().toBuffer() },
      { name: '002.jpg', data: await page('#3333cc').jpeg().toBuffer() },
    ]);
    expect(await convert(await write('comic.cbz', comic), 'cbz')).toMatchObject({ pages: 2, width: 300, height: 400 });
    const webp = await convert(await write('photo.webp', await page('#33cc33').webp().toBuffer()), 'webp');
    expect(webp).toMatchObject({ pages: 1, width: 300, height: 400, converter: 'mupdf' });
    expect(await sharp(join(webp.outDir, 'cover.png')).metadata()).toMatchObject({ width: 210, height: 297 });
  });
});

describe('bad input fails that document with a Chinese reason, and the engine keeps working', () => {
  it('a zero-byte file', async () => {
    const error = await conversionFailure(convert(await write('empty.pdf', ''), 'pdf'));
    expect(error).toMatchObject({ reason: 'empty-file', message: '文件为空，无法转换' });
    await stillConverts();
  });

  it('a corrupt PDF', async () => {
    const garbage = Buffer.concat([
      Buffer.from('%PDF-1.7\n'),
      Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 251)),
    ]);
    const error = await conversionFailure(convert(await write('corrupt.pdf', garbage), 'pdf'));
    expect(error).toMatchObject({ reason: 'corrupt', message: '文档已损坏或无法解析，无法转换' });
    await stillConverts();
  });

  it('a PDF cut short: refused, naming the first page whose content is missing, not published with blank pages', async () => {
    const whole = textPdf(5);
    // Cut where the third page's object begins (MuPDF writes each page after its content stream).
    const third = new mupdf.PDFDocument(whole).findPage(2).asIndirect();
    const cut = whole.subarray(0, whole.indexOf(`\n${third} 0 obj`));
    const error = await conversionFailure(convert(await write('cut.pdf', cut), 'pdf'));
    expect(error).toMatchObject({
      reason: 'incomplete',
      message: '文件已损坏或不完整（第 3 页起内容缺失），请上传完整的文件',
    });
    // The audit's case: `head -c 3000` of a Chinese PDF keeps its page tree, and no page.
    const head = repeatedPdf(3).subarray(0, 3000);
    const headError = await conversionFailure(convert(await write('head.pdf', head), 'pdf'));
    expect(headError.message).toBe('文件已损坏或不完整（第 1 页起内容缺失），请上传完整的文件');
    await stillConverts();
  });

  it('a PDF whose cross-reference table is wrong but whose objects are whole: repaired by MuPDF and converted', async () => {
    const whole = textPdf(3);
    // A line added after the header moves every object: each offset of the table now misses.
    const shifted = Buffer.concat([whole.subarray(0, 9), Buffer.from('% edited\n'), whole.subarray(9)]);
    expect(new mupdf.PDFDocument(shifted).wasRepaired()).toBe(true);
    const result = await convert(await write('shifted.pdf', shifted), 'pdf');
    expect(result).toMatchObject({ pages: 3, width: 595, height: 842 });
    const pages = result.text.split('\f');
    expect(pages).toHaveLength(3);
    expect(pages[2]).toContain('Page 3 of 3');
  });

  it('a PDF that needs a password', async () => {
    const error = await conversionFailure(convert(await write('encrypted.pdf', encryptedPdf()), 'pdf'));
    expect(error).toMatchObject({ reason: 'encrypted', message: '文档已加密，无法转换' });
    await stillConverts();
  });

  it('an Office file that needs a password: said at once, without LibreOffice', async () => {
    for (const [name, kind] of [
      ['locked.docx', 'docx'],
      ['locked.doc', 'doc'],
      ['locked.xls', 'xls'],
    ] as const) {
      const error = await conversionFailure(convert(await write(name, passwordOfficeFile(kind)), kind));
      expect(error).toMatchObject({ reason: 'encrypted', message: '文档已加密，无法转换' });
    }
  });

  it('a .pdf that is a zip, and one that is text', async () => {
    const archive = await conversionFailure(
      convert(await write('archive.pdf', zip([{ name: 'a.txt', data: 'hello' }])), 'pdf'),
    );
    expect(archive).toMatchObject({ reason: 'content-mismatch', message: '文件内容与扩展名 .pdf 不符，无法转换' });
    const text = await conversionFailure(convert(await write('notes.pdf', '这不是 PDF 文件，只是一段文字。\n'), 'pdf'));
    expect(text.reason).toBe('content-mismatch');
    await stillConverts();
  });

  it('a zip bomb: entries that inflate past the limit (1 GiB by default)', async () => {
    const hundredMiB = deflated(Buffer.alloc(100 * 1024 * 1024));
    const bomb = zip([
      { name: 'mimetype', data: 'application/epub+zip', store: true },
      ...Array.from({ length: 11 }, (_, i) => ({ name: `OEBPS/${i}.xhtml`, data: hundredMiB })),
    ]);
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const error = await conversionFailure(convert(await write('bomb.epub', bomb), 'epub'));
    expect(error).toMatchObject({ reason: 'archive-too-large', message: '文档解压后过大或包含的文件过多，已拒绝转换' });
    await stillConverts();
  });

  it('a zip whose header hides the size of what it holds', async () => {
    const liar = zip([
      { name: 'word/document.xml', data: deflated(Buffer.alloc(64 * 1024 * 1024)), declaredSize: 1024 },
    ]);
    const error = await conversionFailure(convert(await write('liar.docx', liar), 'docx'));
    expect(error.reason).toBe('archive-too-large');
    expect(error.detail).toContain('declared size');
    await stillConverts();
  });

  it('a zip with more entries than allowed (10,000 by default)', async () => {
    const crowded = zip(Array.from({ length: 10_001 }, (_, i) => ({ name: `${i}.png`, data: '' })));
    const error = await conversionFailure(convert(await write('crowded.cbz', crowded), 'cbz'));
    expect(error.reason).toBe('archive-too-large');
    await stillConverts();
  });

  it('a page that draws for ever (a pattern of 0.02 pt tiles on a 14400 pt page): its thread is ended after the page budget, the conversions beside it go on', async () => {
    const bomb = await write('pattern-bomb.pdf', patternBombPdf());
    // One thread each: the bomb's, and the other document's, converting at the same time.
    const beside = convert(fixture('chinese.pdf'), 'pdf');
    const error = await conversionFailure(convert(bomb, 'pdf', { limits: { pageTimeoutMs: 1000 } }));
    expect(error).toMatchObject({
      reason: 'page-too-complex',
      message: '页面过于复杂，无法在限定时间内转换（第 1 页）',
    });
    expect((await beside).pages).toBe(3);
    await nothingLeftRunning();
  }, 20_000);

  it('a document that takes minutes to open (a repaired PDF whose 1,000 pages share 10,000 fonts, each checked): its thread is ended after the step budget, the conversions beside it go on', async () => {
    const crowd = await write('font-crowd.pdf', fontCrowdPdf());
    const beside = convert(fixture('chinese.pdf'), 'pdf');
    const error = await conversionFailure(convert(crowd, 'pdf', { limits: { pageTimeoutMs: 1000 } }));
    expect(error).toMatchObject({
      reason: 'document-too-complex',
      message: '文档结构过于复杂，无法在限定时间内打开',
    });
    expect((await beside).pages).toBe(3);
    await nothingLeftRunning();
  }, 20_000);

  it('the positions pass (a document converted before they were kept) gives each page the step budget too', async () => {
    const bomb = await write('form-bomb.pdf', formBombPdf());
    const outDir = join(dir, `out-${++outputs}`);
    const error = await conversionFailure(
      converter.extractPositions({ sourcePath: bomb, ext: 'pdf', outDir, limits: { pageTimeoutMs: 1000 } }),
    );
    expect(error).toMatchObject({
      reason: 'page-too-complex',
      message: '页面过于复杂，无法在限定时间内转换（第 1 页）',
    });
    await nothingLeftRunning();
  }, 20_000);

  it('more pages than the limit, an unsupported format, UMD', async () => {
    const pages = await conversionFailure(convert(fixture('chinese.pdf'), 'pdf', { limits: { maxPages: 2 } }));
    expect(pages).toMatchObject({ reason: 'too-many-pages', message: '文档共 3 页，超出 2 页的限制，无法转换' });
    const xps = await conversionFailure(
      convert(await write('a.xps', zip([{ name: 'FixedDocSeq.fdseq', data: '<x/>' }])), 'xps'),
    );
    expect(xps.reason).toBe('unsupported-format');
    const umd = await conversionFailure(
      convert(await write('book.umd', Buffer.from([0x89, 0x9b, 0x9a, 0xde, 0x23])), 'umd'),
    );
    expect(umd.message).toBe('不支持转换 UMD 格式的电子书');
    await stillConverts();
  });
});

describe('a 2,000-page PDF', () => {
  let big: string;
  /** Long enough for a stop to fall mid-document (3 × 23 ms after the first page at most), opened in a tenth of the time. */
  let long: string;
  beforeAll(async () => {
    big = await write('big.pdf', textPdf(2000));
    long = await write('long.pdf', textPdf(200));
  }, 60_000);

  it('converts every page, with steady progress and bounded memory', async () => {
    const progress: number[] = [];
    const start = process.memoryUsage().rss;
    let peak = start;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 50);
    try {
      const result = await convert(big, 'pdf', { onProgress: (p) => progress.push(p.done) });
      expect(result.pages).toBe(2000);
      expect(result.pageFiles.map((page) => page.n)).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1));
      expect((await readdir(result.outDir)).filter((name) => name.endsWith('.gzip.svg'))).toHaveLength(2000);
      await expectSvgPage(result.outDir, '2000.gzip.svg', 595, 842);
      expect(result.text).toContain('Page 2000 of 2000');
    } finally {
      clearInterval(sampler);
    }
    expect(progress).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1));
    // The pages stream to disk: the process grows by the worker threads, not by the document.
    expect(peak - start).toBeLessThan(768 * 1024 * 1024);
  }, 180_000);

  it('stops when the caller aborts, and the engine converts the next document', async () => {
    const controller = new AbortController();
    const error = await conversionFailure(
      convert(big, 'pdf', { signal: controller.signal, onProgress: () => controller.abort() }),
    );
    expect(error).toMatchObject({ reason: 'aborted', message: '文档转换已取消' });
    await stillConverts();
  }, 60_000);

  it('stops again and again mid-document without ending the process: threads are asked to stop between pages', async () => {
    // Ending a thread at once could catch it inside zlib or libvips, and Node then aborted the
    // whole process ("close before init"); asked to stop, the thread ends its page first.
    for (let round = 0; round < 24; round++) {
      const controller = new AbortController();
      // At once after a page, and at moments that fall anywhere within one.
      const stop = round % 2 ? () => setTimeout(() => controller.abort(), 3 * round) : () => controller.abort();
      let first = true;
      const onProgress = () => {
        if (first) stop();
        first = false;
      };
      const error = await conversionFailure(convert(long, 'pdf', { signal: controller.signal, onProgress }));
      expect(error.reason).toBe('aborted');
    }
    await stillConverts();
  }, 120_000);

  it('stops at the time limit', async () => {
    const error = await conversionFailure(convert(big, 'pdf', { limits: { timeoutMs: 300 } }));
    expect(error).toMatchObject({ reason: 'timeout', message: '文档转换超时' });
    await stillConverts();
  }, 60_000);
});
