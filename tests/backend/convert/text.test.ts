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

  it('joins a line cut after a comma, before punctuation or inside full-width letters, not after a sentence', () => {
    expect(normalizeDocumentText('本教程从变量、函数讲起，\n适合零基础的读者“花\n谢花飞”，\n《红楼梦\n》')).toBe(
      '本教程从变量、函数讲起，适合零基础的读者“花谢花飞”，《红楼梦》',
    );
    expect(normalizeDocumentText('全角ＰＹＴＨＯ\nＮ教程（第１\n２版）')).toBe('全角PYTHON教程（第12版）');
    expect(normalizeDocumentText('第一行到此为止。\n第二行“引文”\n第三段，\n\n第四段，\nHello world')).toBe(
      '第一行到此为止。\n第二行“引文”\n第三段，\n\n第四段，\nHello world',
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

  it('reads GB18030 with its four-byte sequences', () => {
    const gb18030 = '简体中文 €𠀀 测试';
    expect(decodeTextFile(Buffer.from('bcf2cce5d6d0cec420a2e39532823620b2e2cad4', 'hex'))).toBe(gb18030);
  });

  // Python: ('第一章 燈塔\n這是一個繁體中文文本測試檔案。\n').encode('big5'), and the like
  const BIG5 = 'b2c4a440b3b920bf4fb6f00ab36fac4fa440add3c163c5e9a4a4a4e5a4e5a5bbb4fab8d5c0c9aed7a143';
  const BIG5_TEXT = '第一章 燈塔\n這是一個繁體中文文本測試檔案。';

  it('reads Big5 (Traditional Chinese), which also decodes as GB18030, as Big5', () => {
    expect(decodeTextFile(Buffer.from(BIG5.repeat(50), 'hex'))).toBe(BIG5_TEXT.repeat(50));
    expect(decodeTextFile(Buffer.from(BIG5, 'hex'))).toBe(BIG5_TEXT);
    expect(decodeTextFile(Buffer.from('b36fac4fa440add3b4fab8d5', 'hex'))).toBe('這是一個測試');
    // cut in the middle of a character at the end of a partial read
    expect(decodeTextFile(Buffer.from(BIG5.repeat(3) + 'b2', 'hex'), { partial: true })).toBe(BIG5_TEXT.repeat(3));
  });

  it('keeps reading GBK as GB18030, short files and Traditional characters in GBK included', () => {
    const gbk = '第一章 灯塔\n这是一个简体中文文本测试文件。\n';
    const gbkBytes = 'b5dad2bbd5c220b5c6cbfe0ad5e2cac7d2bbb8f6bcf2cce5d6d0cec4cec4b1beb2e2cad4cec4bcfea1a30a';
    expect(decodeTextFile(Buffer.from(gbkBytes.repeat(50), 'hex'))).toBe(gbk.repeat(50));
    expect(decodeTextFile(Buffer.from('c4e3bac3', 'hex'))).toBe('你好');
    expect(decodeTextFile(Buffer.from('d5e2cac7b2e2cad4', 'hex'))).toBe('这是测试');
    // 這是一個繁體中文文本測試檔案。 in GBK
    const traditional = 'df40cac7d2bb8280b7b1f377d6d0cec4cec4b1be9c79d487996eb0b8a1a3';
    expect(decodeTextFile(Buffer.from(traditional, 'hex'))).toBe('這是一個繁體中文文本測試檔案。');
  });

  it('reads UTF-16 without a byte-order mark', () => {
    const lines = '第一章 灯塔\r\nChapter one: the lighthouse.\r\n这是一个测试。\r\n'.repeat(20);
    expect(decodeTextFile(Buffer.from(lines, 'utf16le'))).toBe(lines);
    expect(decodeTextFile(Buffer.from(lines, 'utf16le').swap16())).toBe(lines);
    expect(decodeTextFile(Buffer.from(lines, 'utf16le').subarray(0, 101), { partial: true })).toBe(lines.slice(0, 50));
  });

  it('reads UTF-16 without a byte-order mark of Chinese alone: no ASCII, so no zero byte, or a line break now and then', () => {
    const chinese = '城市图书馆的早晨。清晨七点，城市图书馆的大门还关着，台阶上已经坐着几位等候的读者。';
    for (const swap of [false, true]) {
      const utf16 = (text: string) => (swap ? Buffer.from(text, 'utf16le').swap16() : Buffer.from(text, 'utf16le'));
      expect(utf16(chinese).includes(0)).toBe(false);
      expect(decodeTextFile(utf16(chinese))).toBe(chinese);
      expect(decodeTextFile(utf16('图书馆'))).toBe('图书馆');
      // Traditional characters, and curly quotes and a dash from General Punctuation
      expect(decodeTextFile(utf16('「這是兩個測試」——“圖書館”'))).toBe('「這是兩個測試」——“圖書館”');
      // one zero byte in 90: fewer than the rule for UTF-16 with ASCII asks
      const lines = `${chinese}\r\n`.repeat(10);
      expect(decodeTextFile(utf16(lines))).toBe(lines);
      expect(decodeTextFile(utf16(chinese).subarray(0, 41), { partial: true })).toBe(chinese.slice(0, 20));
    }
  });

  it('keeps GBK, GB18030 and Big5 whose bytes would also decode as UTF-16', () => {
    // 这是测试 in GBK: as UTF-16 Hangul and surrogates
    expect(decodeTextFile(Buffer.from('d5e2cac7b2e2cad4', 'hex'))).toBe('这是测试');
    // four-byte GB18030 sequences alone (𠀀𠀁): as UTF-16BE the common 锲舶锲舷
    expect(decodeTextFile(Buffer.from('9532823695328237', 'hex'))).toBe('𠀀𠀁');
    // Big5 whose trail bytes are 0x40–0x7E (一乙丁七): as UTF-16LE ideographs too, but rare ones
    expect(decodeTextFile(Buffer.from('a440a441a442a443', 'hex'))).toBe('一乙丁七');
  });

  it('accepts a cut character at the end of a partial read, and refuses it in a whole file', () => {
    const cut = Buffer.from(text).subarray(0, 4); // 中 and the first byte of 文
    expect(decodeTextFile(cut, { partial: true })).toBe('中');
    expect(decodeTextFile(Buffer.from([0xe4, 0xb8, 0xad, 0xe6, 0x96, 0x87, 0xff, 0xfe, 0xfd]))).toBeNull();
  });

  it('says null for binary data', () => {
    expect(decodeTextFile(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]))).toBeNull();
    expect(decodeTextFile(Buffer.from('text\u0001\u0002\u0003\u0004 with many control characters'))).toBeNull();
    // zero bytes on both sides: no UTF-16
    const binary = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i % 7 === 0 ? 0 : (i * 37) % 256)));
    expect(decodeTextFile(binary)).toBeNull();
    expect(decodeTextFile(Buffer.from('text with a NUL\u0000 in it, and another: \u0000 here'))).toBeNull();
  });
});
