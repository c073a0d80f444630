// What the search can look for: the characters that make index tokens (backend/platform/search/
// bigrams.ts builds them; decisions 024 and 073). The backend's tokenizer reads characters with
// these classes, and the SPA and the gateway ask `hasSearchableText` before they search, so a
// query of punctuation or spaces alone (`。。`, `《》`) is told why it finds nothing, uncalled.

// Of ASCII: its symbols (`$ + < = > ^ \` | ~`) and the signs read as words: `#` (C#), `%`, `&`, `@`.
const ASCII_SYMBOLS = new Uint8Array(0x80);
for (const char of '#$%&+<=>@^`|~') ASCII_SYMBOLS[char.charCodeAt(0)] = 1;
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
const SYMBOL = /\p{S}/u;

/** A CJK character (Han, kana, hangul, radicals, compatibility ideographs): each one is searchable. */
export function isCjkCodePoint(cp: number): boolean {
  if (cp < 0x1100) return false;
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x20000 && cp <= 0x323af) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x3041 && cp <= 0x309a) ||
    (cp >= 0x309d && cp <= 0x30ff && cp !== 0x30a0 && cp !== 0x30fb) ||
    (cp >= 0x31f0 && cp <= 0x31ff) ||
    (cp >= 0xac00 && cp <= 0xd7af) ||
    (cp >= 0x1100 && cp <= 0x11ff) ||
    (cp >= 0x3131 && cp <= 0x318e) ||
    (cp >= 0x3005 && cp <= 0x3007) ||
    (cp >= 0x2e80 && cp <= 0x2fdf)
  );
}

/** A letter, digit or mark of a word token (`char` is the code point `cp` as a string). */
export function isWordCodePoint(cp: number, char: string): boolean {
  if (cp < 0x80) return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a);
  // General and CJK punctuation, the bulk of non-letters in Chinese text, without the regex.
  if ((cp >= 0x2000 && cp <= 0x206f) || (cp >= 0x3000 && cp <= 0x303f) || (cp >= 0xff00 && cp <= 0xff0f)) return false;
  return WORD_CHAR.test(char);
}

/**
 * A sign that is a token of its own (decision 073): Unicode's symbols (math, currency, modifier
 * and other symbols: `+ = ¥ © ° ★`, the emoji) and the ASCII signs `# % & @`. Other punctuation
 * still only separates words, so `node.js` stays the phrase `node js`.
 */
export function isSymbolCodePoint(cp: number, char: string): boolean {
  if (cp < 0x80) return ASCII_SYMBOLS[cp] === 1;
  // Ideographs, and the quotes and CJK punctuation of Chinese text, without the regex.
  if ((cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3400 && cp <= 0x4dbf)) return false;
  if ((cp >= 0x2000 && cp <= 0x2043) || (cp >= 0x3000 && cp <= 0x3003) || (cp >= 0x3005 && cp <= 0x3011)) return false;
  return SYMBOL.test(char);
}

/**
 * Whether a query holds anything the index can match: a CJK character, a letter, digit or mark,
 * or a sign, once folded as the tokenizer folds it (NFKC: `＃` is `#`; lower case and the
 * ideograph variants change no character's class). Punctuation and spaces alone: false, and
 * the backend answers such a query with an empty result (docs/api.md, search).
 */
export function hasSearchableText(query: string): boolean {
  for (const char of query.normalize('NFKC')) {
    const cp = char.codePointAt(0)!;
    if (isCjkCodePoint(cp) || isWordCodePoint(cp, char) || isSymbolCodePoint(cp, char)) return true;
  }
  return false;
}

/** A part of a search query as typed: a word between spaces, or a phrase in quotes; with a leading `-`, one to leave out. */
export interface QueryWord {
  text: string;
  excluded: boolean;
  quoted: boolean;
}

const WHITESPACE = /\s/u;
const QUOTE_CLOSE: Readonly<Record<string, string>> = { '"': '"', '\u201c': '\u201d' };

/**
 * The words and quoted phrases of a search query (decision 087), as the backend's tokenizer
 * reads them (after NFKC, so `－` is `-` and `＂` is `"`). A `-` that starts a word and is
 * followed by more than a space leaves it out (`图书馆 -量子`); a `-` inside a word is
 * punctuation (`Wi-Fi`). A quote (`"` or `“…”`) that is closed makes what it holds one phrase,
 * spaces and all; one left open is punctuation.
 */
export function queryWords(query: string): QueryWord[] {
  const words: QueryWord[] = [];
  let index = 0;
  while (index < query.length) {
    if (WHITESPACE.test(query[index]!)) {
      index++;
      continue;
    }
    let excluded = false;
    let at = index;
    if (query[at] === '-' && at + 1 < query.length && !WHITESPACE.test(query[at + 1]!)) {
      excluded = true;
      at++;
    }
    const close = QUOTE_CLOSE[query[at]!];
    const closing = close === undefined ? -1 : query.indexOf(close, at + 1);
    if (closing >= 0) {
      words.push({ text: query.slice(at + 1, closing), excluded, quoted: true });
      index = closing + 1;
      continue;
    }
    let end = at;
    while (end < query.length && !WHITESPACE.test(query[end]!)) end++;
    words.push({ text: query.slice(at, end), excluded, quoted: false });
    index = end;
  }
  return words;
}

/**
 * The first word a search query asks for, without its quotes: what a reader's find (which looks
 * for one run of text) looks for on a page the search matched. Not a word left out (`-量子`),
 * unless the query holds nothing else (the search then looks for those). '' when nothing in it is
 * searchable.
 */
export function firstSearchedWord(query: string): string {
  const words = queryWords(query.normalize('NFKC')).filter((word) => hasSearchableText(word.text));
  return (words.find((word) => !word.excluded) ?? words[0])?.text.trim() ?? '';
}
