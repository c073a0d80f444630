import { open, readFile } from 'node:fs/promises';
import * as CFB from 'cfb';
import { extensionGroup, extensionGroups } from '../../../shared/constants';
import { ConversionError } from './errors';
import { decodeTextFile } from './text';

// Which converter takes which upload, decided from the extension the uploader gave AND the
// bytes of the file: an extension that lies about the content ends here, before any converter.
//
// Measured with the npm `mupdf` 1.28 build (see backend/platform/README.md, "convert"): it opens
// PDF, EPUB, MOBI (version 6, not KF8), FB2, CBZ, plain text and JPEG/PNG/GIF/BMP/TIFF itself,
// with CJK fonts built in. It does not open XPS, SVG, WebP, KF8 (azw3), CHM, and its Office
// readers (docx/xlsx/pptx/odt) lose most of the content: those go to LibreOffice.

export type ConverterName = 'mupdf' | 'libreoffice' | 'calibre';

/** What the bytes are, from their signature. */
export type ContentKind =
  | 'empty'
  | 'pdf'
  | 'zip'
  | 'ole' // OLE2 compound file: doc, xls, ppt, wps, et, dps
  | 'ole-encrypted' // one that needs a password to open (an encrypted docx, xlsx, pptx is one too)
  | 'rtf'
  | 'mobi' // MOBI version 6 or older (MuPDF reads it)
  | 'kf8' // MOBI version 8 (azw3 and newer Kindle files)
  | 'chm'
  | 'jpeg'
  | 'png'
  | 'gif'
  | 'bmp'
  | 'tiff'
  | 'webp'
  | 'text'
  | 'binary';

export interface FormatPlan {
  converter: ConverterName;
  /**
   * How the upload is handed over: as it is, decoded to UTF-8 first, re-encoded as PNG, as an
   * Office file that is text (officeTextImport decides), or as an EPUB whose SVG and WebP
   * images become <img> of PNG first (epub-svg.ts).
   */
  input: 'as-is' | 'utf8-text' | 'png-image' | 'office-text' | 'epub';
  /** The file name MuPDF recognises the format by (MuPDF plans). */
  mupdfName?: string;
  /** Reflowable formats are laid out on pages of one size (MuPDF plans). */
  reflowable?: boolean;
  /** LibreOffice's import filter when its guess is not wanted (CSV, TSV). */
  libreofficeFilter?: string;
  /** A zip container, checked for bombs before the converter opens it. */
  archive: boolean;
}

const HEAD_BYTES = 4096;

function startsWith(head: Uint8Array, signature: string | number[], at = 0): boolean {
  const bytes = typeof signature === 'string' ? Array.from(signature, (c) => c.charCodeAt(0)) : signature;
  return bytes.every((byte, i) => head[at + i] === byte);
}

/** MOBI files are PalmDB databases; the MOBI header in record 0 says the format version. */
async function mobiVersion(file: Awaited<ReturnType<typeof open>>, head: Uint8Array): Promise<number | null> {
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  if (head.length < 86) return null;
  const record0 = view.getUint32(78);
  const header = new Uint8Array(32);
  const { bytesRead } = await file.read(header, 0, header.length, record0 + 16);
  if (bytesRead < 28 || !startsWith(header, 'MOBI')) return null;
  return new DataView(header.buffer).getUint32(20);
}

/** In an Excel 97-2003 workbook stream, the record that says it is encrypted, and the end of its globals. */
const BIFF_FILEPASS = 0x002f;
const BIFF_EOF = 0x000a;

/**
 * Whether an OLE compound file needs a password to open (MS-OFFCRYPTO): LibreOffice would work
 * on it for seconds and then only say it failed. An Office 2007+ file protected so is its zip
 * package encrypted inside a compound file (`EncryptedPackage`); a Word 97-2003 document says so
 * in its FIB (fEncrypted, bit 8 of the flags at 0x0A); an Excel one has a FILEPASS record among
 * its first; a PowerPoint one keeps its summary encrypted (`EncryptedSummary`). A compound file
 * cfb cannot read is left to LibreOffice, which says what it makes of it.
 */
