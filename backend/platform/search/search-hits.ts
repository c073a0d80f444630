// What a search answers for each entry of its page: the title highlighted and a snippet, cut
// around the first match from the stored text (stored-texts.ts reads only the bytes around it),
// or, for a paged text and a query of several terms, around the match on its best page
// (bestPageAt: the whole texts of those hits are read, in one statement for the page of hits).
// A snippet shows only the part of the text its entry lets it show (SearchEntry.shownPages, a
// document's free preview): a hit that matches only past it gets the description and the page of
// that match, never a byte of its text.
import { isIndexedWordAt, isLatinWordCodePoint, type ParsedQuery } from './bigrams';
import {
  escapeHtml,
  highlightAll,
  highlightWindow,
  leadingSnippet,
  snippetAroundFirstMatch,
  windowAround,
} from './highlight';
import { pageAt, pageCount, pageStart } from './pages';
import type { SearchHit } from './search-index';
import type { HitText, HitTextSource } from './stored-texts';

/** Characters of text in a snippet, unless an engine is told otherwise. */
const DEFAULT_SNIPPET_LENGTH = 120;

/**
 * A hit's snippet (HTML), the page of the text it was cut from (0: not from a paged text), and
 * the page past the part shown that matches when the snippet is not cut around a match of the text.
 */
interface Snippet {
  html: string;
  page: number;
  matchPage?: number;
  matchWords?: string[];
}

/** The first page past the part of a text shown that matches, and the query's words found on it. */
interface HiddenMatch {
  page: number;
  words: string[];
}

/** The part of a paged hit's content that its snippet may show, and the byte on its best page that it is cut around. */
interface BestMatch {
  content: Buffer;
  at: number;
}

/** How many of a hit's first content bytes its snippet may show. */
function shownSize(text: HitText): number {
  return Math.max(0, Math.min(text.shown, text.size));
}

/** An entry of a page, with its bm25 rank (0 when not ranked). */
export interface RankedRow {
  id: number;
  rank: number;
}

/** The byte strings to look for in a stored text, and whether missing them all proves no match. */
interface Needles {
  needles: Buffer[];
  absenceIsProof: boolean;
  /** the needles of each term that has any (a term is found where one of its strings is) */
  terms: TermNeedles[];
  /** the terms one after another as typed (Latin words a space apart), when every term has needles */
  phrase: TermNeedles | undefined;
}

interface TermNeedles {
  /** the term as the query holds it (folded as the index folds it): what a reader's find looks for */
  text: string;
  needles: Buffer[];
  /** a word: found only where no letter or digit touches it, or as a part of a word (standsAlone), as the index matches it */
  word: boolean;
}

/** A word's usual casings: as folded, capitalised, upper case. */
function casings(text: string): Buffer[] {
  return [...new Set([text, text.charAt(0).toUpperCase() + text.slice(1), text.toUpperCase()])].map((casing) =>
    Buffer.from(casing),
  );
}

/**
 * A CJK literal or character is searched as it is (the stored text is normalised as the index
 * sees it, so its absence proves that its phrase is not there); a word in its usual casings (a
 * miss then proves nothing: `ＰＹＴＨＯＮ`); a phrase of several words has no literal.
 */
export function needlesOf(parsed: ParsedQuery): Needles {
  const terms: TermNeedles[] = [];
  let absenceIsProof = true;
  let phrase = '';
  let phraseIsWords = true;
  let lastWasCjk = false;
  let typed = 0;
  const seen = new Set<string>();
  for (const term of parsed.terms) {
    const literal = term.kind === 'char' ? { text: term.char, cjk: true } : term.literal;
    if (!literal) {
      absenceIsProof = false;
      phraseIsWords = false;
      continue;
    }
    if (!literal.cjk) absenceIsProof = false;
    // A term typed twice is one of the distinct terms a page is ranked by.
    if (!seen.has(literal.text))
      terms.push({
        text: literal.text,
        needles: literal.cjk ? [Buffer.from(literal.text)] : casings(literal.text),
        word: !literal.cjk,
      });
    seen.add(literal.text);
    // The text joins CJK runs without a space (bigrams.ts), words with one.
    phrase += phrase && !(lastWasCjk && literal.cjk) ? ` ${literal.text}` : literal.text;
    phraseIsWords &&= !literal.cjk;
    lastWasCjk = literal.cjk;
    typed++;
  }
  return {
    needles: terms.flatMap((term) => term.needles),
    absenceIsProof,
    terms,
    phrase:
      terms.length > 1 && typed === parsed.terms.length
        ? { text: phrase, needles: phraseIsWords ? casings(phrase) : [Buffer.from(phrase)], word: phraseIsWords }
        : undefined,
  };
}

