// The tokenizer of the search engine: text → index tokens, and a user's query → an FTS5 MATCH
// expression built from the same tokens. Rule (backend/platform/README.md, "search"):
// - text is normalised first (normalizeText): radical and compatibility code points become
//   the ideographs they stand for, a line break between two CJK characters is removed (PDF
//   line wraps split words), every other run of whitespace becomes one space;
// - then folded: NFKC, lower case;
// - a run of CJK characters (Han, kana, hangul) becomes overlapping bigrams followed by its
//   last character alone, so every character starts a token (a 1-character run is just that
//   character); any other letter/digit sequence is one word token; a sign (isSymbolCodePoint:
//   `+`, `#`, `¥`, `©`, an emoji) is a token of its own, the marks after it (❤️'s variation
//   selector) left out; everything else (punctuation, spaces) separates tokens. Anything but a
//   CJK character ends a CJK run;
// - a word made of letters and digits (`python3`, `win10`, `mp3player`) is also each of its parts,
//   cut where letters and digits meet (wordParts), so that `python` finds `Python3`; the parts
//   come after the text's tokens, as the dictionary words do.
import {
  isCjkCodePoint,
  isSymbolCodePoint,
  isWordCodePoint,
  queryWords,
  type QueryWord,
} from '../../../shared/searchable-text';
import { RADICAL_TO_IDEOGRAPH } from './cjk-radicals';
import { dictionaryWords, isDictionaryWord } from './words';

/** Bumped whenever the rule above changes: an index built with another version needs a rebuild. */
export const TOKENIZER_VERSION = 4;

/**
 * What the queries may ask of an index whose entries all have at least this version's tokens
 * (one being upgraded still has some of the version it was made with): the dictionary words as
 * tokens since version 2, the signs since 3. Version 4's word parts need nothing of the queries.
 */
export function tokensOfVersion(version: number): { wholeWords: boolean; symbols: boolean } {
  return { wholeWords: version >= 2, symbols: version >= 3 };
}

// CJK radicals (supplement and Kangxi) and CJK compatibility ideographs (BMP and supplement).
const IDEOGRAPH_VARIANT = /[\u2E80-\u2FDF\uF900-\uFAFF\u{2F800}-\u{2FA1F}]/u;
const IDEOGRAPH_VARIANTS = /[\u2E80-\u2FDF\uF900-\uFAFF\u{2F800}-\u{2FA1F}]/gu;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const LETTER = /\p{L}/u;
const DIGIT = /\p{N}/u;
const MARK = /\p{M}/u;
/** What starts a sign's token in FTS5, which would drop the sign as a separator (ftsToken). */
const FTS_SIGN = '\uE000';
const WHITESPACE_RUN = /\s+/gu;
const LINE_BREAK = /[\r\n\u2028\u2029]/u;

/** Radicals and compatibility ideographs (as PDF text extraction emits them) → unified ideographs. */
export function foldIdeographVariants(text: string): string {
  if (!IDEOGRAPH_VARIANT.test(text)) return text;
  return text.replace(IDEOGRAPH_VARIANTS, (variant) => RADICAL_TO_IDEOGRAPH.get(variant) ?? variant.normalize('NFKC'));
}

/** What the index compares: NFKC (full-width forms, ligatures), ideograph variants, lower case. */
export function foldText(text: string): string {
  return foldIdeographVariants(text.normalize('NFKC')).toLowerCase();
}

/** A letter, digit or mark of a word token (not CJK): what a word must not touch to stand alone. */
export function isLatinWordCodePoint(cp: number | undefined): boolean {
  return cp !== undefined && !isCjkCodePoint(cp) && isWordCodePoint(cp, String.fromCodePoint(cp));
}

function isCjkChar(text: string, index: number): boolean {
  const cp = text.codePointAt(index);
  return cp !== undefined && isCjkCodePoint(cp);
}

/**
 * Whitespace as the index and the snippets see it: a run holding a line break between two CJK
 * characters disappears (layout, not a word boundary), any other run becomes one space.
 */
export function compactWhitespace(text: string): string {
  return text.replace(WHITESPACE_RUN, (run: string, offset: number) => {
    if (offset === 0 || offset + run.length === text.length) return '';
    if (!LINE_BREAK.test(run)) return ' ';
    const before = text.codePointAt(offset - 1) ?? 0;
    // A supplementary character before the run ends with a low surrogate: step back over it.
    const previous = before >= 0xdc00 && before <= 0xdfff && offset >= 2 ? (text.codePointAt(offset - 2) ?? 0) : before;
    return isCjkCodePoint(previous) && isCjkChar(text, offset + run.length) ? '' : ' ';
  });
}

