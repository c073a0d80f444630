// Our index tokens (bigrams.ts) as PostgreSQL tsvectors, in their text form. A tsvector holds
// positions up to 16,383, 256 of them per token and 1 MiB of distinct tokens, where FTS5 holds
// a text of any length: a long text is cut into parts that each stay within those limits, so
// that every instance keeps its position (phrases are matched, instances counted, as FTS5
// does). A part ends where no phrase of a query can run on: after a lone CJK character (a run's
// end) or between tokens of different kinds, never between two bigrams or two words; only a
// text without such a place (a long run of Latin words) is cut elsewhere, and a phrase of
// several words across that cut is not found.
import { isCjkCodePoint } from '../../../shared/searchable-text';

// What a tsvector holds at most (PostgreSQL's tsvector.h).
const MAX_POSITION = 16_383;
const MAX_POSITIONS = 256;
const MAX_TOKEN_BYTES = 2_046;
const MAX_PART_BYTES = 1_000_000;
/** A token of this many UTF-16 units or fewer is within MAX_TOKEN_BYTES (3 bytes a unit at most). */
const SURELY_SHORT = Math.floor(MAX_TOKEN_BYTES / 3);

function tooLong(term: string): boolean {
  return term.length > SURELY_SHORT && Buffer.byteLength(term) > MAX_TOKEN_BYTES;
}

export type Weight = 'A' | 'B' | 'C' | 'D';

export interface TsColumn {
  terms: readonly string[];
  weight: Weight;
}

const enum Kind {
  Word,
  Pair,
  Other,
}

/** A bigram (two CJK characters), a Latin/digit word, or anything else (a lone character, a dictionary word). */
function kindOf(term: string): Kind {
  const first = term.codePointAt(0)!;
  if (!isCjkCodePoint(first)) return Kind.Word;
  const width = first > 0xffff ? 2 : 1;
  if (term.length === width) return Kind.Other;
  const second = term.codePointAt(width)!;
  return term.length === width + (second > 0xffff ? 2 : 1) ? Kind.Pair : Kind.Other;
}

/** Whether a phrase of a query may hold both tokens, one after the other: two bigrams, or two words. */
function phraseMayJoin(before: string, after: string): boolean {
  const kind = kindOf(before);
  return kind !== Kind.Other && kind === kindOf(after);
}

function quoted(term: string): string {
  return `'${term.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

/**
 * The tsvectors of some columns: each column's tokens at the positions after the previous
 * column's, one position apart (no phrase spans two columns), marked with the column's weight;
 * one tsvector, or several parts when the tokens exceed a tsvector's limits. A token longer
 * than 2,046 bytes keeps its position but is left out.
 */
export function tsvectorParts(columns: readonly TsColumn[]): string[] {
  // One sequence: '' between columns, the weight of each token beside it.
  const terms: string[] = [];
  const weights: Weight[] = [];
  for (const [index, column] of columns.entries()) {
    if (index > 0) {
      terms.push('');
      weights.push(column.weight);
    }
    for (const term of column.terms) {
      terms.push(term);
      weights.push(column.weight);
    }
  }
  const parts: string[] = [];
  for (let start = 0; start < terms.length;) {
    const end = partEnd(terms, start);
    parts.push(render(terms, weights, start, end));
    start = end;
  }
  return parts.length > 0 ? parts : [''];
}

/** Where the part that begins at `start` ends: at the last place no phrase runs on, before a limit. */
function partEnd(terms: readonly string[], start: number): number {
  const counts = new Map<string, number>();
  let position = 0;
  let bytes = 0;
  let safe = start;
  for (let i = start; i < terms.length; i++) {
    const term = terms[i]!;
    position++;
    if (position > MAX_POSITION) return safe > start ? safe : i;
    if (term === '') {
      safe = i + 1;
      continue;
    }
    const count = counts.get(term);
    if (!tooLong(term)) {
      const size = count === undefined ? Buffer.byteLength(term) : 0;
      if ((count ?? 0) >= MAX_POSITIONS || bytes + size > MAX_PART_BYTES) return safe > start ? safe : i;
      counts.set(term, (count ?? 0) + 1);
      bytes += size;
    }
    const next = terms[i + 1];
    if (next !== undefined && (next === '' || !phraseMayJoin(term, next))) safe = i + 1;
  }
  return terms.length;
}

function render(terms: readonly string[], weights: readonly Weight[], start: number, end: number): string {
  const positions = new Map<string, string[]>();
  for (let i = start; i < end; i++) {
    const term = terms[i]!;
    if (term === '' || tooLong(term)) continue;
    const weight = weights[i]!;
    let list = positions.get(term);
    if (!list) positions.set(term, (list = []));
    list.push(`${i - start + 1}${weight === 'D' ? '' : weight}`);
  }
  let text = '';
  for (const [term, list] of positions) text += `${quoted(term)}:${list.join(',')} `;
  return text;
}

/** One tsvector of the columns: their first part (a title and keywords, or a description, never need more). */
export function tsvectorOf(columns: readonly TsColumn[]): string {
  return tsvectorParts(columns)[0]!;
}

/** Bytes of distinct lexemes in one tsvector of count lexemes (PostgreSQL allows 1 MiB). */
const MAX_COUNT_BYTES = 1_000_000;

/**
 * A column's counts as lexemes that a GIN index finds, so that ranking reads no tsvector: for
 * every token found more than once, the bits of its count less one, as `<token>#<mark><bit>`
 * (no token holds a `#` but the sign `#` itself, whose `##<mark><bit>` reads one way too). A
 * token found once has none; its count is 1. Returns the bits the largest count needs, and the
 * lexemes as tsvectors (without positions) of at most 1 MiB.
 */
export function countLexemes(terms: readonly string[], mark: string): { bits: number; parts: string[] } {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  let bits = 0;
  const parts: string[] = [];
  let part = '';
  let bytes = 0;
  for (const [term, count] of counts) {
    if (count < 2 || tooLong(term)) continue;
    const extra = count - 1;
    bits = Math.max(bits, 32 - Math.clz32(extra));
    for (let bit = 0; extra >= 2 ** bit; bit++) {
      if ((extra & (2 ** bit)) === 0) continue;
      const lexeme = `${term}#${mark}${bit}`;
      const size = Buffer.byteLength(lexeme);
      if (bytes + size > MAX_COUNT_BYTES) {
        parts.push(part);
        part = '';
        bytes = 0;
      }
      part += `${quoted(lexeme)} `;
      bytes += size;
    }
  }
  if (part !== '') parts.push(part);
  return { bits, parts };
}