function needsPassword(bytes: Buffer): boolean {
  let container: CFB.CFB$Container;
  try {
    container = CFB.read(bytes, { type: 'buffer' });
  } catch {
    return false;
  }
  if (CFB.find(container, 'EncryptedPackage') || CFB.find(container, 'EncryptedSummary')) return true;
  const word = CFB.find(container, 'WordDocument');
  if (word && word.content.length >= 12) {
    const fib = Buffer.from(word.content);
    if (fib.readUInt16LE(0) === 0xa5ec && (fib.readUInt16LE(0x0a) & 0x0100) !== 0) return true;
  }
  const book = CFB.find(container, 'Workbook') ?? CFB.find(container, 'Book');
  if (book) {
    const stream = Buffer.from(book.content);
    for (let at = 0, records = 0; at + 4 <= stream.length && records < 64; records++) {
      const type = stream.readUInt16LE(at);
      if (type === BIFF_FILEPASS) return true;
      if (type === BIFF_EOF) break;
      at += 4 + stream.readUInt16LE(at + 2);
    }
  }
  return false;
}

/**
 * What the first bytes (up to HEAD_BYTES) say by their signature alone: `ole` also for a compound
 * file that needs a password, `mobi-book` for a PalmDB book whose MOBI version lies further in.
 */
function signatureOf(bytes: Uint8Array, partial: boolean): ContentKind | 'mobi-book' {
  if (bytes.length === 0) return 'empty';
  // The PDF header may follow some junk within the first kilobyte (PDF 32000-1, annex H).
  if (Buffer.from(bytes.subarray(0, 1024)).includes('%PDF-')) return 'pdf';
  if (startsWith(bytes, 'PK\x03\x04') || startsWith(bytes, 'PK\x05\x06')) return 'zip';
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'ole';
  if (startsWith(bytes, '{\\rtf')) return 'rtf';
  if (startsWith(bytes, 'ITSF')) return 'chm';
  if (startsWith(bytes, 'BOOKMOBI', 60)) return 'mobi-book';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, 'GIF87a') || startsWith(bytes, 'GIF89a')) return 'gif';
  if (startsWith(bytes, 'BM')) return 'bmp';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  if (startsWith(bytes, 'RIFF') && startsWith(bytes, 'WEBP', 8)) return 'webp';
  return decodeTextFile(bytes, { partial }) === null ? 'binary' : 'text';
}

/** The kind of content of a file, from its first bytes (an OLE compound file: read whole). */
export async function sniffContent(path: string): Promise<ContentKind> {
  const file = await open(path, 'r');
  try {
    const head = new Uint8Array(HEAD_BYTES);
    const { bytesRead } = await file.read(head, 0, HEAD_BYTES, 0);
    const bytes = head.subarray(0, bytesRead);
    const kind = signatureOf(bytes, bytesRead === HEAD_BYTES);
    if (kind === 'ole') return needsPassword(await readFile(path)) ? 'ole-encrypted' : 'ole';
    if (kind === 'mobi-book') {
      const version = await mobiVersion(file, bytes);
      if (version === null) return 'binary';
      return version >= 8 ? 'kf8' : 'mobi';
    }
    return kind;
  } finally {
    await file.close();
  }
}

/**
 * The content-mismatch a file of this extension starting with `head` would fail to convert with
 * (a .pdf that is a zip, a .docx that is a PDF, a .txt that is an image), or null: what the
 * first bytes tell alone, for the upload to refuse at once. A MOBI book passes as MOBI 6 (both
 * versions suit the same extensions); a password or an empty file are the conversion's to find.
 */
export function contentMismatchOf(extension: string, head: Uint8Array): ConversionError | null {
  const bytes = head.subarray(0, HEAD_BYTES);
  const kind = signatureOf(bytes, bytes.length === HEAD_BYTES);
  const error = refusalOf(extension, kind === 'mobi-book' ? 'mobi' : kind);
  if (error?.reason === 'content-mismatch') return error;
  // An e-book named as an Office file is a zip as the Office file would be, and LibreOffice then
  // fails it only after a long try (LibreOffice 无法转换此文档), telling the uploader nothing.
  const ext = extension.replace(/^\./, '').toLowerCase();
  if (kind === 'zip' && OFFICE_EXTENSIONS.has(ext) && isEpub(bytes))
    return new ConversionError('content-mismatch', {
      detail: `.${ext} holds an EPUB`,
      message: `文件内容与扩展名 .${ext} 不符，无法转换`,
    });
  return null;
}