/** Words longer than this (UTF-16 units) are not cut into parts: a hash, a base64 run, a long serial. */
const MAX_SPLIT_WORD_LENGTH = 64;
/** Nor words of more parts than this (`a1b2c3`): `iphone15pro` is three. */
const MAX_WORD_PARTS = 4;

/** 1 for a letter, 2 for a digit, 0 for a mark (of the part it follows); ASCII without the regex. */
function partClass(cp: number, char: string): number {
  if (cp < 0x80) return cp >= 0x30 && cp <= 0x39 ? 2 : 1;
  if (LETTER.test(char)) return 1;
  return DIGIT.test(char) ? 2 : 0;
}

/**
 * Where the parts of a word token (letters, digits and marks, no CJK) end, when it mixes letters
 * and digits: `python3` → [6, 7] (`python`, `3`), `3d` → [1, 2]. Undefined for a word of one
 * kind, a word of more than MAX_WORD_PARTS parts or longer than MAX_SPLIT_WORD_LENGTH: the index
 * then holds the word alone.
 */
export function wordPartEnds(word: string): number[] | undefined {
  if (word.length < 2 || word.length > MAX_SPLIT_WORD_LENGTH) return undefined;
  const ends: number[] = [];
  let current = 0;
  for (let index = 0; index < word.length;) {
    const cp = word.codePointAt(index)!;
    const width = cp > 0xffff ? 2 : 1;
    const kind = partClass(cp, width === 1 ? word[index]! : word.slice(index, index + 2));
    if (kind !== 0 && current !== 0 && kind !== current) {
      if (ends.length + 1 >= MAX_WORD_PARTS) return undefined;
      ends.push(index);
    }
    if (kind !== 0) current = kind;
    index += width;
  }
  if (ends.length === 0) return undefined;
  ends.push(word.length);
  return ends;
}

/** The parts of a word token that mixes letters and digits (wordPartEnds), or none. */
export function wordParts(word: string): string[] {
  const ends = wordPartEnds(word);
  if (!ends) return [];
  return ends.map((end, i) => word.slice(i === 0 ? 0 : ends[i - 1], end));
}

/**
 * Whether `[start, end)` of a folded text, letters or digits, is a word token of the index
 * there: a whole word (no letter or digit touches it), or one of the parts of the word it is in
 * (`python` in `python3`, not in `pythonic`).
 */
export function isIndexedWordAt(text: string, start: number, end: number): boolean {
  let wordStart = start;
  while (wordStart > 0 && start - wordStart <= MAX_SPLIT_WORD_LENGTH) {
    const code = text.charCodeAt(wordStart - 1);
    const back = code >= 0xdc00 && code <= 0xdfff && wordStart >= 2 ? 2 : 1;
    if (!isLatinWordCodePoint(text.codePointAt(wordStart - back))) break;
    wordStart -= back;
  }
  let wordEnd = end;
  while (wordEnd < text.length && wordEnd - end <= MAX_SPLIT_WORD_LENGTH) {
    const cp = text.codePointAt(wordEnd)!;
    if (!isLatinWordCodePoint(cp)) break;
    wordEnd += cp > 0xffff ? 2 : 1;
  }
  if (wordStart === start && wordEnd === end) return true;
  const ends = wordPartEnds(text.slice(wordStart, wordEnd));
  if (!ends) return false;
  const partStart = start - wordStart;
  const partEnd = end - wordStart;
  return ends.some((at, i) => at === partEnd && (i === 0 ? 0 : ends[i - 1]) === partStart);
}

/** Receives each token of a folded text: its term and where it sits ([start, end) in the folded text). */
export type TokenSink = (term: string, start: number, end: number) => void;

