// Paged texts (a document's pages, a form feed between them) as the index keeps them: one
// normalised text, the pages joined as a line break joins them (a word that a page break cut
// is whole: the same text, tokens and snippets as without the form feeds), and the UTF-8 byte
// offset where each page starts in it, from which a hit tells the page of its snippet.
import { isCjkCodePoint } from '../../../shared/searchable-text';
import { normalizeText } from './bigrams';

/** What separates the pages of a paged entry's content. */
export const PAGE_BREAK = '\f';

const OFFSET_BYTES = 4;

function isCjkBefore(text: string, end: number): boolean {
  const code = text.charCodeAt(end - 1);
  const cp = code >= 0xdc00 && code <= 0xdfff && end >= 2 ? text.codePointAt(end - 2) : code;
  return cp !== undefined && isCjkCodePoint(cp);
}

/**
 * `normalizeText` of the pages joined by line breaks, and where each page starts in it (UTF-8
 * bytes, 32-bit little-endian each; an empty page starts where the next one does).
 */
export function normalizePages(content: string): { text: string; starts: Buffer } {
  const pages = content.split(PAGE_BREAK);
  const starts = Buffer.alloc(pages.length * OFFSET_BYTES);
  const parts: string[] = [];
  let last = '';
  let bytes = 0;
  pages.forEach((page, index) => {
    const normalized = normalizeText(page);
    if (normalized && last) {
      // normalizeText drops a line break between two CJK characters, makes any other one a space.
      const joint = isCjkBefore(last, last.length) && isCjkCodePoint(normalized.codePointAt(0)!) ? '' : ' ';
      parts.push(joint);
      bytes += joint.length;
    }
    starts.writeUInt32LE(bytes, index * OFFSET_BYTES);
    if (!normalized) return;
    parts.push(normalized);
    bytes += Buffer.byteLength(normalized);
    last = normalized;
  });
  return { text: parts.join(''), starts };
}

/** How many pages a paged text's page starts tell of; 0 without them. */
export function pageCount(starts: Buffer | null): number {
  return starts ? Math.floor(starts.length / OFFSET_BYTES) : 0;
}

/** Where page `page` (1-based, one the starts tell of) starts in a paged text, in UTF-8 bytes. */
export function pageStart(starts: Buffer, page: number): number {
  return starts.readUInt32LE((page - 1) * OFFSET_BYTES);
}

/** The page (1-based) holding byte `at` of a paged text, from its page starts; 0 without them. */
export function pageAt(starts: Buffer | null, at: number): number {
  const count = pageCount(starts);
  if (!starts || count === 0 || at < 0) return 0;
  // The last page starting at or before `at` (empty pages start where the next one does).
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (starts.readUInt32LE(middle * OFFSET_BYTES) <= at) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}
