import { describe, expect, it } from 'vitest';
import { attachmentDisposition, parseByteRange, safeFileName } from '../../backend/wire/file-headers';

// The headers of saved and resumed files: RFC 6266 names and single byte ranges.

describe('attachmentDisposition', () => {
  it('sends a plain ASCII name as it is', () => {
    expect(attachmentDisposition('report-2024.pdf')).toBe('attachment; filename="report-2024.pdf"');
  });

  it('adds a UTF-8 filename* beside an ASCII fallback for Chinese names', () => {
    expect(attachmentDisposition('年度报告 2024.pdf')).toBe(
      `attachment; filename="_ 2024.pdf"; filename*=UTF-8''%E5%B9%B4%E5%BA%A6%E6%8A%A5%E5%91%8A%202024.pdf`,
    );
    expect(attachmentDisposition('合同.docx')).toBe(
      `attachment; filename="download.docx"; filename*=UTF-8''%E5%90%88%E5%90%8C.docx`,
    );
  });

  it('never lets quotes, percent signs, apostrophes or brackets break the header', () => {
    const header = attachmentDisposition(`a "quoted" 100% (it's) *.txt`);
    expect(header).toBe(
      `attachment; filename="a _quoted_ 100_ (it's) *.txt"; filename*=UTF-8''a%20%22quoted%22%20100%25%20%28it%27s%29%20%2A.txt`,
    );
  });

  it('strips control characters, bidi overrides and path separators from names', () => {
    expect(safeFileName('../../etc/passwd\r\nX: y')).toBe('.._.._etc_passwd X: y');
    expect(safeFileName('report\u202etxt.exe.pdf')).toBe('reporttxt.exe.pdf');
    expect(safeFileName('\u0000\u2066')).toBe('download');
    expect(safeFileName('')).toBe('download');
  });

  it('cuts a name over 200 characters at its end, keeping its beginning and its extension', () => {
    const title = `2024年度报告${'很长的说明'.repeat(50)}`;
    const cut = safeFileName(`${title}.docx`);
    expect([...cut]).toHaveLength(200);
    expect(cut).toBe(`${[...title].slice(0, 195).join('')}.docx`);
    expect([...safeFileName('年'.repeat(260))]).toEqual(Array(200).fill('年'));
  });
});

describe('parseByteRange', () => {
  it('reads one range, an open end and a suffix', () => {
    expect(parseByteRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(parseByteRange('bytes=900-', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseByteRange('bytes=990-2000', 1000)).toEqual({ start: 990, end: 999 });
    expect(parseByteRange('bytes=-10', 1000)).toEqual({ start: 990, end: 999 });
    expect(parseByteRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 });
  });

  it('is unsatisfiable past the end', () => {
    expect(parseByteRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=-0', 1000)).toBe('unsatisfiable');
  });

  it('ignores what it does not serve: no header, other units, several ranges, nonsense', () => {
    for (const header of [
      undefined,
      '',
      'items=0-1',
      'bytes=0-1,5-9',
      'bytes=9-1',
      'bytes=-',
      'bytes=a-b',
      `bytes=0-${'9'.repeat(30)}`,
    ]) {
      expect(parseByteRange(header, 1000)).toBeNull();
    }
  });
});