/** Walks a folded, compacted text and hands every index token to `sink`, in order. */
export function scanTokens(folded: string, sink: TokenSink): void {
  const length = folded.length;
  let wordStart = -1;
  let lastCjkStart = -1; // the previous character of the current CJK run, if any
  let lastCjkEnd = -1;
  let symbolStart = -1; // a sign whose token waits for the marks after it
  let symbolWidth = 0;
  let index = 0;
  while (index < length) {
    const cp = folded.codePointAt(index)!;
    const width = cp > 0xffff ? 2 : 1;
    if (symbolStart >= 0) {
      // ❤️ is ❤ and a variation selector: the token is the sign, its place spans both.
      if (MARK.test(width === 1 ? folded[index]! : folded.slice(index, index + 2))) {
        index += width;
        continue;
      }
      sink(folded.slice(symbolStart, symbolStart + symbolWidth), symbolStart, index);
      symbolStart = -1;
    }
    if (isCjkCodePoint(cp)) {
      if (wordStart >= 0) {
        sink(folded.slice(wordStart, index), wordStart, index);
        wordStart = -1;
      }
      if (lastCjkStart >= 0) sink(folded.slice(lastCjkStart, index + width), lastCjkStart, index + width);
      lastCjkStart = index;
      lastCjkEnd = index + width;
    } else {
      if (lastCjkStart >= 0) {
        sink(folded.slice(lastCjkStart, lastCjkEnd), lastCjkStart, lastCjkEnd);
        lastCjkStart = -1;
      }
      const char = width === 1 ? folded[index]! : folded.slice(index, index + 2);
      if (isWordCodePoint(cp, char)) {
        if (wordStart < 0) wordStart = index;
      } else {
        if (wordStart >= 0) {
          sink(folded.slice(wordStart, index), wordStart, index);
          wordStart = -1;
        }
        if (isSymbolCodePoint(cp, char)) {
          symbolStart = index;
          symbolWidth = width;
        }
      }
    }
    index += width;
  }
  if (lastCjkStart >= 0) sink(folded.slice(lastCjkStart, lastCjkEnd), lastCjkStart, lastCjkEnd);
  else if (wordStart >= 0) sink(folded.slice(wordStart, length), wordStart, length);
  else if (symbolStart >= 0) sink(folded.slice(symbolStart, symbolStart + symbolWidth), symbolStart, length);
}

/**
 * Text as the index stores, tokenizes and shows it: ideograph variants folded (they look the
 * same to a reader) and whitespace compacted. Everything else stays as written.
 */
export function normalizeText(text: string): string {
  return compactWhitespace(foldIdeographVariants(text));
}

/**
 * The index tokens of a text, in order: its tokens, then the parts of its words that mix letters
 * and digits (wordParts), then the dictionary words it holds (words.ts). Those come after every
 * token of the text, so that the positions of its tokens, which phrases compare, are those of
 * the text alone.
 */
export function indexTerms(text: string): string[] {
  const folded = foldText(normalizeText(text));
  const terms: string[] = [];
  const parts: string[] = [];
  scanTokens(folded, (term) => {
    terms.push(term);
    if (term.length >= 2 && isLatinWordCodePoint(term.codePointAt(0)))
      for (const part of wordParts(term)) parts.push(part);
  });
  terms.push(...parts, ...dictionaryWords(folded));
  return terms;
}

/**
 * A token as FTS5 holds it: a sign, which unicode61 would drop as a separator, as U+E000 and its
 * code point in hex (`+` → `\uE0002b`), one token to unicode61 (a private-use character is a
 * token character there) and none that a text gives (scanTokens splits at private-use characters).
 */
function ftsToken(term: string): string {
  const cp = term.codePointAt(0)!;
  if (term.length !== (cp > 0xffff ? 2 : 1) || !isSymbolCodePoint(cp, term)) return term;
  return FTS_SIGN + cp.toString(16);
}

/** The text of one FTS column: its index tokens joined by spaces (FTS5's unicode61 splits them back). */
export function indexTokens(text: string): string {
  const terms = indexTerms(text);
  // A sign is one code point: a bigram or a word of 3 or more UTF-16 units is none.
  for (let i = 0; i < terms.length; i++) if (terms[i]!.length <= 2) terms[i] = ftsToken(terms[i]!);
  return terms.join(' ');
}

/**
 * One required part of a query: a phrase of index tokens that must appear in this order, or a
 * single CJK character, matched as the first character of a token (a prefix query: every
 * character of a text starts one, see scanTokens), in every column as a word is. `literal`
 * is the folded text a phrase matches as a plain substring: always for a CJK run (`机器学习`),
 * as a candidate for a single word (`python` is also inside `pythonic`); none for `node.js`.
 * `exact`: typed in quotes, never cut into words (separateWordsQuery).
 */
export type QueryTerm =
  | { kind: 'phrase'; tokens: string[]; literal?: { text: string; cjk: boolean }; word?: string; exact?: true }
  | { kind: 'char'; char: string };

