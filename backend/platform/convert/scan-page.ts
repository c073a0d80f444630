// The scan shortcut of the conversion worker (convert-worker.ts): a PDF page that draws one
// JPEG over the whole page and nothing else visible (an OCR layer is invisible text) is that
// JPEG, as the PDF stores it: copied out in a millisecond or two, where the general path has
// MuPDF's WASM decode and scale it (about 100 ms of a 200 dpi A4 page's 190), writes an SVG
// embedding it and compresses that SVG (20 ms more) only to find it over the limit. Its WebP at
// reading resolution, decoded and scaled by sharp (libvips, native), comes later (scanWebp),
// as a job of its own. docs/performance.md §4 has the figures.
import * as mupdf from 'mupdf';
import sharp from 'sharp';
import type { RenderSettings, ScanTarget } from './page-pool';

/** What scanJpeg reads of a render task. */
export type ScanSettings = Pick<RenderSettings, 'svgGzipLimit' | 'raster'>;

/** Points of slack when an image's rectangle is compared with the page's. */
const SLACK = 1;

/**
 * A reduction to this scale or below (a scan of 190 dpi or more brought to 150) averages the
 * scanner's grain by itself with sharp's linear kernel. Closer to 1:1 the kernel keeps every
 * grain, so the page is also smoothed by MILD_SMOOTHING, about what MuPDF's own scaler does.
 * Measured against the page before it was scanned (mean error of the grey levels, lower is
 * truer; docs/performance.md §4): 200 dpi, linear alone 3.04 and 69 KB against MuPDF's
 * 3.25 and 81 KB; 150 dpi, smoothed 3.33 and 76 KB against MuPDF's 3.76 and 105 KB (linear
 * alone: 4.07 and 137 KB). A scan below 150 dpi is not enlarged here: MuPDF renders it.
 */
const GRAIN_AVERAGING_SCALE = 0.8;

/** JPEG's EOI marker. */
const END_OF_IMAGE = Buffer.from([0xff, 0xd9]);

/** [1 6 1] ⊗ [1 6 1] / 64: the mildest of the smoothings measured, and the truest at 170 dpi. */
const MILD_SMOOTHING = { width: 3, height: 3, kernel: [1, 6, 1, 6, 36, 6, 1, 6, 1] };

/** The scale of a page's raster: `raster.dpi`, or less where the longest side would pass `raster.maxSide`. */
export function rasterScale(bounds: mupdf.Rect, raster: RenderSettings['raster']): number {
  const longest = Math.max(bounds[2] - bounds[0], bounds[3] - bounds[1]);
  return Math.min(raster.dpi / 72, raster.maxSide / longest);
}

const near = (a: number, b: number): boolean => Math.abs(a - b) <= SLACK;

/** `outer` holds `inner`, give or take the slack. */
const covers = (outer: mupdf.Rect, inner: mupdf.Rect): boolean =>
  outer[0] <= inner[0] + SLACK &&
  outer[1] <= inner[1] + SLACK &&
  outer[2] >= inner[2] - SLACK &&
  outer[3] >= inner[3] - SLACK;

/**
 * The page's only image XObject when it is a plain JPEG over `minBytes` (a stream MuPDF's SVG
 * would embed as it is): one DCT filter, no decode array, mask or colour-transform parameter.
 * Read from the page's resources before anything is drawn, so pages of text pay a few lookups.
 */
function bigJpegXObject(page: mupdf.PDFPage, minBytes: number): mupdf.PDFObject | null {
  const xobjects = page.getObject().getInheritable('Resources').get('XObject');
  if (!xobjects.isDictionary()) return null;
  const images: mupdf.PDFObject[] = [];
  xobjects.forEach((value) => {
    if (value.get('Subtype').asName() === 'Image') images.push(value);
  });
  if (images.length !== 1) return null;
  const image = images[0]!;
  let filter = image.get('Filter');
  if (filter.isArray() && filter.length === 1) filter = filter.get(0);
  if (filter.asName() !== 'DCTDecode' || image.get('Length').asNumber() <= minBytes) return null;
  for (const key of ['Decode', 'DecodeParms', 'SMask', 'Mask', 'ImageMask']) if (!image.get(key).isNull()) return null;
  return image;
}

/**
 * What the page draws, when that is a single opaque image placed upright over the whole page:
 * its size in pixels; otherwise null. Clips are allowed when they hide nothing of the page.
 */
