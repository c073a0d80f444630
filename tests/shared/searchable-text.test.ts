import { describe, expect, it } from 'vitest';
import { firstSearchedWord, hasSearchableText, isCjkCodePoint, queryWords } from '../../shared/searchable-text';

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

describe('queryWords and firstSearchedWord', () => {
  it('read a leading - as a word left out and a closed quote as one phrase, as the search does', () => {
    expect(queryWords('图书馆 -量子 Wi-Fi "machine learning" - "open')).toEqual([
      { text: '图书馆', excluded: false, quoted: false },
      { text: '量子', excluded: true, quoted: false },
      { text: 'Wi-Fi', excluded: false, quoted: false },
      { text: 'machine learning', excluded: false, quoted: true },
      { text: '-', excluded: false, quoted: false },
      { text: '"open', excluded: false, quoted: false },
    ]);
    expect(firstSearchedWord('-星图 “麒麟 图谱” 笔记')).toBe('麒麟 图谱');
    expect(firstSearchedWord('。。 －量子 报告')).toBe('报告');
    expect(firstSearchedWord('-量子')).toBe('量子');
    expect(firstSearchedWord('，。')).toBe('');
  });
});
