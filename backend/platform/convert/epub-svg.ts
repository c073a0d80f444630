import { createWriteStream } from 'node:fs';
import type { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { ConversionError } from './errors';

// MuPDF's npm build has no SVG and no WebP handler: it lays out an inline <svg> of an EPUB page,
// and an <img> of an SVG or WebP file, as the text "[image]". calibre makes the cover page of
// every EPUB it writes so (titlepage.xhtml: an <svg> holding an <image xlink:href="cover.jpeg">),
// as do Sigil and many publishers: the book opened on a page that said "[image]", and its
// description began with it. Before MuPDF sees such a book, in a copy of the EPUB: an inline
// <svg> holding images becomes those images as <img> (which MuPDF paints, fitted to the page);
// one drawn without an image becomes an <img> of it drawn by librsvg (sharp) as a PNG; an SVG or
// WebP file becomes a PNG under its own name (MuPDF knows an image by its bytes, not its name).
// The other entries keep their data and their compression (yazl writes the copy).

/** The pages of an EPUB (XHTML or HTML) whose markup is read for inline SVG. */
const CONTENT_DOCUMENT = /\.(xhtml|html|htm|xml)$/i;

// The markup is matched as Latin-1, byte for byte: a page in GBK or UTF-8 keeps its bytes, only
// the ASCII of the markup replaced. An svg element may carry a namespace prefix (<svg:svg>).
const INLINE_SVG = /<((?:[\w.-]+:)?)svg\b([^>]*)>([\s\S]*?)<\/\1svg\s*>/g;
const IMAGE = /<(?:[\w.-]+:)?image\b([^>]*?)\/?>/g;
const HREF = /(?:^|\s)(?:[\w.-]+:)?href\s*=\s*("[^"]*"|'[^']*')/;
const WIDTH = /(?:^|\s)width\s*=\s*(?:"([^"]*)"|'([^']*)')/;
const CSS_LENGTH = /^\d+(\.\d+)?(%|px|pt|em|rem|in|cm|mm)?$/;
const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';
const XLINK_NAMESPACE = 'http://www.w3.org/1999/xlink';

/**
 * The largest page or image read here, inflated: the archive's limit (1 GiB by default) is no
 * size to hold in memory, and no EPUB's page or picture comes near it. A larger one is copied as
 * it is.
 */
const MAX_READ_BYTES = 32 * 1024 ** 2;

/** Image files MuPDF cannot decode, by their name: drawn as PNG by sharp. */
const UNREADABLE_IMAGE = /\.(svg|svgz|webp)$/i;
/** The longest side of an SVG or WebP drawn as PNG, in pixels (as a page's raster: RENDER_SETTINGS). */
const MAX_SIDE = 2480;
// librsvg draws an SVG's pixel as one pixel at 72 dpi. An SVG file, shown at its size, is drawn
// so: MuPDF shows a PNG's pixel as 0.75 pt, a CSS pixel as a browser does. An inline svg has the
// width of its <img>, and is drawn with twice as many pixels, to stay sharp when the reader zooms.
const FILE_DENSITY = 72;
const INLINE_DENSITY = 144;

/** The CSS width of an <img> standing for an inline <svg> with these attributes. */
function widthOf(attributes: string): string {
  const width = WIDTH.exec(attributes);
  const declared = (width?.[1] ?? width?.[2] ?? '').trim();
  if (!CSS_LENGTH.test(declared)) return '100%';
  return /\d$/.test(declared) ? `${declared}px` : declared;
}

/**
 * The page's markup with every inline <svg> that holds images replaced by those images as <img>,
 * and every other one by the <img> of its PNG that `draw` gives (null: left as it is), as wide as
 * the svg was (calibre's covers: 100 %, the page's width; no width: 100 %, as a browser draws an
 * outer svg); null when nothing changed. The image keeps its proportions; MuPDF scales an image
 * larger than the page down to fit it.
 */
export async function inlineSvgAsImg(
  markup: string,
  draw: (svg: string) => Promise<Buffer | null>,
): Promise<string | null> {
  const replacements: (string | null)[] = [];
  for (const [svg, prefix, attributes, body] of markup.matchAll(INLINE_SVG)) {
    const style = `width:${widthOf(attributes!)}`;
    const hrefs = [...body!.matchAll(IMAGE)].map((image) => HREF.exec(image[1]!)?.[1]).filter((href) => !!href);
    if (hrefs.length > 0) {
      replacements.push(hrefs.map((href) => `<img src=${href} alt="" style="${style}"/>`).join(''));
      continue;
    }
    const png = await draw(standalone(svg, prefix!));
    replacements.push(png && `<img src="data:image/png;base64,${png.toString('base64')}" alt="" style="${style}"/>`);
  }
  if (replacements.every((replacement) => replacement === null)) return null;
  let next = 0;
  return markup.replace(INLINE_SVG, (svg) => replacements[next++] ?? svg);
}

