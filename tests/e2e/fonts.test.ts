// The e2e set-up's word on fonts (global-setup.ts): it names each expected face and its
// Debian package when fontconfig picks another.
import { describe, expect, it } from 'vitest';
import { EXPECTED_FONTS, fontDifferences } from './global-setup';

describe('the fonts the browser tests expect', () => {
  it('says nothing when fontconfig picks them', () => {
    expect(fontDifferences((pattern) => EXPECTED_FONTS.find((font) => font.pattern === pattern)?.family)).toEqual([]);
  });

  it('names the expected face, its package and what is picked instead', () => {
    const picked: Record<string, string> = { Arial: 'Liberation Sans', 'sans-serif:lang=zh-cn': 'WenQuanYi Zen Hei' };
    expect(fontDifferences((pattern) => picked[pattern])).toEqual([
      'Chinese text: Noto Sans CJK SC (Debian package fonts-noto-cjk) expected, fontconfig picks WenQuanYi Zen Hei',
    ]);
    expect(fontDifferences(() => undefined)).toEqual([
      'Latin text: Liberation Sans (Debian package fonts-liberation) expected, fontconfig picks nothing (no fc-match)',
      'Chinese text: Noto Sans CJK SC (Debian package fonts-noto-cjk) expected, fontconfig picks nothing (no fc-match)',
    ]);
  });
});
