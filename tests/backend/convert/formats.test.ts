import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversionError } from '../../../backend/platform/convert/errors';
import {
  planConversion,
  sniffContent,
  renderingRoute,
  officeTextImport,
  type ContentKind,
} from '../../../backend/platform/convert/formats';
import { fixture, passwordOfficeFile, textPdf } from '../../helpers/documents';
import { zip } from '../../helpers/zip';

// The content of a file decides, with its extension, which converter takes it.

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'convert-formats-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, data: Buffer | string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, data);
  return path;
}

describe('sniffContent', () => {
  it.each<[string, ContentKind]>([
    ['chinese.pdf', 'pdf'],
    ['scanned.pdf', 'pdf'],
    ['chinese.docx', 'zip'],
    ['chinese.epub', 'zip'],
    ['chinese.txt', 'text'],
    ['chinese.mobi', 'mobi'],
    ['chinese.azw3', 'kf8'],
  ])('%s holds %s', async (name, kind) => {
    expect(await sniffContent(fixture(name))).toBe(kind);
  });

  it('recognises images, OLE, RTF and CHM by their signatures, and an empty file', async () => {
    const base = sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } });
    expect(await sniffContent(await write('a.jpg', await base.clone().jpeg().toBuffer()))).toBe('jpeg');
    expect(await sniffContent(await write('a.png', await base.clone().png().toBuffer()))).toBe('png');
    expect(await sniffContent(await write('a.gif', await base.clone().gif().toBuffer()))).toBe('gif');
    expect(await sniffContent(await write('a.webp', await base.clone().webp().toBuffer()))).toBe('webp');
    expect(await sniffContent(await write('a.tif', await base.clone().tiff().toBuffer()))).toBe('tiff');
    expect(await sniffContent(await write('a.doc', Buffer.from('d0cf11e0a1b11ae1000000000000', 'hex')))).toBe('ole');
    expect(await sniffContent(await write('a.rtf', '{\\rtf1\\ansi hello}'))).toBe('rtf');
    expect(await sniffContent(await write('a.chm', Buffer.concat([Buffer.from('ITSF'), Buffer.alloc(60)])))).toBe(
      'chm',
    );
    expect(await sniffContent(await write('empty.pdf', ''))).toBe('empty');
  });

  it('finds a PDF header after junk, and calls undecodable bytes binary', async () => {
    expect(await sniffContent(await write('junk.pdf', Buffer.concat([Buffer.from('garbage\r\n'), textPdf(1)])))).toBe(
      'pdf',
    );
    expect(await sniffContent(await write('random.bin', Buffer.from([0x00, 0xff, 0x13, 0x37, 0x00, 0x80])))).toBe(
      'binary',
    );
  });

  it('calls UTF-16 without a byte-order mark text, and a .txt with NUL bytes here and there binary', async () => {
    const utf16 = Buffer.from('第一章 灯塔\r\nThe lighthouse.\r\n这是一个测试。\r\n'.repeat(200), 'utf16le');
    expect(await sniffContent(await write('utf16le.txt', utf16))).toBe('text');
    expect(await sniffContent(await write('utf16be.txt', Buffer.from(utf16).swap16()))).toBe('text');
    const nul = Buffer.concat([Buffer.from('一段文字'), Buffer.alloc(64), Buffer.from([0x13, 0x37, 0x00, 0x80])]);
    expect(await sniffContent(await write('nul.txt', nul))).toBe('binary');
  });

  it('tells an Office compound file that needs a password to open from one that does not', async () => {
    expect(await sniffContent(await write('locked.docx', passwordOfficeFile('docx')))).toBe('ole-encrypted');
    expect(await sniffContent(await write('locked.doc', passwordOfficeFile('doc')))).toBe('ole-encrypted');
    expect(await sniffContent(await write('locked.xls', passwordOfficeFile('xls')))).toBe('ole-encrypted');
    expect(await sniffContent(await write('open.doc', passwordOfficeFile('doc', false)))).toBe('ole');
  });

  it('calls a zip a zip whatever its name', async () => {
    expect(await sniffContent(await write('archive.pdf', zip([{ name: 'a.txt', data: 'hello' }])))).toBe('zip');
  });
});

