import * as CFB from 'cfb';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import * as mupdf from 'mupdf';
import sharp from 'sharp';

// Documents made at test (and benchmark) time, too big or too hostile to commit, built from
// the committed fixtures of tests/fixtures/documents/ with MuPDF and sharp.

export const FIXTURES = fileURLToPath(new URL('../fixtures/documents/', import.meta.url));

export const fixture = (name: string) => `${FIXTURES}${name}`;

function save(document: mupdf.PDFDocument, options = 'compress'): Buffer {
  return Buffer.from(document.saveToBuffer(options).asUint8Array());
}

type PageSize = readonly [number, number];

/**
 * `pages` pages (A4 unless `sizes` says, in points, for all pages or page by page) of Latin text in a base-14 font
 * ("Page n of N"), quick to make and to render.
 */
export function textPdf(pages: number, sizes: PageSize | ((page: number) => PageSize) = [595, 842]): Buffer {
  const document = new mupdf.PDFDocument();
  const font = document.addSimpleFont(new mupdf.Font('Times-Roman'));
  const resources = document.addObject({ Font: { F1: font } });
  for (let n = 1; n <= pages; n++) {
    const size = typeof sizes === 'function' ? sizes(n) : sizes;
    const lines = [`Page ${n} of ${pages}`, 'The quick brown fox jumps over the lazy dog.', `Line three of page ${n}.`];
    const content = lines
      .map((line, i) => `BT /F1 ${i === 0 ? 24 : 12} Tf 72 ${size[1] - 82 - i * 30} Td (${line}) Tj ET`)
      .join('\n');
    document.insertPage(-1, document.addPage([0, 0, size[0], size[1]], 0, resources, content));
  }
  return save(document);
}

/** A4 pages of Latin text in a base-14 font, each page its own lines (none for an empty page). */
export function linesPdf(pages: readonly (readonly string[])[]): Buffer {
  const document = new mupdf.PDFDocument();
  const font = document.addSimpleFont(new mupdf.Font('Times-Roman'));
  const resources = document.addObject({ Font: { F1: font } });
  for (const lines of pages) {
    const content = lines.map((line, i) => `BT /F1 12 Tf 72 ${760 - i * 20} Td (${line}) Tj ET`).join('\n');
    document.insertPage(-1, document.addPage([0, 0, 595, 842], 0, resources, content));
  }
  return save(document);
}

/** `pages` pages copied in turn from a committed PDF (the Chinese LibreOffice fixture by default). */
export function repeatedPdf(pages: number, source = fixture('chinese.pdf')): Buffer {
  const from = new mupdf.PDFDocument(readFileSync(source));
  const document = new mupdf.PDFDocument();
  // One graft map: the copies share the source's fonts instead of embedding them once per page.
  const graft = document.newGraftMap();
  const count = from.countPages();
  for (let n = 0; n < pages; n++) graft.graftPage(-1, from, n % count);
  return save(document);
}

export interface GreyImage {
  /** one byte a pixel, row after row */
  pixels: Buffer;
  width: number;
  height: number;
}

/** MuPDF's rendering of `page` scaled by `scale`, in grey levels. */
export function pageGrey(page: mupdf.Page, scale: number): GreyImage {
  const pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceGray, false);
  const [width, height, stride] = [pixmap.getWidth(), pixmap.getHeight(), pixmap.getStride()];
  const samples = pixmap.getPixels();
  const pixels = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++) pixels.set(samples.subarray(y * stride, y * stride + width), y * width);
  pixmap.destroy();
  return { pixels, width, height };
}

/** Page 1 of the Chinese fixture rendered grey at `dpi` (A4: 595 × 842 pt). */
function fixturePageGrey(dpi: number): GreyImage {
  return pageGrey(
    mupdf.Document.openDocument(readFileSync(fixture('chinese.pdf')), 'application/pdf').loadPage(0),
    dpi / 72,
  );
}

/** What the scans of scanJpegs show before their grain: fixturePageGrey a little darker, as a scanner's paper is. */
export function scanOriginal(dpi: number): GreyImage {
  const page = fixturePageGrey(dpi);
  return { ...page, pixels: Buffer.from(page.pixels.map((level) => Math.max(0, level - 12))) };
}

/**
 * Scanned pages as JPEGs: scanOriginal at `dpi` with scanner grain (a different grain per
 * page, so no page reuses another's image).
 */
