// The words the search index also keeps whole (words.ts), from zh-words.txt (one per line,
// UTF-8): every word of 3 or more Han characters with a frequency of at least 5 in jieba's
// dictionary (dict.txt as shipped by @node-rs/jieba 2.0.3, MIT licence, Copyright 2012-2017
// Sun Junyi), 62,723 words, sorted. Changing the list changes the tokens: bump
// TOKENIZER_VERSION (bigrams.ts).
// Read once when the module loads, so a server started without the file stops at once instead
// of at its first search. The file sits beside this module in the source tree and beside each
// bundle in dist/server (scripts/build-server.ts copies it there).
import { readFileSync } from 'node:fs';

export const ZH_WORDS_FILE = 'zh-words.txt';

export const ZH_WORDS: readonly string[] = readFileSync(new URL(`./${ZH_WORDS_FILE}`, import.meta.url), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '');
