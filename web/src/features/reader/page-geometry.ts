// A page's characters where the page image draws them (`PagePositions`, docs/api.md "Where the
// characters are"): the lines of the text layer, and the boxes of the words a find marks. Every
// box is in fractions of the page (0…1), so that it follows the image at any zoom.
import type { PagePositions, PositionsLine } from '../../../../shared/types/document';

/** A box on the page, in fractions of its width and height. */
export interface PageBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** One line of the text layer: its text, its box, and whether it runs down the page. */
export interface TextLine extends PageBox {
  text: string;
  vertical: boolean;
}

/** Where each character (UTF-16 unit) of a line starts and ends, in tenths of a point along the line. */
function characterSpans([x0, y0, x1, y1, text, steps, vertical]: PositionsLine): { start: number; end: number }[] {
  let at = vertical ? y0 : x0;
  const starts = steps.map((step) => (at += step));
  const last = vertical ? y1 : x1;
  return Array.from({ length: text.length }, (_, i) => ({
    start: starts[i] ?? last,
    end: Math.max(starts[i + 1] ?? last, starts[i] ?? last),
  }));
}

export function textLines(positions: PagePositions): TextLine[] {
  const w = positions.w * 10;
  const h = positions.h * 10;
  return positions.l.map(([x0, y0, x1, y1, text, , vertical]) => ({
    text,
    vertical: vertical === 1,
    left: x0 / w,
    top: y0 / h,
    width: (x1 - x0) / w,
    height: (y1 - y0) / h,
  }));
}

/** Words as find looks for them: NFKC, lower case, spaces collapsed (as the server's FindInDocument). */
export function foldWords(words: string): string {
  return words.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

const CJK = /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]/u;

/**
 * The page's text folded as the words are, its lines joined (by a space, or by nothing between
 * two Chinese characters, as the conversion joins a word a line break cut), and for each
 * folded character the line and character it comes from.
 */
function foldedPage(positions: PagePositions): { text: string; from: { line: number; char: number }[] } {
  let text = '';
  const from: { line: number; char: number }[] = [];
  positions.l.forEach(([, , , , lineText], line) => {
    const previous = text.at(-1);
    if (
      previous !== undefined &&
      previous !== ' ' &&
      !(CJK.test(previous) && CJK.test(lineText.trimStart()[0] ?? ''))
    ) {
      text += ' ';
      from.push({ line, char: -1 });
    }
    let char = 0;
    for (const c of lineText) {
      for (const f of c.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ')) {
        if (f === ' ' && (text.at(-1) ?? ' ') === ' ') continue;
        text += f;
        for (let unit = 0; unit < f.length; unit++) from.push({ line, char });
      }
      char += c.length;
    }
  });
  return { text, from };
}

/**
 * Every place on the page that holds `words`, in reading order, each as the boxes it covers
 * (one per line it runs over).
 */
export function findOnPage(positions: PagePositions, words: string): PageBox[][] {
  const needle = foldWords(words);
  if (!needle) return [];
  const { text, from } = foldedPage(positions);
  const w = positions.w * 10;
  const h = positions.h * 10;
  const spans = positions.l.map(characterSpans);
  const found: PageBox[][] = [];
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
    const perLine = new Map<number, { first: number; last: number }>();
    for (const { line, char } of from.slice(at, at + needle.length)) {
      if (char < 0) continue;
      const seen = perLine.get(line);
      perLine.set(
        line,
        seen ? { first: Math.min(seen.first, char), last: Math.max(seen.last, char) } : { first: char, last: char },
      );
    }
    found.push(
      [...perLine].map(([line, { first, last }]) => {
        const [x0, y0, x1, y1, , , vertical] = positions.l[line]!;
        const start = spans[line]![first]!.start;
        const end = spans[line]![last]!.end;
        return vertical === 1
          ? { left: x0 / w, top: start / h, width: (x1 - x0) / w, height: (end - start) / h }
          : { left: start / w, top: y0 / h, width: (end - start) / w, height: (y1 - y0) / h };
      }),
    );
  }
  return found;
}
