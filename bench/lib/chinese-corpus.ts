// Deterministic Chinese-like documents for the search benchmark: words drawn from a real
// frequency list, so that common words are everywhere and rare ones in few documents, with a
// topic per document that makes content words cluster, as in a real library.
import { CHINESE_WORD_FREQUENCIES } from './chinese-words';

/** mulberry32: a small seeded generator, the same sequence on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Vocabulary {
  words: string[];
  /** cumulative frequency, for drawing a word in proportion to its frequency */
  cumulative: Float64Array;
}

function loadVocabulary(): Vocabulary {
  const fields = CHINESE_WORD_FREQUENCIES.trim().split(/\s+/);
  const words: string[] = [];
  const cumulative = new Float64Array(fields.length / 2);
  let sum = 0;
  for (let i = 0; i + 1 < fields.length; i += 2) {
    words.push(fields[i]!);
    sum += Number(fields[i + 1]);
    cumulative[i / 2] = sum;
  }
  return { words, cumulative };
}

function drawWord(vocabulary: Vocabulary, random: () => number): string {
  const target = random() * vocabulary.cumulative[vocabulary.cumulative.length - 1]!;
  let low = 0;
  let high = vocabulary.cumulative.length - 1;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (vocabulary.cumulative[mid]! < target) low = mid + 1;
    else high = mid;
  }
  return vocabulary.words[low]!;
}

export interface GeneratedDocument {
  id: number;
  title: string;
  keywords: string;
  description: string;
  content: string;
  topic: number;
  ext: string;
  createdAt: string;
  viewCount: number;
  downloadCount: number;
}

/** A generated document's search attributes, the same in the benchmark and the engines' tests: twelve categories by topic. */
export function searchAttributes(d: GeneratedDocument) {
  return {
    categoryIds: [1 + (d.topic % 12)],
    ext: d.ext,
    language: 'zh',
    createdAt: d.createdAt,
    viewCount: d.viewCount,
    downloadCount: d.downloadCount,
  };
}

export const TOPICS = 40;
// Words of the first ranks (的, 是, 我们 …) are in every text; the others cluster by topic.
const FUNCTION_WORDS = 200;
const TOPIC_WORDS = 300;
const FUNCTION_SHARE = 0.5;
const TOPIC_SHARE = 0.45;
const EXTS = ['.pdf', '.docx', '.pptx', '.xlsx', '.txt'];
const LATIN_WORDS = ['PDF', 'Python', 'Excel', 'AI', '2023', '5G', 'Java', 'HTML', 'CPU', 'GDP'];

function slice(vocabulary: Vocabulary, from: number, to: number): Vocabulary {
  const base = from > 0 ? vocabulary.cumulative[from - 1]! : 0;
  return {
    words: vocabulary.words.slice(from, to),
    cumulative: vocabulary.cumulative.slice(from, to).map((sum) => sum - base),
  };
}

/**
 * A library of documents, each on one of `TOPICS` topics: half of its words are function words,
 * most of the rest come from its topic's words (drawn by frequency, so common content words
 * belong to many topics and rare ones to few), a few from anywhere.
 */
export class ChineseCorpus {
  private readonly functionWords: Vocabulary;
  private readonly contentWords: Vocabulary;
  private readonly topics: Vocabulary[];

  constructor(private readonly seed: number) {
    const vocabulary = loadVocabulary();
    this.functionWords = slice(vocabulary, 0, FUNCTION_WORDS);
    this.contentWords = slice(vocabulary, FUNCTION_WORDS, vocabulary.words.length);
    const random = seededRandom(seed);
    const contentFrequency = (word: string) => {
      const at = this.contentWords.words.indexOf(word);
      return this.contentWords.cumulative[at]! - (at > 0 ? this.contentWords.cumulative[at - 1]! : 0);
    };
    this.topics = Array.from({ length: TOPICS }, () => {
      const words = new Set<string>();
      while (words.size < TOPIC_WORDS) words.add(drawWord(this.contentWords, random));
      // Within its topic a word keeps its relative frequency.
      const list = [...words];
      let sum = 0;
      return { words: list, cumulative: Float64Array.from(list, (word) => (sum += contentFrequency(word))) };
    });
  }

  /** Document `id` (1-based), about `length` characters of text; the same id gives the same document. */
  document(id: number, length: number): GeneratedDocument {
    const random = seededRandom(this.seed * 1_000_003 + id);
    const topic = Math.floor(random() * TOPICS);
    const topicWords = this.topics[topic]!;
    const word = () => {
      const dice = random();
      if (dice < FUNCTION_SHARE) return drawWord(this.functionWords, random);
      return drawWord(dice < FUNCTION_SHARE + TOPIC_SHARE ? topicWords : this.contentWords, random);
    };
    const contentWord = () => (random() < 0.004 ? LATIN_WORDS[Math.floor(random() * LATIN_WORDS.length)]! : word());

    let content = '';
    let sentences = 0;
    while (content.length < length) {
      const clauses = 1 + Math.floor(random() * 3);
      for (let c = 0; c < clauses; c++) {
        const count = 3 + Math.floor(random() * 6);
        for (let w = 0; w < count; w++) content += contentWord();
        content += c + 1 < clauses ? '，' : random() < 0.9 ? '。' : '？';
      }
      sentences++;
      if (sentences % (3 + Math.floor(random() * 4)) === 0) content += '\n';
    }
    const titleWords = Array.from({ length: 2 + Math.floor(random() * 3) }, () => drawWord(topicWords, random));
    const title = `${titleWords.join('')}${drawWord(this.functionWords, random)}${drawWord(topicWords, random)}`;
    const keywords = titleWords.slice(0, 3).join(',');
    const created = Date.UTC(2023, 0, 1) + Math.floor(random() * 730) * 86_400_000;
    return {
      id,
      title,
      keywords,
      // MOREDOC's description of a converted document: the first 255 characters of its text.
      description: content.slice(0, 255),
      content,
      topic,
      ext: EXTS[Math.floor(random() * EXTS.length)]!,
      createdAt: new Date(created).toISOString(),
      viewCount: Math.floor(random() * 5000),
      downloadCount: Math.floor(random() * 500),
    };
  }
}