/** A PDF object's header, `1 0 obj`: its number and generation, apart by PDF white space. */
const PDF_OBJECT = /\d+[\0\t\n\f\r ]+\d+[\0\t\n\f\r ]+obj/;
const PDF_OBJECT_AT = new RegExp(PDF_OBJECT.source, 'y');
/** The start of an object's header cut off by the end of the bytes read (`12 0 ob`). */
const PDF_OBJECT_CUT = /^\d+(?:[\0\t\n\f\r ]+(?:\d+(?:[\0\t\n\f\r ]+(?:ob?)?)?)?)?$/;
const PDF_LINE_END = /[\r\n]/g;
const PDF_WHITE_SPACE = '\0\t\n\f\r ';

/**
 * What follows a PDF's header in `text`, past comments (a `%` to the end of its line) and white
 * space, as a valid PDF may have any amount of them before its first object: an object's header,
 * something else, or nothing before `text` ends.
 */
function afterPdfHeader(text: string, header: number): 'object' | 'junk' | 'open' {
  let at = header;
  while (at < text.length) {
    if (text[at] === '%') {
      PDF_LINE_END.lastIndex = at;
      const end = PDF_LINE_END.exec(text);
      if (!end) return 'open';
      at = end.index + 1;
    } else if (PDF_WHITE_SPACE.includes(text[at]!)) {
      at++;
    } else {
      PDF_OBJECT_AT.lastIndex = at;
      if (PDF_OBJECT_AT.test(text)) return 'object';
      return PDF_OBJECT_CUT.test(text.slice(at)) ? 'open' : 'junk';
    }
  }
  return 'open';
}

/**
 * Whether a file of `size` bytes that begins as a PDF (`%PDF-` within the first kilobyte) holds
 * no object, judged from its first bytes, `head`. MuPDF opens such a file with nothing to repair
 * from (no objects found), so its conversion can only fail. Refused: a file that ends in its
 * header and comments (`%PDF-1.4` alone, or `1 0 obj` only in a comment), and a header followed
 * by junk with no object among `head`. A file whose comments run past `head` is valid however
 * long they are, so it passes: the rest (no object after them, a missing xref, junk after
 * `%%EOF`, a file cut short) is the conversion's to repair or refuse (pdf-completeness.ts).
 * A scan over at most 64 KiB: some microseconds on the request path.
 */
export function pdfWithoutObjects(head: Uint8Array, size: number): boolean {
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (signatureOf(bytes.subarray(0, HEAD_BYTES), false) !== 'pdf') return false;
  const text = bytes.toString('latin1');
  const header = text.indexOf('%PDF-');
  const next = afterPdfHeader(text, header);
  if (next === 'open') return bytes.length >= size;
  // MuPDF repairs a file with junk before its objects by looking for them further on.
  return next === 'junk' && !PDF_OBJECT.test(text.slice(header));
}

/**
 * A zip whose first entry is an EPUB's `mimetype`, stored uncompressed and first as the EPUB
 * container format (OCF) requires, so that its first bytes say what the file is.
 */
function isEpub(bytes: Uint8Array): boolean {
  const MIMETYPE = 'mimetype';
  const EPUB = 'application/epub+zip';
  if (bytes.length < 30) return false;
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const nameLength = view.readUInt16LE(26);
  const extraLength = view.readUInt16LE(28);
  return (
    nameLength === MIMETYPE.length &&
    startsWith(bytes, MIMETYPE, 30) &&
    startsWith(bytes, EPUB, 30 + nameLength + extraLength)
  );
}

const IMAGE_KINDS: readonly ContentKind[] = ['jpeg', 'png', 'gif', 'bmp', 'tiff', 'webp'];

function groupExtensions(...keys: string[]): Set<string> {
  return new Set(extensionGroups.filter((group) => keys.includes(group.key)).flatMap((group) => group.extensions));
}

// LibreOffice's text import filter by its name, with its options: field separator, text
// delimiter, character set 76 = UTF-8, first line. A name it does not know (`CSV`) is not
// refused: a file whose extension LibreOffice maps elsewhere (.xlsx) then opens as plain text.
const CSV_FILTER = 'Text - txt - csv (StarCalc)';
const DELIMITED_TEXT: Record<string, string> = {
  csv: `${CSV_FILTER}:44,34,76,1`,
  tsv: `${CSV_FILTER}:9,34,76,1`,
};
const OFFICE_EXTENSIONS = new Set(
  [...groupExtensions('word', 'ppt', 'excel')].filter((ext) => !(ext in DELIMITED_TEXT)),
);
const SPREADSHEET_EXTENSIONS = new Set([...groupExtensions('excel')].filter((ext) => !(ext in DELIMITED_TEXT)));

