import { open } from 'node:fs/promises';
import { crc32, deflateRawSync } from 'node:zlib';
import yauzl from 'yauzl';
import { ConversionError } from './errors';

// MuPDF's npm build has no SVG and no WebP handler: it lays out an inline <svg> of an EPUB page,
// and an <img> of an SVG or WebP file, as the text "[image]". calibre makes the cover page of
// every EPUB it writes so (titlepage.xhtml: an <svg> holding an <image xlink:href="cover.jpeg">),
// as do Sigil and many publishers: the book opened on a page that said "[image]", and its
// description began with it. Before MuPDF sees such a book, in a copy of the EPUB: an inline
// <svg> holding images becomes those images as <img> (which MuPDF paints, fitted to the page);
// one drawn without an image becomes an <img> of it drawn by librsvg (sharp) as a PNG; an SVG or
// WebP file becomes a PNG under its own name (MuPDF knows an image by its bytes, not its name).
// The other entries are copied as they are stored.

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

/** Bytes of the entry's data, inflated. */
async function inflated(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
/** General purpose flag bit 3: sizes in a data descriptor after the data (ours go in the header). */
const DATA_DESCRIPTOR = 0x0008;
const STORE = 0;
const DEFLATE = 8;
const ZIP32_LIMIT = 0xffffffff;

interface WrittenEntry {
  entry: yauzl.Entry;
  method: number;
  crc: number;
  compressedSize: number;
  uncompressedSize: number;
  offset: number;
}

/** The fields a local header and a central directory record share, from `versionNeeded` to the name's length. */
function sharedFields(written: WrittenEntry): Buffer {
  const { entry } = written;
  const fields = Buffer.alloc(26);
  // a page deflated here needs 2.0 to extract, whatever its stored entry needed
  fields.writeUInt16LE(
    written.method === DEFLATE ? Math.max(20, entry.versionNeededToExtract) : entry.versionNeededToExtract,
    0,
  );
  fields.writeUInt16LE(entry.generalPurposeBitFlag & ~DATA_DESCRIPTOR, 2);
  fields.writeUInt16LE(written.method, 4);
  fields.writeUInt16LE(entry.lastModFileTime, 6);
  fields.writeUInt16LE(entry.lastModFileDate, 8);
  fields.writeUInt32LE(written.crc >>> 0, 10);
  fields.writeUInt32LE(written.compressedSize, 14);
  fields.writeUInt32LE(written.uncompressedSize, 18);
  fields.writeUInt16LE(entry.fileNameRaw.length, 22);
  fields.writeUInt16LE(0, 24); // no extra field
  return fields;
}

function signature(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(value);
  return bytes;
}

function centralRecord(written: WrittenEntry): Buffer {
  const { entry } = written;
  const shared = sharedFields(written);
  const tail = Buffer.alloc(14);
  tail.writeUInt16LE(0, 0); // no comment
  tail.writeUInt16LE(0, 2); // disk 0
  tail.writeUInt16LE(entry.internalFileAttributes, 4);
  tail.writeUInt32LE(entry.externalFileAttributes >>> 0, 6);
  tail.writeUInt32LE(written.offset, 10);
  const madeBy = Buffer.alloc(2);
  madeBy.writeUInt16LE(entry.versionMadeBy);
  return Buffer.concat([signature(CENTRAL_HEADER), madeBy, shared, tail, entry.fileNameRaw]);
}

/**
 * Writes to `target` a copy of the EPUB at `source` in which MuPDF finds no SVG or WebP (see above), and answers
 * true; false, writing nothing, when it has none (or is too large for a plain zip, which no EPUB is). The archive was
 * checked already (archive-guard.ts): only the pages and the SVG and WebP files are inflated here, the other entries
 * are copied as stored.
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
    if (replaced.size === 0 || entries.length >= 0xffff || zip.fileSize >= ZIP32_LIMIT / 2) return false;

    const file = await open(target, 'w');
    try {
      let offset = 0;
      const write = async (bytes: Buffer) => {
        for (let done = 0; done < bytes.length;)
          done += (await file.write(bytes, done, bytes.length - done)).bytesWritten;
        offset += bytes.length;
      };
      const written: WrittenEntry[] = [];
      for (const entry of entries) {
        if (signal?.aborted) throw new ConversionError('aborted');
        const replacement = replaced.get(entry);
        const body = replacement && (replacement.deflate ? deflateRawSync(replacement.bytes) : replacement.bytes);
        const record: WrittenEntry = replacement
          ? {
              entry,
              method: replacement.deflate ? DEFLATE : STORE,
              crc: crc32(replacement.bytes),
              compressedSize: body!.length,
              uncompressedSize: replacement.bytes.length,
              offset,
            }
          : {
              entry,
              method: entry.compressionMethod,
              crc: entry.crc32,
              compressedSize: entry.compressedSize,
              uncompressedSize: entry.uncompressedSize,
              offset,
            };
        await write(Buffer.concat([signature(LOCAL_HEADER), sharedFields(record), entry.fileNameRaw]));
        if (body) await write(body);
        else
          for await (const chunk of await zip.openReadStreamPromise(entry, { decodeFileData: false }))
            await write(chunk as Buffer);
        written.push(record);
      }
      const directoryOffset = offset;
      for (const record of written) await write(centralRecord(record));
      const end = Buffer.alloc(22);
      end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
      end.writeUInt16LE(written.length, 8);
      end.writeUInt16LE(written.length, 10);
      end.writeUInt32LE(offset - directoryOffset, 12);
      end.writeUInt32LE(directoryOffset, 16);
      await write(end);
    } finally {
      await file.close();
    }
    return true;
  } catch (error) {
    if (error instanceof ConversionError) throw error;
    throw new ConversionError('corrupt', { detail: `zip: ${(error as Error).message}` });
  } finally {
    zip.close();
  }
}
