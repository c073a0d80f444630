// The dictionary words the index keeps whole beside the bigrams (bigrams.ts, rule 4): a word
// of 3 or more Han characters found anywhere in a text becomes one more token, so that a query
// for it reads one doclist instead of checking the positions of 2–5 bigrams in every candidate.
// Every occurrence is found (not a segmentation: `天安门广场` gives `天安门` and `天安门广场`), so a
// word token is there exactly where its bigram phrase is, and matching either gives the same
// entries. The list is ZH_WORDS (zh-words.ts, read from zh-words.txt at start), indexed on first use.
import { ZH_WORDS } from './zh-words';

const WORD = 1;
const PREFIX = 2;

interface Dictionary {
  /** the words, and the beginnings of 3 or more characters of longer ones: WORD, PREFIX or both */
  entries: Map<string, number>;
  /** 1 for each character a word begins with */
  firstChars: Uint8Array;
  /** the first two characters of each word, as `pairKey` */
  pairs: Set<number>;
}

// The words are BMP ideographs (CJK Unified and Extension A): the tokenizer has folded every
// other form of them (radicals, compatibility ideographs) into these already.
const FIRST_HAN = 0x3400;
const HAN_SPAN = 0xa000 - FIRST_HAN;
const WHOLE_HAN_WORD = /^[\u3400-\u4dbf\u4e00-\u9fff]{3,}$/u;

function isHan(code: number): boolean {
  return (code >= 0x4e00 && code <= 0x9fff) || (code >= 0x3400 && code <= 0x4dbf);
}

/** Two ideographs as one small integer: a set lookup without cutting a string. */
function pairKey(first: number, second: number): number {
  return (first - FIRST_HAN) * HAN_SPAN + (second - FIRST_HAN);
}

let dictionary: Dictionary | undefined;

function load(): Dictionary {
  if (dictionary) return dictionary;
  const entries = new Map<string, number>();
  const firstChars = new Uint8Array(0x10000);
  const pairs = new Set<number>();
  for (const word of ZH_WORDS) {
    // A word the scan below could not find in a text would never match: keep none.
    if (!WHOLE_HAN_WORD.test(word)) continue;
    entries.set(word, (entries.get(word) ?? 0) | WORD);
    for (let end = 3; end < word.length; end++) {
      const prefix = word.slice(0, end);
      entries.set(prefix, (entries.get(prefix) ?? 0) | PREFIX);
    }
    firstChars[word.charCodeAt(0)] = 1;
    pairs.add(pairKey(word.charCodeAt(0), word.charCodeAt(1)));
  }
  dictionary = { entries, firstChars, pairs };
  return dictionary;
}

/** Whether a folded text is a word of the dictionary (3 or more ideographs). */
export function isDictionaryWord(folded: string): boolean {
  return folded.length >= 3 && ((load().entries.get(folded) ?? 0) & WORD) !== 0;
}

/** Every dictionary word in a folded text, in order of where it starts, each time it occurs. */
export function dictionaryWords(folded: string): string[] {
  const { entries, firstChars, pairs } = load();
  const found: string[] = [];
  const length = folded.length;
  for (let start = 0; start + 3 <= length; start++) {
    const first = folded.charCodeAt(start);
    if (firstChars[first] === 0) continue;
    const second = folded.charCodeAt(start + 1);
    if (!isHan(second) || !pairs.has(pairKey(first, second))) continue;
    // Longer and longer candidates within the run of ideographs, while they begin some word.
    for (let end = start + 3; end <= length && isHan(folded.charCodeAt(end - 1)); end++) {
      const candidate = folded.slice(start, end);
      const kind = entries.get(candidate) ?? 0;
      if (kind & WORD) found.push(candidate);
      if (!(kind & PREFIX)) break;
    }
  }
  return found;
}
