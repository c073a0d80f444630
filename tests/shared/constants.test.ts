import { describe, expect, it } from 'vitest';
import {
  bannerTypeOptions,
  documentStatusOptions,
  documentTypeExtensions,
  extensionGroup,
  isDocumentExtension,
  isImageExtension,
  isSiteConversionFailure,
  isUploadImageExtension,
  optionLabel,
  reportReasonOptions,
  resourceTypeOptions,
  reviewStatusOptions,
  uploadLimitBytes,
  uploadTooLargeMessage,
} from '../../shared/constants';

describe('extensionGroup', () => {
  it('puts each extension in its group (docs/product.md §9), case-insensitively, with or without a dot', () => {
    const cases: [string, string][] = [
      ['.pdf', 'pdf'],
      ['PDF', 'pdf'],
      ['docx', 'word'],
      ['.DOC', 'word'],
      ['wps', 'word'],
      ['pptx', 'ppt'],
      ['dps', 'ppt'],
      ['xlsx', 'excel'],
      ['.csv', 'excel'],
      ['txt', 'text'],
      ['epub', 'epub'],
      ['mobi', 'mobi'],
      ['azw3', 'mobi'],
      ['chm', 'chm'],
      ['umd', 'umd'],
      ['zip', 'zip'],
      ['rar', 'rar'],
      ['mp4', 'video'],
      ['exe', 'other'],
      ['', 'other'],
    ];
    for (const [ext, group] of cases) expect(extensionGroup(ext), ext).toBe(group);
  });

  it('takes the extension of a file name', () => {
    expect(extensionGroup('年度报告.final.PPTX')).toBe('ppt');
    expect(extensionGroup('README')).toBe('other');
  });
});

describe('isImageExtension', () => {
  it('recognises jpg, jpeg, png, gif, webp and svg only', () => {
    for (const ext of ['jpg', '.JPEG', 'png', 'gif', 'webp', 'avatar.svg'])
      expect(isImageExtension(ext), ext).toBe(true);
    for (const ext of ['bmp', 'pdf', 'svgz', '']) expect(isImageExtension(ext), ext).toBe(false);
  });
});

describe('upload extensions', () => {
  it('lets image uploads take bmp and ico but never svg (it could carry script)', () => {
    for (const ext of ['jpg', 'PNG', '.webp', 'favicon.ico', 'x.bmp'])
      expect(isUploadImageExtension(ext), ext).toBe(true);
    for (const ext of ['svg', 'pdf', '']) expect(isUploadImageExtension(ext), ext).toBe(false);
  });

  it('takes documents of the converting groups only: no UMD, archives, videos or unknown files', () => {
    for (const ext of ['pdf', 'DOCX', '报告.pptx', 'xls', 'txt', 'epub', 'azw3', 'chm'])
      expect(isDocumentExtension(ext), ext).toBe(true);
    for (const ext of ['umd', 'zip', 'rar', 'mp4', 'exe', 'jpg', '']) expect(isDocumentExtension(ext), ext).toBe(false);
  });
});

describe('documentTypeExtensions', () => {
  it('maps the type keys of the document lists to their extensions, any case, dot or not', () => {
    expect(documentTypeExtensions('pdf')).toEqual(['.pdf']);
    expect(documentTypeExtensions('.DOC')).toContain('.wps');
    expect(documentTypeExtensions(' xls ')).toContain('.csv');
    expect(documentTypeExtensions('other')).toContain('.azw3');
  });

  it('means no filter for an empty or unknown key', () => {
    expect(documentTypeExtensions('')).toBeNull();
    expect(documentTypeExtensions('exe')).toBeNull();
  });
});

describe('optionLabel', () => {
  it('shows the Chinese label of the product values (docs/product.md §9)', () => {
    expect(optionLabel(documentStatusOptions, 0)).toBe('待转换');
    expect(optionLabel(documentStatusOptions, 6)).toBe('待审核');
    expect(optionLabel(documentStatusOptions, 7)).toBe('审核拒绝');
    expect(optionLabel(reviewStatusOptions, 1)).toBe('审核通过');
    expect(optionLabel(resourceTypeOptions, 5)).toBe('轮播图');
    expect(optionLabel(bannerTypeOptions, 1)).toBe('小程序轮播图');
    expect(optionLabel(reportReasonOptions, 6)).toBe('骚扰他人');
  });

  it('falls back for unknown or missing values', () => {
    expect(optionLabel(documentStatusOptions, 99)).toBe('');
    expect(optionLabel(bannerTypeOptions, undefined, '未知')).toBe('未知');
  });
});

describe('the upload limit', () => {
  it('is security.max_document_size in MiB, 50 when unset or not positive, as MOREDOC', () => {
    expect(uploadLimitBytes(1)).toBe(1024 * 1024);
    expect([uploadLimitBytes(0), uploadLimitBytes(-3), uploadLimitBytes(undefined)]).toEqual([
      50 * 1024 * 1024,
      50 * 1024 * 1024,
      50 * 1024 * 1024,
    ]);
    expect(uploadTooLargeMessage(uploadLimitBytes(20))).toBe('文件大小超出限制（最大 20 MB）');
    expect(uploadTooLargeMessage(uploadLimitBytes(20), uploadLimitBytes(20) + 1536)).toBe(
      '文件大小超出限制（最大 20 MB，超出 1.5 KB）',
    );
    // The limit as the sizes read: half a megabyte is 512 KB, not 0 MB.
    expect(uploadTooLargeMessage(uploadLimitBytes(0.5), uploadLimitBytes(0.5) + 1)).toBe(
      '文件大小超出限制（最大 512 KB，超出 1 B）',
    );
  });
});

describe('isSiteConversionFailure', () => {
  it('tells a conversion the site failed (time, converters) from one the file failed', () => {
    expect(isSiteConversionFailure('文档转换超时')).toBe(true);
    expect(isSiteConversionFailure('文档转换超时（限时 30 分钟）')).toBe(true);
    expect(isSiteConversionFailure('服务器未安装 calibre，无法转换此格式的电子书')).toBe(true);
    expect(isSiteConversionFailure('文档已加密，无法转换')).toBe(false);
    expect(isSiteConversionFailure('文件内容与扩展名 .pdf 不符，无法转换')).toBe(false);
  });
});