/** Bytes read on each side of a needle to find the word it is in: more than a word cut into parts holds (bigrams.ts). */
const WORD_BYTES = 200;

/**
 * Where a needle found at byte `at` of a UTF-8 text is a word of the index's: on its own (no
 * letter or digit touches it), or a part of the word it is in (`python` in `Python3`).
 */
function standsAlone(text: Buffer, at: number, end: number): boolean {
  if (!isLatinWordCodePoint(codePointBefore(text, at)) && !isLatinWordCodePoint(codePointAt(text, end))) return true;
  // Inside a longer word of one kind (`python` in `pythonic`, `20` in `2024`): no part, nothing to decode.
  if (sameAsciiKind(text, at - 1, at) || sameAsciiKind(text, end - 1, end)) return false;
  const from = Math.max(0, at - WORD_BYTES);
  const before = text.toString('utf8', from, at);
  const around = before + text.toString('utf8', at, Math.min(text.length, end + WORD_BYTES));
  const needleEnd = before.length + text.toString('utf8', at, end).length;
  return isIndexedWordAt(around, before.length, needleEnd);
}

/** Whether the bytes at `a` and `b` are both ASCII letters or both ASCII digits. */
function sameAsciiKind(text: Buffer, a: number, b: number): boolean {
  if (a < 0 || b >= text.length) return false;
  const kind = (byte: number) =>
    byte >= 0x30 && byte <= 0x39 ? 2 : (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7a ? 1 : 0;
  const first = kind(text[a]!);
  return first !== 0 && first === kind(text[b]!);
}

/** The code point that ends before byte `at` of a UTF-8 text; an ASCII one without decoding. */
function codePointBefore(text: Buffer, at: number): number | undefined {
  if (at <= 0) return undefined;
  if (text[at - 1]! < 0x80) return text[at - 1];
  let lead = at - 1;
  while (lead > 0 && (text[lead]! & 0xc0) === 0x80) lead--;
  return text.toString('utf8', lead, at).codePointAt(0);
}

/** The code point that starts at byte `at` of a UTF-8 text; an ASCII one without decoding. */
function codePointAt(text: Buffer, at: number): number | undefined {
  if (at >= text.length) return undefined;
  if (text[at]! < 0x80) return text[at];
  return text.toString('utf8', at, Math.min(text.length, at + 4)).codePointAt(0);
}

/**
 * For each page of a paged text, where a term's needles are first found on it (-1: nowhere).
 * Each needle is looked for once per page at most: past a match, the search goes on at the
 * next page.
 */
function firstOnEachPage(text: Buffer, starts: Buffer, term: TermNeedles, into: Int32Array): void {
  into.fill(-1);
  const pages = into.length;
  for (const needle of term.needles) {
    for (let at = text.indexOf(needle); at >= 0;) {
      const page = pageAt(starts, at) - 1;
      if (!term.word || standsAlone(text, at, at + needle.length)) {
        if (into[page]! < 0 || at < into[page]!) into[page] = at;
        if (page + 1 >= pages) break;
        at = text.indexOf(needle, Math.max(at + 1, pageStart(starts, page + 2)));
      } else at = text.indexOf(needle, at + 1);
    }
  }
}

/**
 * The query's terms (as the query holds them, in its order) found whole in bytes `from`…`to` of
 * a UTF-8 text: what the reader's find may look for on a page the snippet does not show. Never
 * the text's own spelling of them: the page is not to be read from the answer.
 */
export function termsFoundIn(text: Buffer, from: number, to: number, needles: Needles): string[] {
  const end = Math.min(text.length, to);
  return needles.terms.flatMap((term) => {
    const found = term.needles.some((needle) => {
      for (let at = text.indexOf(needle, Math.max(0, from)); at >= 0 && at + needle.length <= end;) {
        if (!term.word || standsAlone(text, at, at + needle.length)) return true;
        at = text.indexOf(needle, at + 1);
      }
      return false;
    });
    return found ? [term.text] : [];
  });
}

/**
 * The byte where the snippet of a paged text is cut, on the page that matches the query best:
 * the one holding the most distinct terms, then the one holding the terms as typed, then the
 * earliest; on it, the typed terms where they are, else its first match. -1 when no term is
 * found.
 */
export function bestPageAt(text: Buffer, starts: Buffer, needles: Needles): number {
  const pages = pageCount(starts);
  const distinct = new Uint8Array(pages);
  const first = new Int32Array(pages).fill(-1);
  const found = new Int32Array(pages);
  for (const term of needles.terms) {
    firstOnEachPage(text, starts, term, found);
    for (let page = 0; page < pages; page++) {
      const at = found[page]!;
      if (at < 0) continue;
      distinct[page]!++;
      if (first[page]! < 0 || at < first[page]!) first[page] = at;
    }
  }
  const typed = new Int32Array(pages).fill(-1);
  if (needles.phrase) firstOnEachPage(text, starts, needles.phrase, typed);
  let best = -1;
  for (let page = 0; page < pages; page++) {
    if (distinct[page] === 0) continue;
    if (
      best < 0 ||
      distinct[page]! > distinct[best]! ||
      (distinct[page] === distinct[best] && typed[page]! >= 0 && typed[best]! < 0)
    )
      best = page;
  }
  if (best < 0) return -1;
  return typed[best]! >= 0 ? typed[best]! : first[best]!;
}

/**
 * The bytes of whole texts one page of hits may read to find their best pages (bestPages): a text
 * is up to 3 MB (MAX_CONTENT_LENGTH characters), and a results page of long books would read tens
 * of megabytes per search. The hits past it, in rank order, keep the page of their first match.
 */
export const BEST_PAGE_BYTES = 4 * 1024 * 1024;

export class HitDescriber {
  private readonly snippetLength: number;

  /**
   * @param snippetLength characters of text in a snippet
   * @param bestPageBytes bytes of whole texts read for the best pages of one page of hits
   */
  constructor(
    private readonly texts: HitTextSource,
    snippetLength = DEFAULT_SNIPPET_LENGTH,
    private readonly bestPageBytes = BEST_PAGE_BYTES,
  ) {
    this.snippetLength = Math.max(1, Math.trunc(snippetLength));
  }

  async describe(rows: RankedRow[], parsed: ParsedQuery): Promise<SearchHit[]> {
    if (rows.length === 0) return [];
    const needles = needlesOf(parsed);
    const texts = await this.texts.hitTexts(
      rows.map((row) => row.id),
      needles.needles,
      this.reach,
    );
    const best = await this.bestPages(rows, texts, parsed, needles);
    const hits: SearchHit[] = [];
    for (const row of rows) {
      const text = texts.get(row.id);
      if (!text) continue;
      const { html, page, matchPage, matchWords } = await this.snippet(text, parsed, needles, best.get(row.id));
      hits.push({
        id: row.id,
        score: row.rank === 0 ? 0 : -row.rank,
        titleHighlight: highlightAll(text.title, parsed),
        snippet: html,
        page,
        matchPage: matchPage ?? 0,
        matchWords: matchWords ?? [],
      });
    }
    return hits;
  }

  /**
   * Where the paged hits of a query of several terms match on their best page (bestPageAt) among
   * those their snippets may show, when that is not the page of their first match: their whole
   * contents read in one statement, only for such a query (of one term, the earliest page holding
   * it is the first match's), and no more than `bestPageBytes` of them.
   */
  private async bestPages(
    rows: RankedRow[],
    texts: Map<number, HitText>,
    parsed: ParsedQuery,
    needles: Needles,
  ): Promise<Map<number, BestMatch>> {
    const moved = new Map<number, BestMatch>();
    if (parsed.titleOnly || needles.terms.length < 2) return moved;
    let budget = this.bestPageBytes;
    const paged = rows.flatMap((row) => {
      const text = texts.get(row.id);
      if (!text || text.at < 0 || text.at >= shownSize(text) || text.size > budget) return [];
      // A text whose shown part is one page has no other page to choose.
      if (pageAt(text.pageStarts, shownSize(text) - 1) <= 1) return [];
      budget -= text.size;
      return [text];
    });
    if (paged.length === 0) return moved;
    const contents = await this.texts.contents(paged.map((text) => text.id));
    for (const text of paged) {
      const content = contents.get(text.id)?.subarray(0, shownSize(text));
      if (!content) continue;
      const at = bestPageAt(content, text.pageStarts!, needles);
      if (at >= 0 && pageAt(text.pageStarts, at) !== pageAt(text.pageStarts, text.at))
        moved.set(text.id, { content, at });
    }
    return moved;
  }

  /** Bytes of a content window reaches on each side of its needle (see `windowAround`). */
  get reach(): number {
    return this.snippetLength * 4 + 4;
  }

  /**
   * Around the match on the best page when one is given, else the first match in the part of the
   * text the snippet may show, else in the description, else that part's beginning; with the page
   * of the text it is cut from (0: not from a paged text), and, when the snippet holds no match of
   * the text, the first page past that part which matches (matchPage).
   */
  private async snippet(text: HitText, parsed: ParsedQuery, needles: Needles, best?: BestMatch): Promise<Snippet> {
    if (parsed.titleOnly) return this.beginningSnippet(text);
    const shown = shownSize(text);
    if (best) {
      // Bytes that match no word of the index's (one inside a longer word) leave the first match's.
      const window = windowAround(best.content, best.at, this.snippetLength, 0, text.size);
      const html = highlightWindow(window.text, parsed, window.cutBefore, window.cutAfter);
      if (html !== undefined) return { html, page: pageAt(text.pageStarts, best.at) };
    }
    if (text.at >= 0 && text.at < shown) {
      // The window SQL cut may reach past the part shown: it ends there.
      const bytes = text.window.subarray(0, Math.max(0, shown - text.start));
      const window = windowAround(bytes, text.at, this.snippetLength, text.start, text.size);
      const html = highlightWindow(window.text, parsed, window.cutBefore, window.cutAfter);
      if (html !== undefined) return { html, page: pageAt(text.pageStarts, text.at) };
    }
    const description = await this.descriptionOf(text);
    let content: string | undefined;
    let around: { html: string; page: number } | undefined;
    const inDescription = snippetAroundFirstMatch(description, parsed, this.snippetLength);
    if (inDescription === undefined && shown > 0 && ((text.at >= 0 && text.at < shown) || !needles.absenceIsProof)) {
      // The byte search missed (a word inside a longer one, another casing, a full-width form):
      // decode the part shown and match it the way the index does.
      content = await this.texts.column(text.id, 'content');
      const visible = shown >= text.size ? content : Buffer.from(content).toString('utf8', 0, shown);
      const found = snippetAroundFirstMatch(visible, parsed, this.snippetLength);
      if (found !== undefined)
        around = { html: found.html, page: pageAt(text.pageStarts, Buffer.byteLength(visible.slice(0, found.at))) };
    }
    if (around) return around;
    const hidden = await this.hiddenMatch(text, parsed, needles, content);
    const match = { matchPage: hidden.page, matchWords: hidden.words };
    if (inDescription !== undefined) return { html: inDescription.html, page: 0, ...match };
    // Found past the part shown only: the description stands for the text, as in the lists.
    if (hidden.page > 0 && description)
      return { html: leadingSnippet(description, this.snippetLength), page: 0, ...match };
    return { ...(await this.beginningSnippet(text)), ...match };
  }

  /**
   * The first page past the part of a paged text a snippet may show that matches the query (0:
   * none): where the byte search found the first needle, when the index's rule matches there, else
   * by decoding that part of the text (`content`: the whole text, when it was read already). With
   * the query's terms found on that page (termsFoundIn): around the first needle, in the bytes the
   * byte search read; else on the whole page.
   */
  private async hiddenMatch(
    text: HitText,
    parsed: ParsedQuery,
    needles: Needles,
    content?: string,
  ): Promise<HiddenMatch> {
    const none = { page: 0, words: [] };
    const shown = shownSize(text);
    const starts = text.pageStarts;
    if (!starts || shown >= text.size) return none;
    const pageBytes = (page: number) => ({
      from: pageStart(starts, page),
      to: page < pageCount(starts) ? pageStart(starts, page + 1) : text.size,
    });
    if (text.at >= shown) {
      const window = windowAround(text.window, text.at, this.snippetLength, text.start, text.size);
      if (highlightWindow(window.text, parsed, false, false) !== undefined) {
        const page = pageAt(starts, text.at);
        const { from, to } = pageBytes(page);
        return {
          page,
          words: termsFoundIn(text.window, Math.max(from, shown) - text.start, to - text.start, needles),
        };
      }
    } else if (needles.absenceIsProof) return none;
    const whole = Buffer.from(content ?? (await this.texts.column(text.id, 'content')));
    const hidden = whole.toString('utf8', shown);
    const found = snippetAroundFirstMatch(hidden, parsed, this.snippetLength);
    if (found === undefined) return none;
    const page = pageAt(starts, shown + Buffer.byteLength(hidden.slice(0, found.at)));
    const { from, to } = pageBytes(page);
    return { page, words: termsFoundIn(whole, Math.max(from, shown), to, needles) };
  }

  /** The hit's description: it comes with the hit only when the text holds no needle. */
  private async descriptionOf(text: HitText): Promise<string> {
    return text.description ?? this.texts.column(text.id, 'description');
  }

  /** The beginning of the part of the text a snippet may show, else the description's. */
  private async beginningSnippet(text: HitText): Promise<Snippet> {
    const shown = shownSize(text);
    if (shown === 0) return { html: leadingSnippet(await this.descriptionOf(text), this.snippetLength), page: 0 };
    const bytes = text.start === 0 ? text.window : await this.texts.leadingBytes(text.id, this.reach);
    const window = windowAround(bytes.subarray(0, shown), 0, this.snippetLength, 0, text.size);
    return { html: `${escapeHtml(window.text)}${window.cutAfter ? '…' : ''}`, page: pageAt(text.pageStarts, 0) };
  }
}
