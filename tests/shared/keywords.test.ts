import { describe, expect, it } from 'vitest';
import { SHOWN_KEYWORDS, keywordsOf, shownKeywords } from '../../shared/keywords';

describe('keywordsOf', () => {
  it('splits at the commas, 、, semicolons and spaces people type, both widths, trimmed, none empty', () => {
    expect(keywordsOf('数学，教案、 期末;复习；  试卷\t答案\n模板,,')).toEqual([
      '数学',
      '教案',
      '期末',
      '复习',
      '试卷',
      '答案',
      '模板',
    ]);
  });

  it('keeps each word once, where it first came', () => {
    expect(keywordsOf('文库, 分享，文库,分享 资料')).toEqual(['文库', '分享', '资料']);
  });

  it('finds no word in an empty or separators-only list', () => {
    expect(keywordsOf('')).toEqual([]);
    expect(keywordsOf(' ，、;； ')).toEqual([]);
  });
});

describe('shownKeywords', () => {
  it('gives a page at most SHOWN_KEYWORDS words, the first ones, and none without keywords', () => {
    const many = Array.from({ length: SHOWN_KEYWORDS + 3 }, (_, i) => `词${String(i + 1)}`);
    expect(shownKeywords(many.join('，'))).toEqual(many.slice(0, SHOWN_KEYWORDS));
    expect(shownKeywords('甲、甲、乙')).toEqual(['甲', '乙']);
    expect(shownKeywords(undefined)).toEqual([]);
  });
});
