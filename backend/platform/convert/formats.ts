import { open } from 'node:fs/promises';
import { extensionGroups } from '../../../shared/constants';
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
  /** How the upload is handed over: as it is, decoded to UTF-8 first, or re-encoded as PNG. */
  input: 'as-is' | 'utf8-text' | 'png-image';
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

/** The kind of content of a file, from its first bytes. */
export async function sniffContent(path: string): Promise<ContentKind> {
  const file = await open(path, 'r');
  try {
    const head = new Uint8Array(HEAD_BYTES);
    const { bytesRead } = await file.read(head, 0, HEAD_BYTES, 0);
    if (bytesRead === 0) return 'empty';
    const bytes = head.subarray(0, bytesRead);
    // The PDF header may follow some junk within the first kilobyte (PDF 32000-1, annex H).
    if (Buffer.from(bytes.subarray(0, 1024)).includes('%PDF-')) return 'pdf';
    if (startsWith(bytes, 'PK\x03\x04') || startsWith(bytes, 'PK\x05\x06')) return 'zip';
    if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'ole';
    if (startsWith(bytes, '{\\rtf')) return 'rtf';
    if (startsWith(bytes, 'ITSF')) return 'chm';
    if (startsWith(bytes, 'BOOKMOBI', 60)) {
      const version = await mobiVersion(file, bytes);
      if (version === null) return 'binary';
      return version >= 8 ? 'kf8' : 'mobi';
    }
    if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
    if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
    if (startsWith(bytes, 'GIF87a') || startsWith(bytes, 'GIF89a')) return 'gif';
    if (startsWith(bytes, 'BM')) return 'bmp';
    if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
    if (startsWith(bytes, 'RIFF') && startsWith(bytes, 'WEBP', 8)) return 'webp';
    return decodeTextFile(bytes, { partial: bytesRead === HEAD_BYTES }) === null ? 'binary' : 'text';
  } finally {
    await file.close();
  }
}

const IMAGE_KINDS: readonly ContentKind[] = ['jpeg', 'png', 'gif', 'bmp', 'tiff', 'webp'];

function groupExtensions(...keys: string[]): Set<string> {
  return new Set(extensionGroups.filter((group) => keys.includes(group.key)).flatMap((group) => group.extensions));
}

const DELIMITED_TEXT: Record<string, string> = {
  // LibreOffice CSV filter options: field separator, text delimiter, character set 76 = UTF-8, first line.
  csv: 'CSV:44,34,76,1',
  tsv: 'CSV:9,34,76,1',
};
const OFFICE_EXTENSIONS = new Set(
  [...groupExtensions('word', 'ppt', 'excel')].filter((ext) => !(ext in DELIMITED_TEXT)),
);
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

  if (ext === 'pdf') {
    expect(['pdf']);
    return { converter: 'mupdf', input: 'as-is', mupdfName: 'document.pdf', archive: false };
  }
  if (OFFICE_EXTENSIONS.has(ext)) {
    // Many ".doc" files are RTF, HTML or docx in disguise; LibreOffice detects those itself.
    expect(OFFICE_CONTENT);
    return { converter: 'libreoffice', input: 'as-is', archive: content === 'zip' };
  }
  if (ext in DELIMITED_TEXT) {
    expect(['text']);
    return { converter: 'libreoffice', input: 'utf8-text', libreofficeFilter: DELIMITED_TEXT[ext], archive: false };
  }
  if (TEXT_EXTENSIONS.has(ext)) {
    expect(['text']);
    return { converter: 'mupdf', input: 'utf8-text', mupdfName: 'document.txt', reflowable: true, archive: false };
  }
  switch (ext) {
    case 'epub':
      expect(['zip']);
      return { converter: 'mupdf', input: 'as-is', mupdfName: 'document.epub', reflowable: true, archive: true };
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