describe('planConversion', () => {
  it('sends PDF, EPUB, MOBI 6, text, FB2, CBZ and images to MuPDF', () => {
    expect(planConversion('pdf', 'pdf')).toMatchObject({ converter: 'mupdf', input: 'as-is', archive: false });
    expect(planConversion('.EPUB', 'zip')).toMatchObject({ converter: 'mupdf', reflowable: true, archive: true });
    expect(planConversion('mobi', 'mobi')).toMatchObject({ converter: 'mupdf', mupdfName: 'document.mobi' });
    expect(planConversion('azw', 'mobi')).toMatchObject({ converter: 'mupdf' });
    expect(planConversion('txt', 'text')).toMatchObject({
      converter: 'mupdf',
      input: 'utf8-text',
      mupdfName: 'document.xhtml',
    });
    expect(planConversion('md', 'text')).toMatchObject({ converter: 'mupdf', input: 'utf8-text' });
    expect(planConversion('fb2', 'text')).toMatchObject({ converter: 'mupdf', mupdfName: 'document.fb2' });
    expect(planConversion('cbz', 'zip')).toMatchObject({ converter: 'mupdf', archive: true });
    expect(planConversion('jpg', 'png')).toMatchObject({ converter: 'mupdf', mupdfName: 'document.png' });
    expect(planConversion('webp', 'webp')).toMatchObject({ converter: 'mupdf', input: 'png-image' });
  });

  it('sends Office files to LibreOffice, KF8 and CHM to calibre', () => {
    for (const ext of ['doc', 'docx', 'rtf', 'wps', 'odt', 'ppt', 'pptx', 'dps', 'odp', 'xls', 'xlsx', 'et', 'ods']) {
      expect(planConversion(ext, ext.endsWith('x') || ext.startsWith('od') ? 'zip' : 'ole').converter, ext).toBe(
        'libreoffice',
      );
    }
    expect(planConversion('docx', 'zip').archive).toBe(true);
    expect(planConversion('doc', 'rtf').converter).toBe('libreoffice');
    expect(planConversion('csv', 'text')).toMatchObject({
      converter: 'libreoffice',
      input: 'utf8-text',
      libreofficeFilter: 'Text - txt - csv (StarCalc):44,34,76,1',
    });
    // an Office extension holding text: the import is chosen from the text (officeTextImport)
    expect(planConversion('xls', 'text')).toMatchObject({ converter: 'libreoffice', input: 'office-text' });
    expect(planConversion('doc', 'text')).toMatchObject({ converter: 'libreoffice', input: 'office-text' });
    expect(planConversion('doc', 'ole')).toMatchObject({ converter: 'libreoffice', input: 'as-is' });
    expect(planConversion('azw3', 'kf8').converter).toBe('calibre');
    expect(planConversion('mobi', 'kf8').converter).toBe('calibre');
    expect(planConversion('chm', 'chm').converter).toBe('calibre');
  });

  it('imports a spreadsheet that is text by its separator, or as HTML that keeps a declared charset', () => {
    expect(officeTextImport('xls', '名称\t数量\n苹果,3\t1')).toEqual({
      utf8: true,
      filter: 'Text - txt - csv (StarCalc):9,34,76,1',
    });
    expect(officeTextImport('xls', '名称,数量\r\n苹果\t3')).toEqual({
      utf8: true,
      filter: 'Text - txt - csv (StarCalc):44,34,76,1',
    });
    expect(officeTextImport('xls', '\n <table><tr><td>苹果</td></tr></table>')).toEqual({ utf8: true });
    expect(
      officeTextImport('xls', '<html><head><meta charset="gbk"></head><body><table></table></body></html>'),
    ).toEqual({
      utf8: false,
    });
    expect(
      officeTextImport(
        'xls',
        '<html><head><META http-equiv="Content-Type" content="text/html; charset=GB2312"></head></html>',
      ),
    ).toEqual({ utf8: false });
  });

  it('imports a Word or presentation file that is text through Writer, HTML with a declared charset as it is', () => {
    for (const ext of ['doc', 'DOCX', 'wps', 'ppt', 'pptx']) {
      expect(officeTextImport(ext, '第一章\n正文')).toEqual({ utf8: true, filter: 'Text (encoded):UTF8,LF,,' });
      expect(officeTextImport(ext, '<html><body><p>第一章</p></body></html>')).toEqual({
        utf8: true,
        filter: 'HTML (StarWriter)',
      });
      expect(officeTextImport(ext, '<html><head><meta charset="gbk"></head><body></body></html>')).toEqual({
        utf8: false,
        filter: 'HTML (StarWriter)',
      });
    }
  });

  it('gives extensions that render the same bytes alike one rendering route, and others their own', () => {
    expect(renderingRoute('.TXT')).toBe(renderingRoute('md'));
    expect(renderingRoute('doc')).toBe(renderingRoute('docx'));
    expect(renderingRoute('xls')).toBe(renderingRoute('ods'));
    expect(renderingRoute('jpg')).toBe(renderingRoute('png'));
    expect(renderingRoute('azw3')).toBe(renderingRoute('mobi'));
    const distinct = ['txt', 'csv', 'tsv', 'doc', 'xls', 'ppt', 'pdf', 'epub', 'fb2', 'azw4', 'jpg'];
    expect(new Set(distinct.map(renderingRoute)).size).toBe(distinct.length);
  });

  function failure(ext: string, kind: ContentKind): ConversionError {
    try {
      planConversion(ext, kind);
    } catch (error) {
      expect(error).toBeInstanceOf(ConversionError);
      return error as ConversionError;
    }
    throw new Error(`.${ext} holding ${kind} was accepted`);
  }

  it('refuses an extension that lies about the content', () => {
    expect(failure('pdf', 'zip')).toMatchObject({
      reason: 'content-mismatch',
      message: '文件内容与扩展名 .pdf 不符，无法转换',
    });
    expect(failure('pdf', 'text').reason).toBe('content-mismatch');
    expect(failure('docx', 'pdf').reason).toBe('content-mismatch');
    expect(failure('epub', 'text').reason).toBe('content-mismatch');
    expect(failure('png', 'pdf').reason).toBe('content-mismatch');
  });

  it('says plainly that a text format holding binary data is not text', () => {
    for (const ext of ['txt', 'md', 'csv', 'fb2'])
      expect(failure(ext, 'binary')).toMatchObject({
        reason: 'content-mismatch',
        message: '文件不是文本文件，无法转换',
      });
    expect(failure('pdf', 'binary').message).toBe('文件内容与扩展名 .pdf 不符，无法转换');
    expect(failure('docx', 'binary').message).toBe('文件内容与扩展名 .docx 不符，无法转换');
  });

  it('refuses empty files, UMD and unknown formats with a Chinese reason', () => {
    expect(failure('pdf', 'empty')).toMatchObject({ reason: 'empty-file', message: '文件为空，无法转换' });
    expect(failure('umd', 'binary')).toMatchObject({
      reason: 'unsupported-format',
      message: '不支持转换 UMD 格式的电子书',
    });
    expect(failure('xps', 'zip')).toMatchObject({
      reason: 'unsupported-format',
      message: '不支持转换 .xps 格式的文档',
    });
  });
});