export async function scanJpegs(pages: number, dpi = 200, quality = 75): Promise<Buffer[]> {
  const { pixels: clean, width, height } = scanOriginal(dpi);
  let seed = 1;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const jpegs: Buffer[] = [];
  for (let n = 0; n < pages; n++) {
    const grey = Buffer.alloc(width * height);
    for (let i = 0; i < grey.length; i++)
      grey[i] = Math.max(0, Math.min(255, clean[i]! + Math.round((random() - 0.5) * 20)));
    jpegs.push(
      await sharp(grey, { raw: { width, height, channels: 1 } })
        .jpeg({ quality })
        .toBuffer(),
    );
  }
  return jpegs;
}

export interface JpegPage {
  jpeg: Buffer;
  /** the page's content stream; by default the JPEG (`/Scan`) drawn over the whole A4 page */
  contents?: string;
  /** the page's /Rotate */
  rotate?: mupdf.Rotate;
}

/**
 * A4 pages that each draw a JPEG, stored as the PDF's DCT-encoded image XObject `/Scan`;
 * Helvetica is there as `/F1` for contents that write over it.
 */
export function jpegPdf(pages: JpegPage[]): Buffer {
  const document = new mupdf.PDFDocument();
  const font = document.addSimpleFont(new mupdf.Font('Helvetica'));
  for (const { jpeg, contents = 'q 595 0 0 842 0 0 cm /Scan Do Q', rotate = 0 } of pages) {
    const resources = document.addObject({
      Font: { F1: font },
      XObject: { Scan: document.addImage(new mupdf.Image(jpeg)) },
    });
    document.insertPage(-1, document.addPage([0, 0, 595, 842], rotate, resources, contents));
  }
  return save(document);
}

/** `pages` scanned pages (scanJpegs) in a PDF, as a scanner makes them. */
export async function scannedPdf(pages: number, dpi = 200, quality = 75): Promise<Buffer> {
  return jpegPdf((await scanJpegs(pages, dpi, quality)).map((jpeg) => ({ jpeg })));
}

/**
 * `pages` bilevel scans, as book scanners make them: fixturePageGrey at `dpi` thresholded to
 * 1 bit per pixel, stored as a Flate image (the same bits on every page, each
 * page its own image object).
 */
export function bilevelScanPdf(pages: number, dpi = 300): Buffer {
  const { pixels: grey, width, height } = fixturePageGrey(dpi);
  const rowBytes = Math.ceil(width / 8);
  const bits = Buffer.alloc(rowBytes * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) if (grey[y * width + x]! < 160) bits[y * rowBytes + (x >> 3)]! |= 0x80 >> (x & 7);
  }
  const document = new mupdf.PDFDocument();
  for (let n = 0; n < pages; n++) {
    // Decode [1 0]: a set bit is black, as in CCITT and JBIG2 scans.
    const image = document.addStream(bits, {
      Type: document.newName('XObject'),
      Subtype: document.newName('Image'),
      Width: width,
      Height: height,
      BitsPerComponent: 1,
      ColorSpace: document.newName('DeviceGray'),
      Decode: [1, 0],
    });
    const resources = document.addObject({ XObject: { Scan: image } });
    document.insertPage(-1, document.addPage([0, 0, 595, 842], 0, resources, 'q 595 0 0 842 0 0 cm /Scan Do Q'));
  }
  return save(document);
}

/**
 * A photograph-like JPEG (quality 80): coloured blobs with fine grain, a different picture per
 * `seed`; at 1600 × 1067 about 290 KiB, what a camera's picture placed in a document weighs.
 */
