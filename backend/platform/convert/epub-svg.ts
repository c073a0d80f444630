import { open } from 'node:fs/promises';
import { crc32, deflateRawSync } from 'node:zlib';
import yauzl from 'yauzl';
import { ConversionError } from './errors';

// MuPDF (the npm build has no SVG handler) lays out an inline <svg> of an EPUB page as the text
// "[image]". calibre makes the cover page of every EPUB it writes so (titlepage.xhtml: an <svg>
// holding an <image xlink:href="cover.jpeg">), as do Sigil and many publishers: the book opened
// on a page that said "[image]", and its description began with it. Before MuPDF sees such a
// book, each inline <svg> holding images becomes those images as <img> (which MuPDF paints,
// fitted to the page), in a copy of the EPUB; the other entries are copied as they are stored.

/** The pages of an EPUB (XHTML or HTML) whose markup is read for inline SVG. */
const CONTENT_DOCUMENT = /\.(xhtml|html|htm|xml)$/i;

// The markup is matched as Latin-1, byte for byte: a page in GBK or UTF-8 keeps its bytes, only
// the ASCII of the markup replaced. An svg element may carry a namespace prefix (<svg:svg>).
const INLINE_SVG = /<((?:[\w.-]+:)?)svg\b([^>]*)>([\s\S]*?)<\/\1svg\s*>/g;
const IMAGE = /<(?:[\w.-]+:)?image\b([^>]*?)\/?>/g;
const HREF = /(?:^|\s)(?:[\w.-]+:)?href\s*=\s*("[^"]*"|'[^']*')/;
const WIDTH = /(?:^|\s)width\s*=\s*(?:"([^"]*)"|'([^']*)')/;
const CSS_LENGTH = /^\d+(\.\d+)?(%|px|pt|em|rem|in|cm|mm)?$/;

/**
 * The page's markup with every inline <svg> that holds images replaced by those images as <img>,
 * as wide as the svg was (calibre's covers: 100 %, the page's width; no width: 100 %, as a
 * browser draws an outer svg), or null when it has none. The image keeps its proportions;
 * MuPDF scales an image larger than the page down to fit it.
 */
export function inlineSvgImagesAsImg(markup: string): string | null {
  let changed = false;
  const result = markup.replace(INLINE_SVG, (svg, _prefix: string, attributes: string, body: string) => {
    const hrefs = [...body.matchAll(IMAGE)].map((image) => HREF.exec(image[1]!)?.[1]).filter((href) => !!href);
    if (hrefs.length === 0) return svg;
    changed = true;
    const width = WIDTH.exec(attributes);
    const declared = (width?.[1] ?? width?.[2] ?? '').trim();
    const css = CSS_LENGTH.test(declared) ? (/\d$/.test(declared) ? `${declared}px` : declared) : '100%';
    return hrefs.map((href) => `<img src=${href} alt="" style="width:${css}"/>`).join('');
  });
  return changed ? result : null;
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
 * Writes to `target` a copy of the EPUB at `source` whose pages have their inline SVG images as
 * <img> (inlineSvgImagesAsImg), and answers true; false, writing nothing, when no page has any
 * (or the book is too large for a plain zip, which no EPUB is). The archive was checked already
 * (archive-guard.ts): only the pages are inflated here, the other entries are copied as stored.
 */
export async function epubWithSvgImagesAsImg(source: string, target: string, signal?: AbortSignal): Promise<boolean> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(source, { lazyEntries: true, decodeStrings: false, autoClose: false });
  } catch (error) {
    throw new ConversionError('corrupt', { detail: `zip: ${(error as Error).message}` });
  }
  try {
    const entries: yauzl.Entry[] = [];
    const pages = new Map<yauzl.Entry, Buffer>();
    for await (const entry of zip.eachEntry()) {
      if (signal?.aborted) throw new ConversionError('aborted');
      entries.push(entry);
      if (!CONTENT_DOCUMENT.test(entry.fileNameRaw.toString('latin1'))) continue;
      const markup = (await inflated(zip, entry)).toString('latin1');
      if (!/svg/i.test(markup)) continue;
      const rewritten = inlineSvgImagesAsImg(markup);
      if (rewritten !== null) pages.set(entry, Buffer.from(rewritten, 'latin1'));
    }
    if (pages.size === 0 || entries.length >= 0xffff || zip.fileSize >= ZIP32_LIMIT / 2) return false;

    const file = await open(target, 'w');
    try {
      let offset = 0;
      const write = async (bytes: Buffer) => {
        await file.write(bytes);
        offset += bytes.length;
      };
      const written: WrittenEntry[] = [];
      for (const entry of entries) {
        if (signal?.aborted) throw new ConversionError('aborted');
        const page = pages.get(entry);
        const body = page && deflateRawSync(page);
        const record: WrittenEntry = page
          ? {
              entry,
              method: DEFLATE,
              crc: crc32(page),
              compressedSize: body!.length,
              uncompressedSize: page.length,
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
