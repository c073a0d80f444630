// Text in and out of a conversion: the extracted text is normalised so that search and the
// description see the characters a reader sees, and plain-text uploads are decoded whatever
// their encoding (Chinese .txt files are often GBK).

// PDFs whose ToUnicode maps point glyphs at radical code points give text such as "⽂档" or
// "增⻓". NFKC folds the Kangxi Radicals block (U+2F00–U+2FD5) into ideographs but leaves
// nearly all of the CJK Radicals Supplement (U+2E80–U+2EF3) alone. Pairs below: radical,
// equivalent ideograph, from Unicode 15.0 EquivalentUnifiedIdeograph.txt (U+2E81–U+2EF3).
const RADICAL_PAIRS =
  '⺁厂⺂乛⺃乚⺄乙⺅亻⺆冂⺇𠘨⺈刀⺉刂⺊卜⺋㔾⺌小⺍小⺎兀⺏尣⺐尢⺑𡯂⺒巳⺓幺⺔彑⺕𫜹⺖忄⺗心⺘扌⺙攵⺛旡⺜日⺝月⺞歺⺟母⺠民' +
  '⺡氵⺢氺⺣灬⺤爫⺥爫⺦丬⺧牛⺨犭⺩王⺪𤴔⺫目⺬示⺭礻⺮𥫗⺯糹⺰纟⺱罓⺲罒⺳㓁⺴冗⺵𦉫⺶羊⺷𦍌⺸𦍋⺹耂⺺肀⺻聿⺼肉⺽𦥑' +
  '⺾艹⺿艹⻀艹⻁虎⻂衤⻃覀⻄西⻅见⻆角⻇𧢲⻈讠⻉贝⻊𧾷⻋车⻌辶⻍辶⻎辶⻏邑⻐钅⻑長⻒镸⻓长⻔门⻕𨸏⻖阝⻗雨⻘青⻙韦⻚页' +
  '⻛风⻜飞⻝食⻞𩙿⻟飠⻠饣⻡𩠐⻢马⻣骨⻤鬼⻥鱼⻦鸟⻧卤⻨麦⻩黄⻪黾⻫斉⻬齐⻭歯⻮齿⻯竜⻰龙⻱龜⻲亀⻳龟';

const RADICAL_EQUIVALENTS: ReadonlyMap<string, string> = (() => {
  const chars = Array.from(RADICAL_PAIRS);
  const map = new Map<string, string>();
  for (let i = 0; i + 1 < chars.length; i += 2) map.set(chars[i]!, chars[i + 1]!);
  return map;
})();

const RADICALS_SUPPLEMENT = /[\u2E80-\u2EFF]/gu;

// Full-width punctuation (，：；！？（）…) is how Chinese is written: NFKC would turn it into
// ASCII in every description shown to readers. It stays; search folds it itself.
const OUTSIDE_FULLWIDTH_PUNCTUATION = /[^\uFF01-\uFF0F\uFF1A-\uFF20\uFF3B-\uFF40\uFF5B-\uFF65]+/gu;

/** NFKC except for full-width punctuation, then the radicals NFKC keeps mapped to the ideographs they stand for. */
export function normalizeExtractedText(text: string): string {
  return text
    .replace(OUTSIDE_FULLWIDTH_PUNCTUATION, (run) => run.normalize('NFKC'))
    .replace(RADICALS_SUPPLEMENT, (radical) => RADICAL_EQUIVALENTS.get(radical) ?? radical);
}

// Chinese needs no spaces between characters. PDFs break lines inside words ("读\n\n者"), and
// MuPDF adds a space where justified text leaves a wide gap: either would split a word for search.
const WHITESPACE_BETWEEN_HAN = /(?<=\p{Script=Han})\s+(?=\p{Script=Han})/gu;

// A line of Chinese is also cut after a comma or an opening bracket (“讲起，\n适合”), before
// punctuation, or inside a run of full-width letters (“ＰＹＴＨＯ\nＮ”): read as a space, that
// break shows in every snippet and description (“讲起， 适合”) and splits the word. Taken out
// before NFKC, while the letters are still full-width. A break after the end of a sentence
// (。！？, a closing bracket or quote) may be the writer's own line and stays, as does a blank line.
const FULL_WIDTH_ALNUM = '\\uFF10-\\uFF19\\uFF21-\\uFF3A\\uFF41-\\uFF5A';
const BEFORE_BREAK = `\\p{Script=Han}${FULL_WIDTH_ALNUM}，、：；（［｛《〈「『【〔〖“‘`;
const AFTER_BREAK = `\\p{Script=Han}${FULL_WIDTH_ALNUM}\\u3001-\\u303F\\uFF01-\\uFF65”’`;
const LINE_BREAK_IN_A_SENTENCE = new RegExp(`(?<=[${BEFORE_BREAK}])(?!\\s*\\n\\s*\\n)\\s+(?=[${AFTER_BREAK}])`, 'gu');