function onlyImageOver(list: mupdf.DisplayList, bounds: mupdf.Rect): { width: number; height: number } | null {
  // (assigned by the device's callbacks, which the compiler does not follow)
  let drawn = null as {
    ctm: mupdf.Matrix;
    width: number;
    height: number;
    components: number;
    colorSpace: mupdf.ColorSpace | null;
  } | null;
  let other = false as boolean;
  const draws = () => {
    other = true;
  };
  // mupdf.js wraps what it hands a device with a finaliser that drops it once collected. A path
  // of a display list lives in the list's own memory: collected after the list is gone, its
  // wrapper frees what is no longer a path (a page of 6,000 strokes and a photo crashed its thread
  // so). Each path is released in its call, while the list is alive. A shade comes without a
  // reference of its own (mupdf 1.28's binding), so its finaliser must not drop it at all.
  const drawsPath = (path: mupdf.Path) => {
    other = true;
    path.destroy();
  };
  const device = new mupdf.Device({
    fillImage(image, ctm, alpha) {
      if (drawn || alpha !== 1 || image.getImageMask() || image.getMask()) other = true;
      else
        drawn = {
          ctm,
          width: image.getWidth(),
          height: image.getHeight(),
          components: image.getNumberOfComponents(),
          colorSpace: image.getColorSpace(),
        };
      image.destroy();
    },
    clipPath(path, _evenOdd, ctm) {
      // (no stroke: the binding takes null where its type wants a StrokeState)
      if (!covers(path.getBounds(null as unknown as mupdf.StrokeState, ctm), bounds)) other = true;
      path.destroy();
    },
    fillPath: drawsPath,
    strokePath: drawsPath,
    clipStrokePath: drawsPath,
    fillText: draws,
    strokeText: draws,
    clipText: draws,
    clipStrokeText: draws,
    fillShade(shade) {
      other = true;
      (mupdf.Shade as unknown as { _finalizer?: FinalizationRegistry<unknown> })._finalizer?.unregister(shade);
    },
    fillImageMask: draws,
    clipImageMask: draws,
    beginMask: draws,
    beginGroup: draws,
    beginTile() {
      other = true;
      return 0;
    },
  });
  try {
    list.run(device, mupdf.Matrix.identity);
    device.close();
  } finally {
    device.destroy();
  }
  if (!drawn || other) return null;
  const [a, b, c, d, e, f] = drawn.ctm;
  const upright = b === 0 && c === 0 && a > 0 && d > 0;
  const overPage = near(e, bounds[0]) && near(f, bounds[1]) && near(e + a, bounds[2]) && near(f + d, bounds[3]);
  const plainColour =
    drawn.colorSpace !== null &&
    (drawn.colorSpace.isGray() || drawn.colorSpace.isRGB()) &&
    [1, 3].includes(drawn.components);
  return upright && overPage && plainColour ? { width: drawn.width, height: drawn.height } : null;
}

/**
 * The page's JPEG as the PDF stores it, when the page is such a scan at reading resolution or
 * above and a browser shows the JPEG as MuPDF draws it (grey or RGB, no EXIF rotation), with
 * what its WebP at reading resolution needs (`target`, for scanWebp); else null, and the
 * general path renders the page (and reports a damaged one as it always does). The JPEG is
 * the page until the document module has it re-encoded (conversion.ts, the scans' WebP job):
 * the document reads at once, and lighter when that job has run.
 */
export async function scanJpeg(
  page: mupdf.Page,
  list: mupdf.DisplayList,
  bounds: mupdf.Rect,
  task: ScanSettings,
): Promise<{ jpeg: Buffer; target: ScanTarget } | null> {
  if (!(page instanceof mupdf.PDFPage)) return null;
  try {
    const xobject = bigJpegXObject(page, task.svgGzipLimit);
    if (!xobject) return null;
    const image = onlyImageOver(list, bounds);
    if (!image || xobject.get('Width').asNumber() !== image.width || xobject.get('Height').asNumber() !== image.height)
      return null;
    const scale = rasterScale(bounds, task.raster);
    const width = Math.round((bounds[2] - bounds[0]) * scale);
    const height = Math.round((bounds[3] - bounds[1]) * scale);
    const reduction = Math.max(width / image.width, height / image.height);
    // (1 % of slack for the rounding of a JPEG made at 150 dpi)
    if (reduction > 1.01) return null;
    const raw = xobject.readRawStream();
    const jpeg = Buffer.from(raw.asUint8Array());
    raw.destroy();
    // A JPEG cut short (no end marker near its end) would show grey below the cut: MuPDF draws what it can of it.
    if (jpeg.subarray(-16).lastIndexOf(END_OF_IMAGE) === -1) return null;
    // The header only (no pixels are decoded): a JPEG sharp refuses, or one a browser would turn, is not served as it
    // is.
    const { format, width: jpegWidth, height: jpegHeight, orientation } = await sharp(jpeg).metadata();
    if (format !== 'jpeg' || jpegWidth !== image.width || jpegHeight !== image.height || (orientation ?? 1) !== 1)
      return null;
    return { jpeg, target: { width, height, smooth: reduction > GRAIN_AVERAGING_SCALE } };
  } catch (error) {
    // A trapped WASM instance is the worker's business (it ends the thread); a stream MuPDF
    // cannot read or a JPEG sharp refuses (truncated, unusual) is left to the general path.
    if (error instanceof WebAssembly.RuntimeError) throw error;
    return null;
  }
}

/**
 * A scan's JPEG (scanJpeg) as WebP at reading resolution, decoded and scaled by sharp (libvips,
 * native); null when the WebP is not smaller than the JPEG (the page then stays the JPEG) or
 * sharp cannot decode it (a truncated JPEG, which a browser shows as far as it goes).
 */
export async function scanWebp(
  jpeg: Uint8Array,
  target: ScanTarget,
  webpOptions: RenderSettings['raster']['webpOptions'],
): Promise<Buffer | null> {
  try {
    const scaled = sharp(jpeg).resize(target.width, target.height, { fit: 'fill', kernel: 'linear' });
    if (target.smooth) scaled.convolve(MILD_SMOOTHING);
    const webp = await scaled.webp(webpOptions).toBuffer();
    return webp.length < jpeg.length ? webp : null;
  } catch {
    return null;
  }
}
