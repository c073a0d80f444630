import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as mupdf from 'mupdf';
import sharp, { type Sharp } from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { RENDER_SETTINGS } from '../../../backend/platform/convert/converter';
import { scanJpeg, scanWebp } from '../../../backend/platform/convert/scan-page';
import { jpegPdf, pageGrey, scanJpegs, scanOriginal, type GreyImage } from '../../helpers/documents';

// The scan shortcut of the conversion worker (scan-page.ts) on real PDFs: the pages it takes
// (one JPEG over the whole page, nothing else visible) are their JPEG as the PDF stores it, and
// later a WebP that looks like MuPDF's own rendering of the page; every other page is left to
// MuPDF.

const SCAN = 'q 595 0 0 842 0 0 cm /Scan Do Q';

let jpeg: Buffer;
beforeAll(async () => {
  jpeg = (await scanJpegs(1, 200))[0]!;
}, 60_000);

/**
 * Opens the first page of `data` the way the worker does and hands it to the shortcut: its JPEG and the WebP to make of
 * it.
 */
async function scanOf(data: Buffer, magic = 'application/pdf') {
  const document = mupdf.Document.openDocument(data, magic);
  const page = document.loadPage(0);
  const list = page.toDisplayList();
  try {
    return await scanJpeg(page, list, page.getBounds(), RENDER_SETTINGS);
  } finally {
    list.destroy();
    page.destroy();
    document.destroy();
  }
}

/**
 * The page's WebP by the shortcut (its JPEG, then the WebP job's encoding), or null when the shortcut leaves the page.
 */
async function shortcut(data: Buffer, magic = 'application/pdf'): Promise<Buffer | null> {
  const scan = await scanOf(data, magic);
  return scan && scanWebp(scan.jpeg, scan.target, RENDER_SETTINGS.raster.webpOptions);
}

/** Grey levels of MuPDF's rendering of the first page of `pdf`, `width` pixels wide. */
function mupdfGrey(pdf: Buffer, width: number): GreyImage {
  const page = mupdf.Document.openDocument(pdf, 'application/pdf').loadPage(0);
  const [x0, , x1] = page.getBounds();
  return pageGrey(page, width / (x1 - x0));
}

/** Mean absolute difference (0–255) between an image and reference grey levels of the same size. */
async function difference(image: Sharp, reference: GreyImage): Promise<number> {
  const grey = await image.resize(reference.width, reference.height, { fit: 'fill' }).greyscale().raw().toBuffer();
  let sum = 0;
  for (let i = 0; i < grey.length; i++) sum += Math.abs(grey[i]! - reference.pixels[i]!);
  return sum / grey.length;
}

