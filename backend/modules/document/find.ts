import { PAGE_BREAK } from '../../platform/convert/converter';

// Find in one document (the reader's search box): the lines of its text that hold the words, by
// page. The text is the one the conversion kept (NFKC-normalised per page, page-text.ts), and
// the caller passes only the pages the viewer may read (readableText), so a hit never names a
// page or a line past them. Case is folded and the words' spaces collapsed; a hit lies within
// one line (the conversion already joined Chinese words a line break cut, text.ts).

/** One line holding the words: its page (1-based), its text, and where the words are in it (UTF-16 units). */
export interface FoundLine {
  page: number;
  text: string;
  start: number;
  length: number;
}

/** The longest words looked for, and the longest line answered (the words stay inside it). */
export const MAX_FIND_LENGTH = 100;
const MAX_LINE = 200;

/** The words as looked for: NFKC (as the stored text), lower case, spaces collapsed. */
export function foldWords(words: string): string {
  return words.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim().slice(0, MAX_FIND_LENGTH);
}

/** A long line cut around the words, so that each hit stays short on the wire and on screen. */
function lineAround(line: string, start: number): { text: string; start: number } {
  if (line.length <= MAX_LINE) return { text: line, start };
  const from = Math.max(0, Math.min(start - 40, line.length - MAX_LINE));
  return { text: line.slice(from, from + MAX_LINE), start: start - from };
}

/**
 * Every line of `pages` (the readable pages' texts, a form feed between them) that holds
 * `words` (folded), the first `limit` of them, and how many there are in all.
 */
export function findInPages(pages: string, words: string, limit: number): { hits: FoundLine[]; total: number } {
  const hits: FoundLine[] = [];
  let total = 0;
  if (!words) return { hits, total };
  const texts = pages.split(PAGE_BREAK);
  for (let index = 0; index < texts.length; index++) {
    const pageText = texts[index]!;
    const folded = pageText.toLowerCase();
    // Lower case keeps the length of nearly every character; a page where it does not is searched line by line, folded alone.
    const sameLength = folded.length === pageText.length;
    let lineStart = 0;
    for (const line of pageText.split('\n')) {
      const haystack = sameLength ? folded.slice(lineStart, lineStart + line.length) : line.toLowerCase();
      lineStart += line.length + 1;
      if (haystack.length !== line.length) continue;
      let at = haystack.indexOf(words);
      while (at >= 0) {
        total += 1;
        if (hits.length < limit) hits.push({ page: index + 1, ...lineAround(line, at), length: words.length });
        at = haystack.indexOf(words, at + words.length);
      }
    }
  }
  return { hits, total };
}