/** A document's text as MuPDF extracts it → normalised, Chinese words whole, no trailing blanks. */
export function normalizeDocumentText(text: string): string {
  return normalizeExtractedText(text.replace(LINE_BREAK_IN_A_SENTENCE, ''))
    .replace(WHITESPACE_BETWEEN_HAN, '')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** What separates the pages of a document's text: a form feed, which no page text keeps. */
export const PAGE_BREAK = '\f';

/**
 * The pages' texts as one document text: each normalised on its own (a form feed inside a page
 * becomes a line break), joined by PAGE_BREAK, so that the text of page n is always the n-th
 * piece, empty pages included. A word cut by a page break stays cut here: the search engine
 * joins it when it reads the pages (platform/search, `paged` entries).
 */
export function joinPageTexts(texts: readonly string[]): string {
  return texts.map((text) => normalizeDocumentText(text.replaceAll(PAGE_BREAK, '\n'))).join(PAGE_BREAK);
}

function decodeStrict(bytes: Uint8Array, encoding: string, partial: boolean): string | null {
  try {
    // `stream` keeps a character cut at the end of a partial read from counting as an error.
    return new TextDecoder(encoding, { fatal: true }).decode(bytes, { stream: partial });
  } catch {
    return null;
  }
}

/** Control characters other than tab, line feed, form feed and carriage return; C1 controls (U+0080–U+009F) too. */
function countControlCharacters(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (
      (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0c && code !== 0x0d) ||
      (code >= 0x7f && code <= 0x9f)
    )
      count++;
  }
  return count;
}

// Chinese files without a byte-order mark that are not UTF-8 are GBK/GB18030 (Simplified, the
// common case) or Big5 (Traditional: Taiwan, Hong Kong). Nearly every Big5 file also decodes as
// GB18030, into rare characters (mojibake); a GBK file often decodes as Big5 too. Rule: decode
// both, and take Big5 only when more of its double-byte characters are common ones of its
// script than of GB18030's: for Big5 the symbols and 常用字 (A140–A3BF, A440–C67E), for GB18030
// the GB2312 set (lead byte A1–F7, trail byte A1–FE). A tie stays GB18030.
function isCommonPair(lead: number, trail: number, encoding: 'gb18030' | 'big5'): boolean {
  if (encoding === 'gb18030') return lead >= 0xa1 && lead <= 0xf7 && trail >= 0xa1 && trail <= 0xfe;
  const code = (lead << 8) | trail;
  return (code >= 0xa140 && code <= 0xa3bf) || (code >= 0xa440 && code <= 0xc67e);
}

/**
 * How many of the double-byte characters of `bytes`, read in `encoding`, are common ones; plus
 * `fourByteWeight` for each four-byte sequence of GB18030.
 */
function countCommonCharacters(bytes: Uint8Array, encoding: 'gb18030' | 'big5', fourByteWeight = 0): number {
  let count = 0;
  for (let i = 0; i < bytes.length;) {
    const lead = bytes[i]!;
    if (lead < 0x80) i++;
    else if (i + 1 >= bytes.length) break;
    else if (encoding === 'gb18030' && bytes[i + 1]! >= 0x30 && bytes[i + 1]! <= 0x39) {
      count += fourByteWeight;
      i += 4;
    } else {
      if (isCommonPair(lead, bytes[i + 1]!, encoding)) count++;
      i += 2;
    }
  }
  return count;
}

function decodeChinese(bytes: Uint8Array, partial: boolean): string | null {
  const gb = decodeStrict(bytes, 'gb18030', partial);
  const big5 = decodeStrict(bytes, 'big5', partial);
  if (gb === null || big5 === null) return gb ?? big5;
  return countCommonCharacters(bytes, 'big5') > countCommonCharacters(bytes, 'gb18030') ? big5 : gb;
}

// UTF-16 without a byte-order mark: ASCII letters, digits, spaces and line breaks all have a
// zero high byte, which falls on odd offsets in UTF-16LE and even ones in UTF-16BE. Binary
// data has zero bytes at both. Rule: at least 1 byte in 16 is zero, and 4 in 5 of them are on
// one side; the text decoded so must then pass the control-character check like any other.
function utf16WithoutBom(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  let even = 0;
  let odd = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== 0) continue;
    if (i % 2 === 0) even++;
    else odd++;
  }
  const zeros = even + odd;
  if (zeros * 16 < bytes.length) return null;
  if (odd >= zeros * 0.8) return 'utf-16le';
  if (even >= zeros * 0.8) return 'utf-16be';
  return null;
}