describe('the scan shortcut', () => {
  it('turns a page that is one JPEG over the whole page into a WebP at 150 dpi that looks like MuPDF’s rendering', async () => {
    const pdf = jpegPdf([{ jpeg }]);
    const webp = await shortcut(pdf);
    expect(webp).not.toBeNull();
    const { format, width, height } = await sharp(webp!).metadata();
    // A4 (595 × 842 pt) at 150 dpi
    expect([format, width, height]).toEqual(['webp', 1240, 1754]);
    expect(webp!.length).toBeLessThan(jpeg.length);
    expect(webp!.length).toBeLessThan(RENDER_SETTINGS.svgGzipLimit);
    // compared at a quarter of the size, where the scanner grain averages out (1.9 measured)
    const reference = mupdfGrey(pdf, width! / 4);
    const same = await difference(sharp(webp!), reference);
    // the measure tells an upright page from one upside down (8.6 measured)
    const upsideDown = await difference(sharp(webp!).rotate(180), reference);
    expect(same).toBeLessThan(3);
    expect(upsideDown).toBeGreaterThan(3 * same);
  });

  it('hands over the JPEG as the PDF stores it, byte for byte, with the size of the WebP to make of it', async () => {
    const scan = await scanOf(jpegPdf([{ jpeg }]));
    expect(scan!.jpeg.equals(jpeg)).toBe(true);
    // A4 at 150 dpi; a 200 dpi scan's reduction averages its grain: no smoothing
    expect(scan!.target).toEqual({ width: 1240, height: 1754, smooth: false });
    const [near] = await scanJpegs(1, 150);
    expect((await scanOf(jpegPdf([{ jpeg: near! }])))!.target.smooth).toBe(true);
  }, 30_000);

  it('leaves to MuPDF a JPEG that a browser would turn (EXIF orientation), which the PDF draws as it is', async () => {
    const turned = await sharp(jpeg).withMetadata({ orientation: 6 }).jpeg({ quality: 75 }).toBuffer();
    expect((await sharp(turned).metadata()).orientation).toBe(6);
    expect(await scanOf(jpegPdf([{ jpeg: turned }]))).toBeNull();
  }, 30_000);

  it('keeps the JPEG when its WebP would not be smaller', async () => {
    const scan = await scanOf(jpegPdf([{ jpeg }]));
    const tiny = await sharp(jpeg).resize(620, 877).jpeg({ quality: 20 }).toBuffer();
    expect(await scanWebp(tiny, scan!.target, RENDER_SETTINGS.raster.webpOptions)).toBeNull();
  }, 30_000);

  it('takes a scan under an invisible OCR layer and a clip that hides nothing of the page', async () => {
    const ocr = `${SCAN} BT 3 Tr /F1 12 Tf 72 700 Td (recognised words) Tj ET`;
    expect(await shortcut(jpegPdf([{ jpeg, contents: ocr }]))).not.toBeNull();
    expect(await shortcut(jpegPdf([{ jpeg, contents: `0 0 595 842 re W n ${SCAN}` }]))).not.toBeNull();
  });

  it.each([
    ['visible text over the scan', `${SCAN} BT /F1 48 Tf 72 400 Td (STAMP) Tj ET`],
    ['a drawing over the scan', `${SCAN} 0 0 1 rg 100 100 200 200 re f`],
    ['a clip that hides part of the page', `q 100 100 300 300 re W n ${SCAN} Q`],
    ['an image larger than the page (cropped by it)', 'q 700 0 0 990 -50 -70 cm /Scan Do Q'],
    ['an image over half the page', 'q 595 0 0 421 0 421 cm /Scan Do Q'],
    ['a mirrored image', 'q -595 0 0 842 595 0 cm /Scan Do Q'],
    ['the image drawn twice', `${SCAN} ${SCAN}`],
  ])('leaves to MuPDF a page with %s', async (_, contents) => {
    expect(await shortcut(jpegPdf([{ jpeg, contents }]))).toBeNull();
  });

  it('smooths a scan near the reading resolution (150 dpi) mildly: a smaller WebP than MuPDF’s, truer to the page under the grain', async () => {
    const [near] = await scanJpegs(1, 150);
    const pdf = jpegPdf([{ jpeg: near! }]);
    const ours = await shortcut(pdf);
    expect(ours).not.toBeNull();
    // what the general path makes of the same page: MuPDF's rendering at 150 dpi, as WebP
    const page = mupdf.Document.openDocument(pdf, 'application/pdf').loadPage(0);
    const pixmap = page.toPixmap(mupdf.Matrix.scale(150 / 72, 150 / 72), mupdf.ColorSpace.DeviceRGB, false);
    const raw = { width: pixmap.getWidth(), height: pixmap.getHeight(), channels: 3 } as const;
    const theirs = await sharp(Buffer.from(pixmap.getPixels()), { raw })
      .webp(RENDER_SETTINGS.raster.webpOptions)
      .toBuffer();
    expect(ours!.length).toBeLessThan(theirs.length);
    // closer to what was scanned (measured: 3.3 against 3.8; 4.1 unsmoothed)
    const original = scanOriginal(150);
    expect(await difference(sharp(ours!), original)).toBeLessThan(await difference(sharp(theirs), original));
  }, 30_000);

  it('leaves to MuPDF a scan below the reading resolution: it is not enlarged', async () => {
    const [low] = await scanJpegs(1, 120, 95);
    expect(low!.length).toBeGreaterThan(RENDER_SETTINGS.svgGzipLimit);
    expect(await shortcut(jpegPdf([{ jpeg: low! }]))).toBeNull();
  }, 30_000);

  it('leaves to MuPDF a rotated page, a CMYK JPEG, a JPEG small enough for the SVG, and pages that are not PDF', async () => {
    expect(await shortcut(jpegPdf([{ jpeg, rotate: 90 }]))).toBeNull();
    const cmyk = await sharp(jpeg).toColourspace('cmyk').jpeg({ quality: 75 }).toBuffer();
    expect(await shortcut(jpegPdf([{ jpeg: cmyk }]))).toBeNull();
    const [small] = await scanJpegs(1, 100, 60);
    expect(small!.length).toBeLessThan(RENDER_SETTINGS.svgGzipLimit);
    expect(await shortcut(jpegPdf([{ jpeg: small! }]))).toBeNull();
    expect(await scanOf(jpeg, 'image/jpeg')).toBeNull();
    // a truncated JPEG (no end marker): MuPDF shows what it can of it
    expect(await scanOf(jpegPdf([{ jpeg: jpeg.subarray(0, jpeg.length / 2) }]))).toBeNull();
  }, 30_000);
});

describe('the scan check on pages that are not scans', () => {
  it('releases what MuPDF hands its device: thousands of paths and hundreds of gradients beside a photo, collected after their display lists, leave MuPDF working', () => {
    // In a process of its own with the collector at hand: a crash or a corrupted heap there must not take the test
    // runner with it.
    const child = spawnSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', fileURLToPath(new URL('./scan-check-child.ts', import.meta.url))],
      {
        encoding: 'utf8',
        timeout: 90_000,
      },
    );
    expect({ status: child.status, signal: child.signal, stdout: child.stdout }).toEqual({
      status: 0,
      signal: null,
      stdout: 'ok',
    });
  }, 120_000);
});