/** An inline svg as a document of its own: the namespaces its page declared on an ancestor, declared on it. */
function standalone(svg: string, prefix: string): string {
  const declare = (name: string, uri: string) => (svg.includes(`${name}=`) ? '' : ` ${name}="${uri}"`);
  const namespaces =
    declare(prefix ? `xmlns:${prefix.slice(0, -1)}` : 'xmlns', SVG_NAMESPACE) + declare('xmlns:xlink', XLINK_NAMESPACE);
  return svg.replace(/^<[^\s>/]+/, (tag) => tag + namespaces);
}

/**
 * An SVG (a document, or a WebP image) drawn as PNG by librsvg or libwebp through sharp, its longest side at most
 * MAX_SIDE pixels; null when sharp cannot read it.
 */
async function drawnAsPng(image: Buffer, density: number): Promise<Buffer | null> {
  try {
    // sharp loads with the first image to draw, not at the process's start (as converter.ts).
    const { default: sharp } = await import('sharp');
    const { width = 0, height = 0 } = await sharp(image, { density }).metadata();
    if (width === 0 || height === 0) return null;
    const scale = Math.min(1, MAX_SIDE / Math.max(width, height));
    return await sharp(image, { density: Math.max(1, density * scale) })
      .resize(Math.min(MAX_SIDE, Math.round(width * scale)) || 1, null, { withoutEnlargement: true })
      .png()
      .toBuffer();
  } catch {
    return null;
  }
}

/** General purpose flag bit 11: the entry's name is UTF-8 (else CP437, read here byte for byte). */
const UTF8_NAME = 0x0800;
const STORE = 0;

/** Bytes of the entry's data, inflated. */
async function inflated(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Writes to `target` a copy of the EPUB at `source` in which MuPDF finds no SVG or WebP (see above), and answers
 * true; false, writing nothing, when it has none. The archive was checked already (archive-guard.ts): only the pages
 * and the SVG and WebP files are held in memory here, the other entries stream through.
 */
export async function epubWithoutSvg(source: string, target: string, signal?: AbortSignal): Promise<boolean> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(source, { lazyEntries: true, decodeStrings: false, autoClose: false });
  } catch (error) {
    throw new ConversionError('corrupt', { detail: `zip: ${(error as Error).message}` });
  }
  try {
    const entries: yauzl.Entry[] = [];
    /** the new bytes of an entry, deflated (a page) or stored (a PNG, compressed already) */
    const replaced = new Map<yauzl.Entry, { bytes: Buffer; deflate: boolean }>();
    for await (const entry of zip.eachEntry()) {
      if (signal?.aborted) throw new ConversionError('aborted');
      entries.push(entry);
      const name = entry.fileNameRaw.toString('latin1');
      if (entry.uncompressedSize > MAX_READ_BYTES) continue;
      if (UNREADABLE_IMAGE.test(name)) {
        const png = await drawnAsPng(await inflated(zip, entry), FILE_DENSITY);
        if (png) replaced.set(entry, { bytes: png, deflate: false });
      } else if (CONTENT_DOCUMENT.test(name)) {
        const markup = (await inflated(zip, entry)).toString('latin1');
        if (!/svg/i.test(markup)) continue;
        const rewritten = await inlineSvgAsImg(markup, (svg) => drawnAsPng(Buffer.from(svg, 'latin1'), INLINE_DENSITY));
        if (rewritten !== null) replaced.set(entry, { bytes: Buffer.from(rewritten, 'latin1'), deflate: true });
      }
    }
    if (replaced.size === 0) return false;

    // yazl writes the copy: a replaced entry from its new bytes, any other from its inflated data,
    // compressed as it was (the EPUB's `mimetype` first and stored, as the format requires). yazl
    // reports a failure (a name it refuses, an entry's data that cannot be read) on the ZipFile.
    const copy = new yazl.ZipFile();
    const failed = new Promise<never>((_, reject) => copy.once('error', reject));
    const written = pipeline(copy.outputStream, createWriteStream(target));
    try {
      for (const entry of entries) {
        const name = entry.fileNameRaw.toString(entry.generalPurposeBitFlag & UTF8_NAME ? 'utf8' : 'latin1');
        const options = { mtime: entry.getLastModDate(), compress: entry.compressionMethod !== STORE };
        const replacement = replaced.get(entry);
        if (name.endsWith('/')) copy.addEmptyDirectory(name, { mtime: options.mtime });
        else if (replacement) copy.addBuffer(replacement.bytes, name, { ...options, compress: replacement.deflate });
        else
          copy.addReadStreamLazy(name, { ...options, size: entry.uncompressedSize }, (done) => {
            if (signal?.aborted) return copy.emit('error', new ConversionError('aborted'));
            zip.openReadStream(entry, (error, data) => {
              data?.on('error', (cause) => copy.emit('error', cause));
              done(error, data);
            });
          });
      }
      copy.end();
      await Promise.race([written, failed]);
    } catch (error) {
      written.catch(() => undefined);
      (copy.outputStream as PassThrough).destroy();
      throw error;
    }
    return true;
  } catch (error) {
    if (error instanceof ConversionError) throw error;
    throw new ConversionError('corrupt', { detail: `zip: ${(error as Error).message}` });
  } finally {
    zip.close();
  }
}