export interface ParsedQuery {
  terms: QueryTerm[];
  /** The query is made of single letters or digits only: those are looked up in titles alone. */
  titleOnly: boolean;
  /**
   * The words typed with a leading `-` (`-量子`, `-"量子 力学"`): an entry that holds one of them,
   * every term of it, is left out. Absent when none.
   */
  excluded?: QueryTerm[][];
}

// Bounds on what one query may ask of the index, whatever the user typed.
const MAX_QUERY_LENGTH = 200;
const MAX_TERMS = 16;
const MAX_PHRASE_TOKENS = 32;

function cjkRunTerm(run: string): QueryTerm {
  const chars = Array.from(run);
  if (chars.length === 1) return { kind: 'char', char: run };
  const tokens: string[] = [];
  for (let i = 0; i + 1 < chars.length && tokens.length < MAX_PHRASE_TOKENS; i++)
    tokens.push(chars[i]! + chars[i + 1]!);
  const text = chars.slice(0, tokens.length + 1).join('');
  // A dictionary word is one token of the index, found wherever its bigram phrase is.
  return { kind: 'phrase', tokens, literal: { text, cjk: true }, ...(isDictionaryWord(text) ? { word: text } : {}) };
}

/** The terms once each, at most MAX_TERMS of them. */
function uniqueTerms(terms: readonly QueryTerm[]): QueryTerm[] {
  const unique = new Map<string, QueryTerm>();
  for (const term of terms) {
    const key = term.kind === 'char' ? `c:${term.char}` : `p:${term.tokens.join(' ')}`;
    if (!unique.has(key)) unique.set(key, term);
  }
  return [...unique.values()].slice(0, MAX_TERMS);
}

/**
 * The terms of one word (or quoted phrase) of a query: split where the script changes, a CJK run
 * one term (punctuation ends it), the other words and signs between those runs one phrase.
 */
function groupTerms(group: QueryWord, symbols: boolean): QueryTerm[] {
  const terms: QueryTerm[] = [];
  let cjkRun = '';
  let latinTokens: string[] = [];
  let latinWord = '';
  let hasSymbol = false;
  let afterSymbol = false;
  const flushLatinWord = () => {
    if (latinWord) latinTokens.push(latinWord);
    latinWord = '';
  };
  const flushLatin = () => {
    flushLatinWord();
    const tokens = latinTokens.slice(0, MAX_PHRASE_TOKENS);
    // A sign has no literal: the stored text may hold another form of it (`＋`, folded to `+`).
    if (tokens.length === 1 && !hasSymbol)
      terms.push({ kind: 'phrase', tokens, literal: { text: tokens[0]!, cjk: false } });
    else if (tokens.length > 0) terms.push({ kind: 'phrase', tokens });
    latinTokens = [];
    hasSymbol = false;
  };
  const flushCjk = () => {
    if (cjkRun) terms.push(cjkRunTerm(cjkRun));
    cjkRun = '';
  };
  for (const char of group.text) {
    const cp = char.codePointAt(0)!;
    // The marks after a sign are part of it, as scanTokens reads them (❤️ is ❤).
    if (afterSymbol && MARK.test(char)) continue;
    afterSymbol = false;
    if (isCjkCodePoint(cp)) {
      flushLatin();
      cjkRun += char;
    } else if (isWordCodePoint(cp, char)) {
      flushCjk();
      latinWord += char;
    } else {
      flushCjk();
      flushLatinWord();
      if (symbols && isSymbolCodePoint(cp, char)) {
        latinTokens.push(char);
        hasSymbol = true;
        afterSymbol = true;
      }
    }
  }
  flushCjk();
  flushLatin();
  if (!group.quoted) return terms;
  return terms.map((term) => (term.kind === 'phrase' ? { ...term, exact: true } : term));
}

/**
 * Splits a query into required terms. Each whitespace-separated word splits further where the
 * script changes: a CJK run is one term (punctuation ends it), and the other words and signs
 * between those runs form one phrase ("node.js" → "node js", "C++" → "c + +"). So `Python教程`
 * asks for `python` and `教程`, `机器学习 pdf` for the phrase `机器 器学 学习` and `pdf`. A quoted
 * phrase is one word (`"machine learning"` → "machine learning"); a word with a leading `-` is
 * left out (`excluded`), unless nothing else is asked for: `-量子` alone finds 量子.
 * `symbols: false` reads the signs as separators, as an index of tokenizer version 2 does.
 */
