// Keywords of a document: MOREDOC segments the title with jieba when the uploader gives none.
// ICU's dictionary word breaker (Intl.Segmenter, built into Node) does the same job for
// Chinese without a native dependency; words of one character are dropped as noise.
import { keywordsOf } from '../../../shared/keywords';

export { keywordsOf };

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });
const MAX_WORDS = 10;

/** The words of a title worth searching by: two characters or more, no duplicates, at most ten. */
export function segmentTitle(title: string): string[] {
  const words = [...segmenter.segment(title)]
    .filter((s) => s.isWordLike && [...s.segment].length >= 2)
    .map((s) => s.segment);
  return [...new Set(words)].slice(0, MAX_WORDS);
}

/** The keywords stored with a document: the given ones, `, `-separated, else the title's words. */
export function documentKeywords(given: string, title: string): string {
  const words = given.trim() ? keywordsOf(given) : segmentTitle(title);
  return words.join(', ');
}
