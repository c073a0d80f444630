import * as mupdf from 'mupdf';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { RENDER_SETTINGS } from '../../../backend/platform/convert/converter';
import { MIN_IMAGE_BASE64, shrinkSvgImages } from '../../../backend/platform/convert/svg-images';
import { SvgPages } from '../../../backend/platform/convert/svg-pages';
import { illustratedPdf, photoJpeg } from '../../helpers/documents';

// A photo on a vector page: the worker brings each large JPEG of a page's SVG to the reading
// resolution of the size it is drawn at, as WebP (svg-images.ts), so that the page stays vector.

const raster = RENDER_SETTINGS.raster;
const DATA_URI = /data:image\/(jpeg|webp);base64,([^"]*)"/g;

/** Page 1 of a PDF as the worker's SVG device writes it. */
function svgOfFirstPage(pdf: Buffer): Buffer {
  const document = mupdf.Document.openDocument(pdf, 'application/pdf');
  const page = document.loadPage(0);
  const list = page.toDisplayList();
  const svgs = new SvgPages();
  try {
    svgs.add(page, list, page.getBounds());
    return svgs.finish()[0]!;
  } finally {
    svgs.destroy();
    list.destroy();
    page.destroy();
    document.destroy();
  }
}

/** The images embedded in an SVG, decoded. */
function embedded(svg: Buffer): { type: string; bytes: Buffer }[] {
  return [...svg.toString('latin1').matchAll(DATA_URI)].map((match) => ({
    type: match[1]!,
    bytes: Buffer.from(match[2]!, 'base64'),
  }));
}

/** The SVG with every embedded image's data left out: what must not change. */
const withoutImages = (svg: Buffer) =>
  svg
    .toString('latin1')
    .replace(DATA_URI, 'data:…"')
    .replace(/image\/(jpeg|webp)/g, 'image/…');

/** A JPEG inside a hand-written SVG, drawn at `size` points by the transform MuPDF writes around it. */
function handWritten(
  jpegBase64: string,
  pixels: { width: number; height: number },
  size: { width: number; height: number } | null,
  drawnAgain = false,
): Buffer {
  const image = `<image id="image_1" width="${pixels.width}" height="${pixels.height}" xlink:href="data:image/jpeg;base64,${jpegBase64}"/>`;
  const again = drawnAgain ? `\n<g transform="matrix(1,0,0,1,0,400)">\n<use xlink:href="#image_1"/>\n</g>` : '';
  const drawing = size
    ? `<g transform="matrix(${size.width / pixels.width},0,0,${size.height / pixels.height},10,20)">\n${image}\n</g>${again}`
    : `<defs>\n${image}\n</defs>\n<use xlink:href="#image_1" transform="matrix(0.5,0,0,0.5,0,0)"/>`;
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="595pt" height="842pt" viewBox="0 0 595 842">\n${drawing}\n</svg>\n`,
  );
}

/** Mean difference of the grey levels of two images brought to the same size. */
async function meanDifference(a: Buffer, b: Buffer, width: number, height: number): Promise<number> {
  const grey = (image: Buffer) => sharp(image).resize(width, height, { fit: 'fill' }).greyscale().raw().toBuffer();
  const [pa, pb] = await Promise.all([grey(a), grey(b)]);
  let sum = 0;
  for (let i = 0; i < pa.length; i++) sum += Math.abs(pa[i]! - pb[i]!);
  return sum / pa.length;
}

describe('shrinkSvgImages', () => {
  it('brings a photo drawn on a text page to 150 dpi of its drawn size, as WebP, and changes nothing else', async () => {
    const svg = svgOfFirstPage(await illustratedPdf(1));
    const [original] = embedded(svg);
    expect(original).toMatchObject({ type: 'jpeg' });
    expect(await sharp(original!.bytes).metadata()).toMatchObject({ width: 1600, height: 1067 });

    const { svg: shrunk, readingBytes } = await shrinkSvgImages(svg, raster);
    const [photo] = embedded(shrunk);
    expect(photo!.type).toBe('webp');
    // Drawn 480 × 320 pt: 1000 × 667 px at 150 dpi.
    expect(await sharp(photo!.bytes).metadata()).toMatchObject({ format: 'webp', width: 1000, height: 667 });
    expect(readingBytes).toBe(photo!.bytes.length);
    expect(photo!.bytes.length).toBeLessThan(original!.bytes.length / 2);
    expect(shrunk.length).toBeLessThan(svg.length / 2);
    // The same picture (grain averaged by the reduction), the rest of the page byte for byte.
    expect(await meanDifference(photo!.bytes, original!.bytes, 500, 333)).toBeLessThan(3);
    expect(withoutImages(shrunk)).toBe(withoutImages(svg));
  });

  it('never enlarges a picture drawn larger than its pixels, and keeps a JPEG the WebP would not beat', async () => {
    const small = await photoJpeg(7, 400, 300);
    expect(small.toString('base64').length).toBeGreaterThan(MIN_IMAGE_BASE64);
    const pixels = { width: 400, height: 300 };
    const { svg, readingBytes } = await shrinkSvgImages(
      handWritten(small.toString('base64'), pixels, { width: 480, height: 360 }),
      raster,
    );
    const [image] = embedded(svg);
    expect(image!.type).toBe('webp');
    expect(await sharp(image!.bytes).metadata()).toMatchObject({ width: 400, height: 300 });
    // Not reduced: a raster of the page would resample it, so its bytes count against the limit.
    expect(readingBytes).toBe(0);
    expect(svg.length).toBeLessThan(small.toString('base64').length);

    // Noise at JPEG quality 10 (41 KiB) drawn at its own resolution: WebP at quality 75 would
    // spend 4× the bytes on its blocks, so the JPEG stays.
    const noise = Buffer.alloc(800 * 600 * 3).map(() => Math.floor(Math.random() * 256));
    const blocky = await sharp(noise, { raw: { width: 800, height: 600, channels: 3 } })
      .jpeg({ quality: 10 })
      .toBuffer();
    const noisy = handWritten(blocky.toString('base64'), { width: 800, height: 600 }, { width: 384, height: 288 });
    expect(await shrinkSvgImages(noisy, raster)).toEqual({ svg: noisy, readingBytes: 0 });
  });

  it("caps a picture drawn from <defs> or drawn twice (its largest drawing unknown) at the raster's longest side", async () => {
    const big = await photoJpeg(3, 3000, 2000);
    const capped = { format: 'webp', width: raster.maxSide, height: Math.round((2000 * raster.maxSide) / 3000) };
    const fromDefs = await shrinkSvgImages(
      handWritten(big.toString('base64'), { width: 3000, height: 2000 }, null),
      raster,
    );
    expect(await sharp(embedded(fromDefs.svg)[0]!.bytes).metadata()).toMatchObject(capped);
    // First drawn 300 × 200 pt (625 px wide at 150 dpi), then again at its full 3000 × 2000 pt.
    const twice = await shrinkSvgImages(
      handWritten(big.toString('base64'), { width: 3000, height: 2000 }, { width: 300, height: 200 }, true),
      raster,
    );
    expect(await sharp(embedded(twice.svg)[0]!.bytes).metadata()).toMatchObject(capped);
  });

  it('leaves small JPEGs, JPEGs it cannot read and SVGs without JPEG as they are (the same buffer)', async () => {
    const tiny = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#884422' } })
      .jpeg()
      .toBuffer();
    const cases = [
      handWritten(tiny.toString('base64'), { width: 40, height: 30 }, { width: 200, height: 150 }),
      handWritten(Buffer.alloc(30_000, 7).toString('base64'), { width: 800, height: 600 }, { width: 200, height: 150 }),
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0H10"/></svg>'),
    ];
    for (const svg of cases) expect(await shrinkSvgImages(svg, raster)).toEqual({ svg, readingBytes: 0 });
    for (const svg of cases) expect((await shrinkSvgImages(svg, raster)).svg).toBe(svg);
  });
});
