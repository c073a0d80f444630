// The dictionary words the index keeps whole beside the bigrams (bigrams.ts, rule 4): a word
// of 3 or more Han characters found anywhere in a text becomes one more token, so that a query
// for it reads one doclist instead of checking the positions of 2–5 bigrams in every candidate.
// Every occurrence is found (not a segmentation: `天安门广场` gives `天安门` and `天安门广场`), so a
// word token is there exactly where its bigram phrase is, and matching either gives the same
// entries. The list is ZH_WORDS (zh-words.ts), loaded on first use.
import { ZH_WORDS } from './zh-words';

interface Dictionary {
  words: Set<string>;
  /** the first two characters of the words (as `pairKey`), with the length of the longest word they start */
  prefixes: Map<number, number>;
}

let dictionary: Dictionary | undefined;

// The words are BMP ideographs (CJK Unified and Extension A), so they can only sit inside a run
// of them; the tokenizer has folded every other form of them (radicals, compatibility
// ideographs) into these already.
const HAN_RUN = /[\u3400-\u4dbf\u4e00-\u9fff]{3,}/gu;
const WHOLE_HAN_WORD = /^[\u3400-\u4dbf\u4e00-\u9fff]{3,}$/u;

/** Two UTF-16 code units as one number: a map lookup without cutting a string. */
function pairKey(text: string, at: number): number {
  return text.charCodeAt(at) * 0x10000 + text.charCodeAt(at + 1);
}

function load(): Dictionary {
  if (dictionary) return dictionary;
  const words = new Set<string>();
  const prefixes = new Map<number, number>();
  for (const word of ZH_WORDS.split(/\s+/u)) {
    // A word HAN_RUN could not find in a text would never match: keep none.
    if (!WHOLE_HAN_WORD.test(word)) continue;
    words.add(word);
    const prefix = pairKey(word, 0);
    prefixes.set(prefix, Math.max(prefixes.get(prefix) ?? 0, word.length));
  }
  dictionary = { words, prefixes };
  return dictionary;
}


/** Whether a folded text is a word of the dictionary (3 or more ideographs). */
export function isDictionaryWord(folded: string): boolean {
  return folded.length >= 3 && load().words.has(folded);
}

/** Every dictionary word in a folded text, in order of where it starts, each time it occurs. */
export function dictionaryWords(folded: string): string[] {
  const { words, prefixes } = load();
  const found: string[] = [];
  for (const [run] of folded.matchAll(HAN_RUN)) {
    for (let start = 0; start + 3 <= run.length; start++) {
      const longest = prefixes.get(pairKey(run, start));
      if (longest === undefined) continue;
      const last = Math.min(run.length, start + longest);
      for (let end = start + 3; end <= last; end++) {
        const candidate = run.slice(start, end);
        if (words.has(candidate)) found.push(candidate);
      }
    }
  }
  return found;
}