export async function photoJpeg(seed: number, width = 1600, height = 1067): Promise<Buffer> {
  let state = seed;
  const random = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const [cellsX, cellsY] = [Math.ceil(width / 20), Math.ceil(height / 20)];
  const cells = Buffer.alloc(cellsX * cellsY * 3);
  for (let i = 0; i < cells.length; i++) cells[i] = Math.round(random() * 255);
  const smooth = await sharp(cells, { raw: { width: cellsX, height: cellsY, channels: 3 } })
    .resize(width, height, { kernel: 'cubic' })
    .blur(3)
    .raw()
    .toBuffer();
  for (let i = 0; i < smooth.length; i++)
    smooth[i] = Math.max(0, Math.min(255, smooth[i]! + Math.round((random() - 0.5) * 24)));
  return sharp(smooth, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/**
 * `pages` pages of the Chinese fixture (in turn: its fonts and text kept), each with a photo of
 * its own (photoJpeg) drawn 480 × 320 pt over its lower half, as in a report, a magazine or slides.
 */
export async function illustratedPdf(pages: number): Promise<Buffer> {
  const from = new mupdf.PDFDocument(readFileSync(fixture('chinese.pdf')));
  const document = new mupdf.PDFDocument();
  const graft = document.newGraftMap();
  for (let n = 0; n < pages; n++) {
    graft.graftPage(-1, from, n % from.countPages());
    const page = document.findPage(n);
    const resources = page.get('Resources');
    if (resources.get('XObject').isNull()) resources.put('XObject', document.newDictionary());
    // The copies share their resources: a name of its own for each page's photo.
    resources.get('XObject').put(`Photo${n}`, document.addImage(new mupdf.Image(await photoJpeg(n + 1))));
    const contents = document.newArray();
    const existing = page.get('Contents');
    if (existing.isArray()) existing.forEach((stream) => contents.push(stream));
    else contents.push(existing);
    contents.push(document.addStream(`q 480 0 0 320 57 72 cm /Photo${n} Do Q`, {}));
    page.put('Contents', contents);
  }
  return save(document);
}

/**
 * The first illustrated page (a photo over its lower half) with `content` drawn over it, after
 * `resources` has added what that content names.
 */
export async function illustratedPageWith(
  content: string,
  resources: (document: mupdf.PDFDocument, resources: mupdf.PDFObject) => void = () => {},
): Promise<Buffer> {
  const document = new mupdf.PDFDocument(await illustratedPdf(1));
  const page = document.findPage(0);
  resources(document, page.get('Resources'));
  page.get('Contents').push(document.addStream(content, {}));
  return save(document);
}

/** `count` short hairline strokes at seeded random places of an A4 page: thousands of paths that gzip poorly. */
export function scatteredStrokes(count: number): string {
  let seed = 7;
  const random = () => ((seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647) * 500 + 40;
  const strokes = Array.from({ length: count }, () => {
    const [x, y] = [random(), random()];
    return `${x.toFixed(2)} ${y.toFixed(2)} m ${(x + random() / 100).toFixed(2)} ${(y + random() / 100).toFixed(2)} l S`;
  });
  return `q 0.1 w\n${strokes.join('\n')}\nQ`;
}

/**
 * One 14400 pt page filled with a tiling pattern whose step is 0.02 pt: 5 × 10¹¹ tiles, which MuPDF's raster
 * device (the covers) never finishes drawing, in 826 bytes (an audit's `pattern-bomb.pdf`).
 */
export function patternBombPdf(): Buffer {
  const document = new mupdf.PDFDocument();
  const tile = document.addStream('0 0 0.01 0.01 re f', {
    Type: document.newName('Pattern'),
    PatternType: 1,
    PaintType: 1,
    TilingType: 1,
    BBox: [0, 0, 0.02, 0.02],
    XStep: 0.02,
    YStep: 0.02,
    Resources: {},
  });
  const resources = document.addObject({ Pattern: { P1: tile } });
  const content = '/Pattern cs /P1 scn 0 0 14400 14400 re f';
  document.insertPage(-1, document.addPage([0, 0, 14400, 14400], 0, resources, content));
  return save(document);
}

/**
 * OLE compound files as Office writes them when a password protects opening them (MS-OFFCRYPTO),
 * made with cfb: `docx` an Office 2007+ package encrypted whole (EncryptionInfo,
 * EncryptedPackage), `doc` a Word 97 document whose FIB sets fEncrypted (`encrypted: false`: the
 * same document without it), `xls` a workbook stream with a FILEPASS record after its BOF.
 */
export function passwordOfficeFile(kind: 'docx' | 'doc' | 'xls', encrypted = true): Buffer {
  const container = CFB.utils.cfb_new();
  if (kind === 'docx') {
    CFB.utils.cfb_add(container, '/EncryptionInfo', Buffer.from([4, 0, 4, 0, 0x40, 0, 0, 0]));
    CFB.utils.cfb_add(container, '/EncryptedPackage', Buffer.alloc(4096, 0x5a));
  } else if (kind === 'doc') {
    const fib = Buffer.alloc(4096);
    fib.writeUInt16LE(0xa5ec, 0); // wIdent
    fib.writeUInt16LE(0x00c1, 2); // nFib: Word 97
    fib.writeUInt16LE(encrypted ? 0x1300 : 0x1200, 0x0a); // fEncrypted is 0x0100
    CFB.utils.cfb_add(container, '/WordDocument', fib);
    CFB.utils.cfb_add(container, '/1Table', Buffer.alloc(4096));
  } else {
    const bof = Buffer.from([0x09, 0x08, 0x10, 0x00, 0x00, 0x06, 0x05, 0x00, ...Array(12).fill(0)]);
    const filepass = Buffer.from([0x2f, 0x00, 0x06, 0x00, 0x01, 0x00, 0x01, 0x00, 0x01, 0x00]);
    CFB.utils.cfb_add(container, '/Workbook', Buffer.concat([bof, filepass, Buffer.alloc(4096)]));
  }
  return Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
}

/**
 * A PDF without its xref (cut short, so MuPDF repairs it) whose `pages` pages share one resource dictionary naming
 * `fonts` fonts. Opening it checks every page of the repaired file (pdf-completeness.ts), each of its fonts through
 * MuPDF: pages × fonts objects read, 10 million in 200 KB, a few minutes (0.2 s a page where this was written).
 */
export function fontCrowdPdf(pages = 1000, fonts = 10_000): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${5 + i} 0 R`).join(' ')}] /Count ${pages} >>`,
    `<< /Font << ${Array.from({ length: fonts }, (_, i) => `/F${i} 4 0 R`).join(' ')} >> >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ...Array.from({ length: pages }, () => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources 3 0 R >>'),
  ];
  const body = objects.map((object, i) => `${i + 1} 0 obj\n${object}\nendobj\n`).join('');
  return Buffer.from(`%PDF-1.7\n${body}trailer\n<< /Root 1 0 R >>\n%%EOF\n`, 'latin1');
}

/**
 * One page whose form draws another form ten times, `depth` deep, the last showing one letter: 10^depth letters in
 * 2 KB. MuPDF reads the page into a display list for ever (10^6 letters took 27 s where this was written, in WASM).
 */
export function formBombPdf(depth = 8): Buffer {
  const document = new mupdf.PDFDocument();
  const formOf = (content: string, resources: Record<string, unknown>) =>
    document.addStream(content, {
      Type: document.newName('XObject'),
      Subtype: document.newName('Form'),
      BBox: [0, 0, 100, 100],
      Resources: resources,
    });
  const font = document.addSimpleFont(new mupdf.Font('Helvetica'));
  let form = formOf('BT /F1 1 Tf (x) Tj ET', { Font: { F1: font } });
  for (let level = 0; level < depth; level++)
    form = formOf(Array(10).fill('/X Do').join('\n'), { XObject: { X: form } });
  const resources = document.addObject({ XObject: { X: form } });
  document.insertPage(-1, document.addPage([0, 0, 595, 842], 0, resources, '/X Do'));
  return save(document);
}

/** The Chinese fixture encrypted with a user password (AES-256). */
export function encryptedPdf(): Buffer {
  const document = new mupdf.PDFDocument(readFileSync(fixture('chinese.pdf')));
  return save(document, 'encrypt=aes-256,user-password=secret,owner-password=owner');
}

/** The red of calibreEpub's cover image. */
export const COVER_RED = { r: 200, g: 30, b: 30 };

/**
 * An EPUB as calibre writes one (`ebook-convert book.txt book.epub`, `ebook-convert` at `calibrePath`): two chapters
 * of Chinese text (the first: `第一章 开端`), and a cover page (titlepage.xhtml: an inline <svg> holding an <image>)
 * showing a 300×400 PNG of COVER_RED (`cover: 'red'`) or the cover calibre draws itself from the title (`'calibre'`).
 */
export async function calibreEpub(calibrePath: string, cover: 'red' | 'calibre'): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'calibre-epub-'));
  try {
    const text = join(dir, 'book.txt');
    await writeFile(
      text,
      `第一章 开端\n\n麒麟出现在城市图书馆的门前。春眠不觉晓，处处闻啼鸟。\n\n第二章 结尾\n\n夜来风雨声，花落知多少。\n`,
    );
    const args = [text, join(dir, 'book.epub'), '--title', '城市图书馆'];
    if (cover === 'red') {
      const png = join(dir, 'cover.png');
      await sharp({ create: { width: 300, height: 400, channels: 3, background: COVER_RED } })
        .png()
        .toFile(png);
      args.push('--cover', png);
    }
    await promisify(execFile)(calibrePath, args, {
      env: { ...process.env, CALIBRE_CONFIG_DIRECTORY: join(dir, 'config'), CALIBRE_TEMP_DIR: dir },
    });
    return await readFile(join(dir, 'book.epub'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** What a conversion writes for a document of `pages` pages: each page's SVG and characters' positions, the covers. */
export const convertedFiles = (pages: number): string[] => [
  ...Array.from({ length: pages }, (_, i) => [`${i + 1}.gzip.svg`, `${i + 1}.pos.gz`]).flat(),
  'cover.big.png',
  'cover.png',
  'cover.webp',
];

/**
 * A one-page PDF laid out as a linearized one is (MuPDF no longer writes them): the linearization
 * dictionary first, the first page's cross-reference section and trailer after it, the first
 * page's objects, then the rest and the main cross-reference section. Offsets are exact.
 */
export function linearizedPdf(): Buffer {
  const content = 'BT /F1 24 Tf 40 100 Td (Linearized) Tj ET';
  const firstPage: [number, string][] = [
    [2, '<</Type/Catalog/Pages 3 0 R>>'],
    [4, '<</Type/Page/Parent 3 0 R/MediaBox[0 0 300 200]/Resources<</Font<</F1 5 0 R>>>>/Contents 6 0 R>>'],
    [6, `<</Length ${content.length}>>stream\n${content}\nendstream`],
  ];
  const rest: [number, string][] = [
    [3, '<</Type/Pages/Kids[4 0 R]/Count 1>>'],
    [5, '<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>'],
  ];
  const object = ([n, body]: [number, string]) => `${n} 0 obj\n${body}\nendobj\n`;
  const entry = (offset: number) => `${String(offset).padStart(10, '0')} 00000 n \n`;
  const build = (length: number, mainXref: number) => {
    const offsets = new Map<number, number>();
    let out = '%PDF-1.5\n%\xe2\xe3\xcf\xd3\n';
    offsets.set(1, out.length);
    out += object([
      1,
      `<</Linearized 1/L ${String(length).padStart(6, '0')}/O 4/N 1/T ${String(mainXref).padStart(6, '0')}>>`,
    ]);
    const firstXref = out.length;
    const firstSection = (at: Map<number, number>) =>
      `xref\n1 1\n${entry(at.get(1) ?? 0)}2 1\n${entry(at.get(2) ?? 0)}4 1\n${entry(at.get(4) ?? 0)}6 1\n${entry(at.get(6) ?? 0)}` +
      `trailer\n<</Size 7/Root 2 0 R/Prev ${String(mainXref).padStart(6, '0')}>>\nstartxref\n0\n%%EOF\n`;
    out += firstSection(new Map());
    for (const o of firstPage) {
      offsets.set(o[0], out.length);
      out += object(o);
    }
    for (const o of rest) {
      offsets.set(o[0], out.length);
      out += object(o);
    }
    out = out.slice(0, firstXref) + firstSection(offsets) + out.slice(firstXref + firstSection(new Map()).length);
    const xref = out.length;
    out += `xref\n0 1\n0000000000 65535 f \n3 1\n${entry(offsets.get(3)!)}5 1\n${entry(offsets.get(5)!)}`;
    out += `trailer\n<</Size 7>>\nstartxref\n${firstXref}\n%%EOF\n`;
    return { out, xref };
  };
  const draft = build(0, 0);
  const pdf = build(draft.out.length, draft.xref).out;
  return Buffer.from(pdf, 'latin1');
}

/**
 * A valid one-page PDF whose header is followed by `commentBytes` bytes of comment lines, each at
 * most `lineBytes` long, before its first object (a producer's notes, a licence text): offsets exact.
 */
export function commentedPdf(commentBytes: number, lineBytes = commentBytes): Buffer {
  let out = '%PDF-1.4\n';
  for (let left = commentBytes; left > 0; left -= lineBytes) {
    const length = Math.min(lineBytes, left);
    out += `%${'c'.repeat(Math.max(0, length - 2))}\n`.slice(0, length);
  }
  const content = 'BT /F1 24 Tf 40 100 Td (Commented) Tj ET';
  const objects = [
    '<</Type/Catalog/Pages 2 0 R>>',
    '<</Type/Pages/Kids[3 0 R]/Count 1>>',
    '<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 200]/Resources<</Font<</F1 5 0 R>>>>/Contents 4 0 R>>',
    `<</Length ${content.length}>>stream\n${content}\nendstream`,
    '<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>',
  ];
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<</Size ${objects.length + 1}/Root 1 0 R>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/**
 * A PDF MuPDF cannot open, as an upload takes it (a header and objects): its trailer names an
 * encryption MuPDF does not know, so its conversion fails as corrupt (文档已损坏或无法解析).
 * `note`, a comment in it, makes its bytes (and so its hash) unique.
 */
export function brokenPdf(note = ''): Buffer {
  return Buffer.from(
    `%PDF-1.7\n%${note}\n1 0 obj\n<</Type/Catalog/Pages 2 0 R>>\nendobj\n2 0 obj\n<</Type/Pages/Kids[3 0 R]/Count 1>>\nendobj\n` +
      `3 0 obj\n<</Type/Page/Parent 2 0 R/MediaBox[0 0 100 100]>>\nendobj\n` +
      `trailer\n<</Root 1 0 R/Encrypt<</Filter/Standard/V 9/R 9/O(x)/U(y)/P -4>>>>\n`,
  );
}