// An HTML page says its character set in a <meta> (charset=… or http-equiv Content-Type), which
// LibreOffice follows; without one it reads bytes that are not UTF-8 as Windows-1252.
const HTML_START = /^\s*</;
const DECLARED_CHARSET = /<meta[^>]*charset\s*=/i;
// Writer's own import of HTML and of text in a named character set (options: character set, line
// end, font, language). Left to pick by the extension, LibreOffice opened an HTML "Word" file with
// Writer/Web, whose PDF left the first paragraph out on a blank first page, and an HTML or text
// "PowerPoint" file as an empty slide.
const WRITER_HTML_FILTER = 'HTML (StarWriter)';
const WRITER_TEXT_FILTER = 'Text (encoded):UTF8,LF,,';

/**
 * How LibreOffice gets an Office extension whose bytes are text, as web applications export
 * "Excel" and "Word" files: tab- or comma-separated text, an HTML page or table, or plain text,
 * in UTF-8 or GBK. Left to itself LibreOffice reads such text as Windows-1252. An HTML page that
 * declares its character set goes as it is; other text goes decoded to UTF-8 (decodeTextFile,
 * as a .txt). A spreadsheet extension (.xls, .xlsx, .et, .ods): HTML for Calc's own detection,
 * delimited text with the CSV filter of a .tsv when its first line holds a tab, of a .csv
 * otherwise. A Word or presentation extension: HTML and plain text through Writer's import.
 */
export function officeTextImport(extension: string, text: string): { utf8: boolean; filter?: string } {
  const ext = extension.replace(/^\./, '').toLowerCase();
  const html = HTML_START.test(text);
  const utf8 = !html || !DECLARED_CHARSET.test(text);
  if (!SPREADSHEET_EXTENSIONS.has(ext)) return { utf8, filter: html ? WRITER_HTML_FILTER : WRITER_TEXT_FILTER };
  if (html) return { utf8 };
  const firstLine = text.slice(0, text.search(/\r|\n|$/));
  return { utf8: true, filter: firstLine.includes('\t') ? DELIMITED_TEXT.tsv : DELIMITED_TEXT.csv };
}
const OFFICE_CONTENT: readonly ContentKind[] = ['ole', 'zip', 'rtf', 'text'];
const TEXT_EXTENSIONS = groupExtensions('text');
const MUPDF_IMAGE_EXTENSIONS = new Set(['jpg', 'jpeg', 'png', 'gif', 'bmp', 'tif', 'tiff', 'webp']);

/**
 * The program besides MuPDF that files of this extension need: LibreOffice for Office files
 * (and CSV, TSV), calibre for Kindle KF8 books (azw3 as sold today, azw4) and CHM; null for
 * what MuPDF opens (mobi and azw hold MOBI 6, which it reads, more often than KF8).
 */
export function externalConverterOf(extension: string): 'libreoffice' | 'calibre' | null {
  const ext = extension.replace(/^\./, '').toLowerCase();
  if (OFFICE_EXTENSIONS.has(ext) || ext in DELIMITED_TEXT) return 'libreoffice';
  if (ext === 'azw3' || ext === 'azw4' || ext === 'chm') return 'calibre';
  return null;
}

/**
 * What decides, besides its bytes, how a file of this extension is rendered. The same bytes under
 * two extensions of one route render alike (.jpg and .png: by the content; .doc and .docx:
 * LibreOffice reads the content as Writer); under two routes they need not: a .txt is plain text
 * through MuPDF, a .csv a table through LibreOffice, a .tsv one cut at tabs.
 */
export function renderingRoute(extension: string): string {
  const ext = extension.replace(/^\./, '').toLowerCase();
  if (TEXT_EXTENSIONS.has(ext)) return 'text';
  if (MUPDF_IMAGE_EXTENSIONS.has(ext)) return 'image';
  if (ext === 'mobi' || ext === 'azw' || ext === 'azw3') return 'mobi';
  // LibreOffice picks Writer, Impress or Calc by the extension when the content leaves it a choice (text).
  if (OFFICE_EXTENSIONS.has(ext)) return `office-${extensionGroup(ext)}`;
  return ext;
}

/** The error for a text format (txt, md, csv, fb2…) whose bytes are not text. */
export function notText(ext: string): ConversionError {
  return new ConversionError('content-mismatch', {
    detail: `.${ext} holds binary data`,
    message: '文件不是文本文件，无法转换',
  });
}