export function parseQuery(query: string, options: { symbols?: boolean } = {}): ParsedQuery {
  const symbols = options.symbols ?? true;
  const folded = foldText(query.slice(0, MAX_QUERY_LENGTH));
  const terms: QueryTerm[] = [];
  const excluded: QueryTerm[][] = [];
  for (const group of queryWords(folded)) {
    const found = groupTerms(group, symbols);
    if (found.length === 0) continue;
    if (group.excluded) excluded.push(found.slice(0, MAX_TERMS));
    else terms.push(...found);
  }
  // Nothing asked for but words to leave out: those are what the user wants to find.
  if (terms.length === 0) terms.push(...excluded.splice(0).flat());

  const kept = uniqueTerms(terms);
  // A lone letter or digit ("c", "2") is a word of nearly every text: looked for in titles. Not a sign ("+", "😀").
  const isSingleLetter = (term: QueryTerm) =>
    term.kind === 'phrase' &&
    term.tokens.length === 1 &&
    Array.from(term.tokens[0]!).length === 1 &&
    LETTER_OR_DIGIT.test(term.tokens[0]!);
  return {
    terms: kept,
    titleOnly: kept.length > 0 && kept.every(isSingleLetter),
    ...(excluded.length > 0 ? { excluded: excluded.slice(0, MAX_TERMS) } : {}),
  };
}

// ICU's dictionary word breaker, built into Node (the article module cuts keywords with it too).
const wordBreaker = new Intl.Segmenter('zh', { granularity: 'word' });

/**
 * The query again with each CJK run that holds several words cut into them, each required on
 * its own (`红楼梦林黛玉` → `红楼梦` and `林黛玉`; a lone character stays a prefix term): what a
 * search asks when the runs as phrases find nothing, since Chinese is typed without spaces
 * between words that a text need not hold side by side. Undefined when no run splits.
 */
export function separateWordsQuery(parsed: ParsedQuery): ParsedQuery | undefined {
  let split = false;
  const terms = parsed.terms.flatMap((term): QueryTerm[] => {
    // A phrase typed in quotes is asked as typed only.
    if (term.kind !== 'phrase' || !term.literal?.cjk || term.exact) return [term];
    const words = Array.from(wordBreaker.segment(term.literal.text), (part) => part.segment);
    if (words.length < 2) return [term];
    split = true;
    return words.map(cjkRunTerm);
  });
  if (!split) return undefined;
  return { terms: uniqueTerms(terms), titleOnly: false, ...(parsed.excluded ? { excluded: parsed.excluded } : {}) };
}

/** An FTS5 string: always quoted, so that no user input is read as an operator or a column. */
function quote(token: string): string {
  return `"${token.replaceAll('"', '""')}"`;
}

/**
 * The FTS5 MATCH expression of a parsed query, or undefined when nothing searchable is left.
 * `wholeWords`: the index holds the dictionary words as tokens (an index still being brought to
 * this tokenizer version may not); without them a word is matched as its bigram phrase.
 */
export function toMatchExpression(parsed: ParsedQuery, wholeWords = true): string | undefined {
  if (parsed.terms.length === 0) return undefined;
  const parts = matchTerms(parsed.terms, wholeWords);
  return parsed.titleOnly ? `title : (${parts.join(' AND ')})` : parts.join(' AND ');
}

/** Each term as FTS5 matches it: a phrase of tokens (a dictionary word as its one token), a character as a prefix. */
function matchTerms(terms: readonly QueryTerm[], wholeWords: boolean): string[] {
  const phrase = (term: Extract<QueryTerm, { kind: 'phrase' }>) =>
    wholeWords && term.word !== undefined ? term.word : term.tokens.map(ftsToken).join(' ');
  return terms.map((term) => (term.kind === 'char' ? `${quote(term.char)}*` : quote(phrase(term))));
}

/**
 * The FTS5 MATCH expression of the entries a query leaves out (`excluded`), in any column:
 * those holding every term of one of its excluded words. Undefined when it leaves out none.
 */
export function toExclusionExpression(parsed: ParsedQuery, wholeWords = true): string | undefined {
  if (!parsed.excluded?.length) return undefined;
  return parsed.excluded.map((terms) => `(${matchTerms(terms, wholeWords).join(' AND ')})`).join(' OR ');
}

/** A user's query straight to its MATCH expression (undefined: nothing to search for). */
export function queryToMatchExpression(query: string): string | undefined {
  return toMatchExpression(parseQuery(query));
}
