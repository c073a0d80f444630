import { describe, expect, it } from 'vitest';
import {
  decodeTextFile,
  joinPageTexts,
  normalizeDocumentText,
  normalizeExtractedText,
} from '../../../backend/platform/convert/text';

// What search and the description see of a document's text, and how plain-text uploads are read.

describe('normalizeExtractedText', () => {
  it('folds Kangxi radicals (NFKC) and the CJK Radicals Supplement that NFKC leaves alone', () => {
    // ⽂ U+2F42 (Kangxi), ⻓ U+2ED3, ⻚ U+2EDA, ⻛ U+2EDB, ⺠ U+2EA0 (Supplement)
    expect(normalizeExtractedText('⽂档增⻓第⼆⻚⻛险⼈⺠')).toBe('文档增长第二页风险人民');
  });

  it("maps the range lines of Unicode's table, up to ideographs outside the BMP", () => {
    expect(normalizeExtractedText('\u2E8C\u2E8D\u2EBE\u2EC0\u2ECC\u2ECE')).toBe('小小艹艹辶辶');
    expect(normalizeExtractedText('\u2E87')).toBe('\u{20628}');
  });

  it('applies NFKC: full-width Latin and digits become ASCII, plain ideographs stay', () => {
    expect(normalizeExtractedText('ＰＤＦ文档１２３')).toBe('PDF文档123');
    expect(normalizeExtractedText('季度经营分析报告')).toBe('季度经营分析报告');
  });

  it('keeps the full-width punctuation Chinese is written with', () => {
    expect(normalizeExtractedText('清晨七点，城市图书馆（总馆）：开门！真的？')).toBe(
      '清晨七点，城市图书馆（总馆）：开门！真的？',
    );
    expect(normalizeExtractedText('ＰＤＦ，１２３')).toBe('PDF，123');
  });
});

describe('normalizeDocumentText', () => {
  it('joins a Chinese word that a line or page break cut, and keeps breaks after punctuation', () => {
    const raw = '台阶上已经坐着几位等候的读\n\n者。有人捧着热豆浆\n\n\n\n  图书馆共有五层。\n\nHello\n\nworld';
    expect(normalizeDocumentText(raw)).toBe(
      '台阶上已经坐着几位等候的读者。有人捧着热豆浆图书馆共有五层。\n\nHello\n\nworld',
    );
  });

  it('drops the space MuPDF puts into justified Chinese and trailing blanks', () => {
    expect(normalizeDocumentText('  修复 师王老师  \n')).toBe('修复师王老师');
  });
});

describe('joinPageTexts', () => {
  it('normalises each page on its own and puts one form feed between pages, empty ones included', () => {
    expect(joinPageTexts(['  第一页 的读\n\n者  ', '', 'Page\fthree'])).toBe('第一页的读者\f\fPage\nthree');
    expect(joinPageTexts(['只有一页'])).toBe('只有一页');
    expect(joinPageTexts([''])).toBe('');
  });
});

describe('decodeTextFile', () => {
  const text = '中文测试，GBK 编码的文本。';

  it('reads UTF-8, with or without a byte-order mark', () => {
    expect(decodeTextFile(Buffer.from(text))).toBe(text);
    expect(decodeTextFile(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]))).toBe(text);
  });

  it('reads UTF-16 with a byte-order mark', () => {
    expect(decodeTextFile(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]))).toBe(text);
    const bigEndian = Buffer.from(text, 'utf16le').swap16();
    expect(decodeTextFile(Buffer.concat([Buffer.from([0xfe, 0xff]), bigEndian]))).toBe(text);
  });

  it('reads GBK (as GB18030) when the bytes are not UTF-8', () => {
    // 测试文本 in GBK
    expect(decodeTextFile(Buffer.from('b2e2cad4cec4b1be', 'hex'))).toBe('测试文本');
  });

  it('accepts a cut character at the end of a partial read, and refuses it in a whole file', () => {
    const cut = Buffer.from(text).subarray(0, 4); // 中 and the first byte of 文
    expect(decodeTextFile(cut, { partial: true })).toBe('中');
    expect(decodeTextFile(Buffer.from([0xe4, 0xb8, 0xad, 0xe6, 0x96, 0x87, 0xff, 0xfe, 0xfd]))).toBeNull();
  });

  it('says null for binary data', () => {
    expect(decodeTextFile(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]))).toBeNull();
    expect(decodeTextFile(Buffer.from('text\u0001\u0002\u0003\u0004 with many control characters'))).toBeNull();
  });
});