/** What converts a file of this extension and content, or a ConversionError saying why nothing does. */
export function planConversion(extension: string, content: ContentKind): FormatPlan {
  const ext = extension.replace(/^\./, '').toLowerCase();
  const mismatch = () =>
    new ConversionError('content-mismatch', {
      detail: `.${ext} holds ${content}`,
      message: `文件内容与扩展名 .${ext} 不符，无法转换`,
    });
  const expect = (kinds: readonly ContentKind[]) => {
    if (kinds.includes(content)) return;
    // Bytes that are no text in any encoding decodeTextFile knows, where only text will do.
    if (content === 'binary' && kinds.length === 1 && kinds[0] === 'text') throw notText(ext);
    throw mismatch();
  };
  if (content === 'empty') throw new ConversionError('empty-file');
  if (content === 'ole-encrypted' && OFFICE_EXTENSIONS.has(ext))
    throw new ConversionError('encrypted', { detail: 'the Office file needs a password to open' });

  if (ext === 'pdf') {
    expect(['pdf']);
    return { converter: 'mupdf', input: 'as-is', mupdfName: 'document.pdf', archive: false };
  }
  if (OFFICE_EXTENSIONS.has(ext)) {
    // Many ".doc" files are RTF, HTML or docx in disguise; LibreOffice detects RTF and docx itself.
    expect(OFFICE_CONTENT);
    if (content === 'text') return { converter: 'libreoffice', input: 'office-text', archive: false };
    return { converter: 'libreoffice', input: 'as-is', archive: content === 'zip' };
  }
  if (ext in DELIMITED_TEXT) {
    expect(['text']);
    return { converter: 'libreoffice', input: 'utf8-text', libreofficeFilter: DELIMITED_TEXT[ext], archive: false };
  }
  if (TEXT_EXTENSIONS.has(ext)) {
    expect(['text']);
    // Laid out from HTML of the text (textAsXhtml), not by MuPDF's text reader.
    return { converter: 'mupdf', input: 'utf8-text', mupdfName: 'document.xhtml', reflowable: true, archive: false };
  }
  switch (ext) {
    case 'epub':
      expect(['zip']);
      return { converter: 'mupdf', input: 'epub', mupdfName: 'document.epub', reflowable: true, archive: true };
    case 'fb2':
      expect(['text']);
      return { converter: 'mupdf', input: 'as-is', mupdfName: 'document.fb2', reflowable: true, archive: false };
    case 'cbz':
      expect(['zip']);
      return { converter: 'mupdf', input: 'as-is', mupdfName: 'document.cbz', archive: true };
    case 'mobi':
    case 'azw':
    case 'azw3':
      expect(['mobi', 'kf8']);
      return content === 'mobi'
        ? { converter: 'mupdf', input: 'as-is', mupdfName: 'document.mobi', reflowable: true, archive: false }
        : { converter: 'calibre', input: 'as-is', archive: false };
    case 'azw4': // print replica: a PDF wrapped in MOBI, which only calibre unwraps
      expect(['mobi', 'kf8']);
      return { converter: 'calibre', input: 'as-is', archive: false };
    case 'chm':
      expect(['chm']);
      return { converter: 'calibre', input: 'as-is', archive: false };
    case 'umd':
      throw new ConversionError('unsupported-format', { detail: 'umd', message: '不支持转换 UMD 格式的电子书' });
  }
  if (MUPDF_IMAGE_EXTENSIONS.has(ext)) {
    expect(IMAGE_KINDS);
    return content === 'webp'
      ? { converter: 'mupdf', input: 'png-image', mupdfName: 'document.png', archive: false }
      : {
          converter: 'mupdf',
          input: 'as-is',
          mupdfName: `document.${content === 'jpeg' ? 'jpg' : content}`,
          archive: false,
        };
  }
  throw new ConversionError('unsupported-format', { detail: ext, message: `不支持转换 .${ext} 格式的文档` });
}

/**
 * The error a conversion of this content under this extension ends with before any converter
 * runs (planConversion), or null when a converter takes it: the check for a document whose file
 * was converted already under another extension.
 */
export function refusalOf(extension: string, content: ContentKind): ConversionError | null {
  try {
    planConversion(extension, content);
    return null;
  } catch (error) {
    if (error instanceof ConversionError) return error;
    throw error;
  }
}
