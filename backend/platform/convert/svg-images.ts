// Photos inside vector pages (convert-worker.ts): MuPDF's SVG writer copies a JPEG drawn on a
// page into the SVG as it is in the PDF, often a camera's or a scanner's full resolution for a
// picture that covers a third of the page. Such a page used to pass the SVG limit and become a
// WebP of the whole page, its text rasterised with the photo. Here each large JPEG of a page's
// SVG is brought down to the reading resolution of the size it is drawn at (`raster.dpi`, as a
// page raster would show it) and encoded as WebP, where that is smaller: the page stays vector,
// its text sharp at every zoom, and weighs about what the page raster did. docs/performance.md
// §4 has the figures.
//
// Browsers draw `data:image/webp` inside an SVG, in `<img>` too (Chrome, Edge, Firefox, Safari 14,
// the same browsers the WebP pages need). librsvg (sharp's SVG loader) does not: nothing on the
// server draws page SVGs.
//
import sharp from 'sharp';
import type { RenderSettings } from './page-pool';

type Raster = RenderSettings['raster'];

/** JPEGs under this many bytes of base64 are left alone: little to gain for a decode and an encode. */
export const MIN_IMAGE_BASE64 = 16 * 1024;

// MuPDF writes a drawn image as `<g transform="matrix(a,b,c,d,e,f)">` (the full transform of the
// image's unit square, scaled by its size) around `<image width height xlink:href="data:…">`.
const JPEG_IMAGE = /<image\b([^>]*?)\bxlink:href="data:image\/jpeg;base64,([^"]*)"/g;
const ENCLOSING_TRANSFORM = /<g transform="matrix\(([^)]*)\)">\s*$/;
const LOOK_BACK = 200;

function attribute(attributes: string, name: string): number {
  const match = new RegExp(`\\b${name}="([0-9.]+)"`).exec(attributes);
  return match ? Number(match[1]) : NaN;
}

/**
 * The image's size on the page in points (its user-space width and height through the enclosing
 * transform), or null when that is not the only place it is drawn (MuPDF draws an image again
 * with `<use xlink:href="#image_N">`, and a page cut from a slice may have it in `<defs>`).
 */
function drawnSize(svg: string, at: number, attributes: string): { width: number; height: number } | null {
  const id = /\bid="([^"]+)"/.exec(attributes);
  if (id && svg.includes(`xlink:href="#${id[1]}"`)) return null;
  const before = svg.slice(Math.max(0, at - LOOK_BACK), at);
  const transform = ENCLOSING_TRANSFORM.exec(before);
  const width = attribute(attributes, 'width');
  const height = attribute(attributes, 'height');
  if (!transform || !(width > 0) || !(height > 0)) return null;
  const [a = NaN, b = NaN, c = NaN, d = NaN] = transform[1]!.split(/[\s,]+/).map(Number);
  if (![a, b, c, d].every(Number.isFinite)) return null;
  return { width: width * Math.hypot(a, b), height: height * Math.hypot(c, d) };
}

/**
 * The JPEG as a WebP at `dpi` of its drawn size (never enlarged), and whether it was reduced; or
 * null when that is no smaller.
 */
async function shrunk(
  jpegBase64: string,
  drawn: { width: number; height: number } | null,
  raster: Raster,
): Promise<{ webp: string; reduced: boolean } | null> {
  const jpeg = Buffer.from(jpegBase64, 'base64');
  const image = sharp(jpeg, { failOn: 'none' });
  const { width, height } = await image.metadata();
  if (!width || !height) return null;
  const longest = Math.max(width, height);
  const target = drawn
    ? {
        width: Math.min(width, Math.ceil((drawn.width * raster.dpi) / 72)),
        height: Math.min(height, Math.ceil((drawn.height * raster.dpi) / 72)),
      }
    : {
        width: Math.min(width, Math.round((width * raster.maxSide) / longest)),
        height: Math.min(height, Math.round((height * raster.maxSide) / longest)),
      };
  const reduced = target.width < width || target.height < height;
  const resized = reduced
    ? image.resize(Math.max(1, target.width), Math.max(1, target.height), { fit: 'fill' })
    : image;
  const webp = (await resized.webp(raster.webpOptions).toBuffer()).toString('base64');
  return webp.length < jpegBase64.replace(/\s/g, '').length ? { webp, reduced } : null;
}

const JPEG_HREF = Buffer.from('xlink:href="data:image/jpeg;base64,');
const IMAGE_OPEN = Buffer.from('<image');
const QUOTE = 0x22;
const LT = 0x3c;

/**
 * The JPEGs shrinkSvgImages would look at (base64 of at least MIN_IMAGE_BASE64 in an `<image>`):
 * their bytes, decoded, and the SVG without them (what is left of the page once they are brought
 * to reading resolution, less those pictures). null for a page without such photos. Found with
 * Buffer searches, the page never made a string: a 500 KiB page in a tenth of a millisecond.
 */
export function photosOf(svg: Buffer): { bytes: number; rest: Buffer } | null {
  const kept: Buffer[] = [];
  let last = 0;
  let bytes = 0;
  for (let at = svg.indexOf(JPEG_HREF); at !== -1; at = svg.indexOf(JPEG_HREF, at + 1)) {
    const start = at + JPEG_HREF.length;
    const end = svg.indexOf(QUOTE, start);
    if (end === -1) break;
    const tag = svg.lastIndexOf(LT, at);
    if (end - start < MIN_IMAGE_BASE64 || tag === -1 || !svg.subarray(tag, tag + IMAGE_OPEN.length).equals(IMAGE_OPEN))
      continue;
    bytes += Math.floor(((end - start) * 3) / 4);
    kept.push(svg.subarray(last, start));
    last = end;
    at = end;
  }
  if (bytes === 0) return null;
  kept.push(svg.subarray(last));
  return { bytes, rest: Buffer.concat(kept) };
}

/**
 * The page's SVG with each JPEG of at least MIN_IMAGE_BASE64 replaced by a WebP at the reading
 * resolution of its drawn size, where smaller; every other byte as it was. A JPEG sharp cannot
 * read stays as MuPDF wrote it. `readingBytes`: the bytes of those WebPs that were reduced to
 * reading resolution, what a raster of the page would spend on the same pictures at the same
 * resolution (one at its own resolution or below, a raster would resample, and may soften).
 */
export async function shrinkSvgImages(
  svgBytes: Buffer,
  raster: Raster,
): Promise<{ svg: Buffer; readingBytes: number }> {
  if (!svgBytes.includes('data:image/jpeg;base64,')) return { svg: svgBytes, readingBytes: 0 };
  // latin1: one character a byte, and the replaced parts are ASCII.
  const svg = svgBytes.toString('latin1');
  const parts: string[] = [];
  let last = 0;
  let readingBytes = 0;
  for (const match of svg.matchAll(JPEG_IMAGE)) {
    const payload = match[2]!;
    if (payload.length < MIN_IMAGE_BASE64) continue;
    const smaller = await shrunk(payload, drawnSize(svg, match.index, match[1]!), raster).catch(() => null);
    if (!smaller) continue;
    parts.push(svg.slice(last, match.index), `<image${match[1]}xlink:href="data:image/webp;base64,${smaller.webp}"`);
    last = match.index + match[0].length;
    if (smaller.reduced) readingBytes += Buffer.byteLength(smaller.webp, 'base64');
  }
  if (parts.length === 0) return { svg: svgBytes, readingBytes };
  parts.push(svg.slice(last));
  return { svg: Buffer.from(parts.join(''), 'latin1'), readingBytes };
}