// UTF-16 without a byte-order mark whose text is mostly Chinese has few zero bytes, or none
// when it has no ASCII at all (no line break): the rule above misses it. Rule: decoded as
// UTF-16 (LE, else BE) the bytes are CJK text throughout (CJK_TEXT: ideographs, CJK and
// full-width punctuation, kana, the symbols GBK and Big5 carry, ASCII text characters; no
// unpaired surrogate, no control character), and 9 in 10 of the characters past ASCII are common
// ones (those of isCommonPair: GB2312's, Big5's symbols and 常用字), as in real text. Where the
// bytes also read as GB18030 or Big5 (they have no zero byte), UTF-16 must explain more of them
// with common characters than those do, a four-byte GB18030 sequence counting as two common
// characters. GBK's common characters read as UTF-16 are Hangul, private-use characters or
// surrogates; Big5's give ideographs only where the trail byte is 0x40–0x7E, mostly rare ones.
const CJK_TEXT =
  /^[\t\n\f\r\x20-\x7e\u00a0-\u00ff\u2010-\u205e\u2100-\u27bf\u2e80-\u2fdf\u2ff0-\u303f\u3040-\u31ff\u3200-\u4dbf\u4e00-\u9fff\uf900-\ufaff\ufe10-\ufe1f\ufe30-\ufe4f\uff00-\uffef\u{20000}-\u{323af}]*$/u;

let commonCharacters: ReadonlySet<string> | undefined;

/** The characters of every common double-byte pair of GB18030 and Big5 (isCommonPair), made once. */
function common(): ReadonlySet<string> {
  if (commonCharacters) return commonCharacters;
  const set = new Set<string>();
  for (const encoding of ['gb18030', 'big5'] as const) {
    const pairs: number[] = [];
    for (let lead = 0xa1; lead <= 0xf7; lead++)
      for (let trail = 0x40; trail <= 0xfe; trail++) if (isCommonPair(lead, trail, encoding)) pairs.push(lead, trail);
    for (const char of new TextDecoder(encoding).decode(new Uint8Array(pairs))) if (char !== '\ufffd') set.add(char);
  }
  commonCharacters = set;
  return set;
}

/** The bytes as BOM-less UTF-16 of Chinese text (the rule above), with its count of common characters; else null. */
function cjkUtf16(bytes: Uint8Array, partial: boolean): { text: string; common: number } | null {
  for (const encoding of ['utf-16le', 'utf-16be']) {
    const text = decodeStrict(bytes, encoding, partial);
    if (text === null || !CJK_TEXT.test(text)) continue;
    let wide = 0;
    let found = 0;
    for (const char of text) {
      if (char.charCodeAt(0) < 0x80) continue;
      wide++;
      if (common().has(char)) found++;
    }
    if (found > 0 && found * 10 >= wide * 9) return { text, common: found };
  }
  return null;
}

/** Bytes without a zero byte that are not UTF-8: GB18030 or Big5, unless they read better as UTF-16 (cjkUtf16). */
function decodeLegacyOrUtf16(bytes: Uint8Array, partial: boolean): string | null {
  const legacy = decodeChinese(bytes, partial);
  const utf16 = cjkUtf16(bytes, partial);
  if (utf16 === null) return legacy;
  if (legacy === null || countControlCharacters(legacy) > legacy.length / 100) return utf16.text;
  const legacyCommon = Math.max(countCommonCharacters(bytes, 'gb18030', 2), countCommonCharacters(bytes, 'big5'));
  return utf16.common > legacyCommon ? utf16.text : legacy;
}

/**
 * The text of a plain-text file: UTF-8 or UTF-16 with a byte-order mark, UTF-8, UTF-16 without
 * one (utf16WithoutBom, or cjkUtf16 for Chinese text), else GB18030 (a superset of GBK and
 * GB2312) or Big5 (decodeChinese).
 * Null when the bytes are not text (binary data, or more than 1 % control characters).
 * `partial`: the bytes are the beginning of a longer file.
 */
export function decodeTextFile(bytes: Uint8Array, { partial = false } = {}): string | null {
  let text: string | null;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    text = decodeStrict(bytes.subarray(3), 'utf-8', partial);
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) text = decodeStrict(bytes.subarray(2), 'utf-16le', partial);
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = decodeStrict(bytes.subarray(2), 'utf-16be', partial);
  else if (bytes.includes(0)) {
    const utf16 = utf16WithoutBom(bytes);
    text = utf16 === null ? (cjkUtf16(bytes, partial)?.text ?? null) : decodeStrict(bytes, utf16, partial);
  } else text = decodeStrict(bytes, 'utf-8', partial) ?? decodeLegacyOrUtf16(bytes, partial);
  if (text === null) return null;
  return countControlCharacters(text) > text.length / 100 ? null : text;
}

const XML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

// Control characters XML does not allow (a form feed among them): they go, as MuPDF's text reader ignored them.
// eslint-disable-next-line no-control-regex -- leaving control characters out is the point
const NOT_IN_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/**
 * A plain-text file as the XHTML page MuPDF lays it out from (name it `.xhtml`): every character
 * as written, lines kept, in the fixed-width face of MuPDF's own text reader. That reader is not
 * used: it takes a line starting with `#` for a Markdown heading and loses all that follows a
 * Chinese second-level one (a .md file showed its title alone), and reads `&amp;` as `&`. Its
 * HTML parser decodes `&amp;amp;` to `&` too; its XML parser does not.
 */
export function textAsXhtml(text: string): string {
  const body = text.replace(NOT_IN_XML, '').replace(/[&<>]/g, (c) => XML_ESCAPES[c]!);
  return `<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><style>body{white-space:pre-wrap;font-family:monospace}</style></head><body>${body}</body></html>`;
}
