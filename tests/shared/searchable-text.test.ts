import { describe, expect, it } from 'vitest';
import { hasSearchableText, isCjkCodePoint } from '../../shared/searchable-text';

describe('hasSearchableText', () => {
  it('is false for punctuation and spaces alone, which the index cannot match', () => {
    for (const query of [
      '。。',
      '《》',
      '——',
      '   ',
      '、',
      '',
      '…',
      '“”',
      '.,;:!?',
      '-_/\\',
      '（）【】',
      '\u3000',
      '！？',
    ])
      expect(hasSearchableText(query), JSON.stringify(query)).toBe(false);
  });

  it('is true for a query holding a CJK character, a letter, a digit or a sign', () => {
    for (const query of [
      '《红楼梦》',
      '。a。',
      '——3',
      ' Ｃ ',
      'の',
      '한',
      '⼈',
      'C++',
      '+',
      '#',
      '＃',
      '😀',
      '❤️',
      '¥',
      'é',
    ])
      expect(hasSearchableText(query), JSON.stringify(query)).toBe(true);
  });

  it('reads CJK characters as the tokenizer does', () => {
    expect(isCjkCodePoint('中'.codePointAt(0)!)).toBe(true);
    expect(isCjkCodePoint('。'.codePointAt(0)!)).toBe(false);
    expect(isCjkCodePoint('a'.codePointAt(0)!)).toBe(false);
  });
});
