// Snippets and highlighted titles, cut in JS from the stored text: FTS5 cannot make them for a
// contentless table. Matches follow the index's rule (bigrams.ts) on the folded text, so what
// is highlighted is what the index matched; a snippet decodes only the bytes of its window.
import { foldText, isIndexedWordAt, isLatinWordCodePoint, scanTokens, type ParsedQuery } from './bigrams';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const HTML_SPECIAL = /[&<>"']/;
const HTML_SPECIALS = /[&<>"']/g;

export function escapeHtml(text: string): string {
  return HTML_SPECIAL.test(text) ? text.replace(HTML_SPECIALS, (char) => HTML_ESCAPES[char]!) : text;
}

/** A folded text and, when folding changed lengths, where each folded position came from. */
interface FoldedText {
  folded: string;
  /** folded index → original index of the character it came from (null: the same index) */
  origin: Int32Array | null;
  originalLength: number;
}

function foldWithOrigin(text: string): FoldedText {
  const folded = foldText(text);
  // Same length: every character folded to exactly one (full-width forms, case, radicals in
  // the BMP), so positions carry over unchanged. Otherwise fold cluster by cluster.
  if (folded.length === text.length) return { folded, origin: null, originalLength: text.length };
  const parts: string[] = [];
  const origin: number[] = [];
  let index = 0;
  while (index < text.length) {
    let next = index + codePointWidth(text, index);
    while (
      next < text.length &&
      text.charCodeAt(next) >= 0x300 &&
      COMBINING_MARK.test(String.fromCodePoint(text.codePointAt(next)!))
    ) {
      next += codePointWidth(text, next);
    }
    const part = foldCluster(text, index, next);
    for (let i = 0; i < part.length; i++) origin.push(index);
    parts.push(part);
    index = next;
  }
  return { folded: parts.join(''), origin: Int32Array.from(origin), originalLength: text.length };
}

const COMBINING_MARK = /^\p{M}$/u;

function foldCluster(text: string, start: number, end: number): string {
  const code = text.charCodeAt(start);
  // ASCII and common ideographs standing alone fold to one unit: no need to ask Unicode.
  if (end === start + 1 && code < 0x80) return text[start]!.toLowerCase();
  if (end === start + 1 && code >= 0x4e00 && code <= 0x9fff) return text[start]!;
  return foldText(text.slice(start, end));
}

function codePointWidth(text: string, index: number): number {
  return (text.codePointAt(index) ?? 0) > 0xffff ? 2 : 1;
}

function originalStart(text: FoldedText, foldedIndex: number): number {
  if (!text.origin) return foldedIndex;
  return foldedIndex < text.origin.length ? text.origin[foldedIndex]! : text.originalLength;
}

function originalEnd(text: FoldedText, foldedEnd: number): number {
  if (!text.origin) return foldedEnd;
  const last = text.origin[foldedEnd - 1]!;
  let index = foldedEnd;
  while (index < text.origin.length && text.origin[index] === last) index++;
  return originalStart(text, index);
}

type Range = [start: number, end: number];

function codePointBefore(text: string, index: number): number | undefined {
  if (index <= 0) return undefined;
  const code = text.charCodeAt(index - 1);
  return code >= 0xdc00 && code <= 0xdfff && index >= 2 ? text.codePointAt(index - 2) : code;
}

/**
 * Every occurrence of a literal in a folded text. A CJK literal is its phrase (a run of
 * ideographs always gives its bigrams); a word must stand alone, not inside a longer word, or
 * be a part of one where letters and digits meet (`python` in `python3`, bigrams.ts wordParts).
 */
function literalMatches(folded: string, literal: string, wholeWord: boolean, into: Range[]): void {
  for (let at = folded.indexOf(literal); at >= 0; at = folded.indexOf(literal, at + 1)) {
    const end = at + literal.length;
    if (
      wholeWord &&
      (isLatinWordCodePoint(codePointBefore(folded, at)) || isLatinWordCodePoint(folded.codePointAt(end))) &&
      !isIndexedWordAt(folded, at, end)
    )
      continue;
    into.push([at, end]);
  }
}

/** Phrases of several words (`node js`): walk the tokens and compare the last ones with each. */
function tokenPhraseMatches(folded: string, phrases: string[][], into: Range[]): void {
  const longest = Math.max(...phrases.map((tokens) => tokens.length));
  // The last `longest` tokens, in a ring.
  const terms: string[] = new Array<string>(longest).fill('');
  const starts = new Int32Array(longest);
  let seen = 0;
  scanTokens(folded, (term, start, end) => {
    const slot = seen % longest;
    terms[slot] = term;
    starts[slot] = start;
    seen++;
    for (const tokens of phrases) {
      const count = tokens.length;
      if (count > seen || tokens[count - 1] !== term) continue;
      let equal = true;
      for (let back = 1; back < count && equal; back++)
        equal = terms[(seen - 1 - back) % longest] === tokens[count - 1 - back];
      if (equal) into.push([starts[(seen - count) % longest]!, end]);
    }
  });
}

/**
 * The matches of a query in a text as [start, end) ranges of the original text, in order, as
 * the index matches: a single character anywhere (it starts a token), a CJK phrase as its
 * characters, a word on its own. With `within`, only those that start less than that many
 * characters after the first.
 */
function findMatches(text: string, query: ParsedQuery, within?: number): Range[] {
  const folded = foldWithOrigin(text);
  const found: Range[] = [];
  const tokenPhrases: string[][] = [];
  for (const term of query.terms) {
    if (term.kind === 'char') literalMatches(folded.folded, term.char, false, found);
    else if (term.literal) literalMatches(folded.folded, term.literal.text, !term.literal.cjk, found);
    else tokenPhrases.push(term.tokens);
  }
  if (tokenPhrases.length > 0) tokenPhraseMatches(folded.folded, tokenPhrases, found);
  found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const limit = within === undefined || found.length === 0 ? Number.POSITIVE_INFINITY : found[0]![0] + within;
  return found
    .filter(([start]) => start < limit)
    .map(([start, end]) => [originalStart(folded, start), originalEnd(folded, end)]);
}

/**
 * `text[from, to)` escaped, with the ranges (in the order of their starts, as findMatches gives
 * them; clipped to it, merged when they touch) in <em>.
 */
function render(text: string, ranges: Range[], from: number, to: number): string {
  let html = '';
  let cursor = from;
  let open: Range | undefined;
  const flush = () => {
    if (!open) return;
    html += `${escapeHtml(text.slice(cursor, open[0]))}<em>${escapeHtml(text.slice(open[0], open[1]))}</em>`;
    cursor = open[1];
    open = undefined;
  };
  for (const [rawStart, rawEnd] of ranges) {
    const start = Math.max(rawStart, from, cursor);
    const end = Math.min(rawEnd, to);
    if (end <= start) continue;
    if (open && start <= open[1]) open[1] = Math.max(open[1], end);
    else {
      flush();
      open = [start, end];
    }
  }
  flush();
  return html + escapeHtml(text.slice(cursor, to));
}

/** The whole text, escaped, every match in <em>. */
export function highlightAll(text: string, query: ParsedQuery): string {
  return render(text, findMatches(text, query), 0, text.length);
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * About `length` characters of `text` around its first match (a quarter of them before it),
 * escaped, the matches in <em>, with … where the text was cut, and where that match starts (a
 * UTF-16 index of `text`). Undefined when nothing matches.
 */
export function snippetAroundFirstMatch(
  text: string,
  query: ParsedQuery,
  length: number,
): { html: string; at: number } | undefined {
  const matches = findMatches(text, query, length);
  const first = matches[0];
  if (!first) return undefined;
  let start = Math.max(0, Math.min(first[0] - Math.floor(length / 4), text.length - length));
  let end = Math.min(text.length, start + length);
  if (start > 0 && isLowSurrogate(text.charCodeAt(start))) start--;
  if (end < text.length && isLowSurrogate(text.charCodeAt(end))) end++;
  return {
    html: `${start > 0 ? '…' : ''}${render(text, matches, start, end)}${end < text.length ? '…' : ''}`,
    at: first[0],
  };
}

/**
 * A window of a text (cut out by the caller around a match), escaped, its matches in <em>, with
 * … where it was cut. Undefined when the window holds no match after all.
 */
export function highlightWindow(
  window: string,
  query: ParsedQuery,
  cutBefore: boolean,
  cutAfter: boolean,
): string | undefined {
  const matches = findMatches(window, query);
  if (matches.length === 0) return undefined;
  return `${cutBefore ? '…' : ''}${render(window, matches, 0, window.length)}${cutAfter ? '…' : ''}`;
}

/** The first `length` characters of `text`, escaped, with … when cut. */
export function leadingSnippet(text: string, length: number): string {
  let end = Math.min(text.length, length);
  if (end < text.length && isLowSurrogate(text.charCodeAt(end))) end++;
  return `${escapeHtml(text.slice(0, end))}${end < text.length ? '…' : ''}`;
}

/** A piece of a text cut around a position, and whether text goes on before and after it. */
export interface TextWindow {
  text: string;
  cutBefore: boolean;
  cutAfter: boolean;
}

function isContinuationByte(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}

/** Bytes of the UTF-8 character that starts with `lead`. */
function sequenceLength(lead: number): number {
  return lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
}

/**
 * About `length` characters of UTF-8 text around byte `at` (a quarter of them before it), as
 * UTF-16 units, decoding only those bytes: the window's edges are found by walking the bytes,
 * whole characters at a time. `bytes` may be a slice of the text: its bytes from `offset` on, of
 * a text `total` bytes long (`at` counts from the text's start, on a character's first byte). A
 * slice must reach at least `length * 4 + 4` bytes to each side of `at` where the text goes on
 * (a character takes at most 4 bytes); its edges may cut a character, which is left out.
 */
export function windowAround(
  bytes: Buffer,
  at: number,
  length: number,
  offset = 0,
  total = offset + bytes.length,
): TextWindow {
  const local = at - offset;
  // A quarter before the match and the rest after it; more after when the text before is short
  // (a character of two units may stand across the quarter: quarter + 1 sees it).
  const quarter = Math.floor(length / 4);
  let to = local;
  let after = 0;
  for (
    const tail = length - Math.min(quarter, unitsBefore(bytes, local, quarter + 1)[1]);
    to < bytes.length && after < tail;
  ) {
    const size = sequenceLength(bytes[to]!);
    if (to + size > bytes.length) break;
    to += size;
    after += size === 4 ? 2 : 1;
  }
  const from = unitsBefore(bytes, local, length - after)[0];
  return { text: bytes.toString('utf8', from, to), cutBefore: offset + from > 0, cutAfter: offset + to < total };
}

/**
 * Walks back from `end` over whole characters, at most `limit` UTF-16 units of them: where that
 * stops (not before a character the slice has cut) and the units passed.
 */
function unitsBefore(bytes: Buffer, end: number, limit: number): [start: number, units: number] {
  let start = end;
  let units = 0;
  while (start > 0) {
    let lead = start - 1;
    while (lead > 0 && isContinuationByte(bytes[lead])) lead--;
    if (isContinuationByte(bytes[lead])) break;
    const width = bytes[lead]! >= 0xf0 ? 2 : 1;
    if (units + width > limit) break;
    units += width;
    start = lead;
  }
  return [start, units];
}
