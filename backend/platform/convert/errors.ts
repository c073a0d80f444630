// The one error a conversion ends with when it cannot produce pages. `reason` is a stable code
// for the job record and the tests; `message` is the Chinese sentence shown to the uploader and
// the admin; `detail` keeps what the tool said (English, for the log, never shown to users).
import { SITE_CONVERSION_FAILURES } from '../../../shared/constants';

export type ConversionFailure =
  | 'empty-file'
  | 'unsupported-format'
  | 'content-mismatch'
  | 'encrypted'
  | 'corrupt'
  | 'incomplete'
  | 'no-pages'
  | 'too-many-pages'
  | 'archive-too-large'
  | 'drm-protected'
  | 'converter-missing'
  | 'converter-failed'
  | 'worker-crashed'
  | 'document-too-complex'
  | 'page-too-complex'
  | 'timeout'
  | 'aborted';

const MESSAGES: Record<ConversionFailure, string> = {
  'empty-file': '文件为空，无法转换',
  'unsupported-format': '不支持转换此格式的文档',
  'content-mismatch': '文件内容与扩展名不符，无法转换',
  encrypted: '文档已加密，无法转换',
  corrupt: '文档已损坏或无法解析，无法转换',
  incomplete: '文件已损坏或不完整（部分内容缺失），请上传完整的文件',
  'no-pages': '文档没有可显示的页面',
  'too-many-pages': '文档页数超出限制，无法转换',
  'archive-too-large': '文档解压后过大或包含的文件过多，已拒绝转换',
  'drm-protected': '电子书受 DRM 版权保护，无法转换',
  'converter-missing': SITE_CONVERSION_FAILURES.converterMissing,
  'converter-failed': SITE_CONVERSION_FAILURES.failed,
  'worker-crashed': SITE_CONVERSION_FAILURES.workerCrashed,
  'document-too-complex': '文档结构过于复杂，无法在限定时间内打开',
  'page-too-complex': '页面过于复杂，无法在限定时间内转换',
  timeout: SITE_CONVERSION_FAILURES.timeout,
  aborted: SITE_CONVERSION_FAILURES.aborted,
};

/**
 * What a document failed with when LibreOffice or calibre was missing: the document module
 * finds those at start (convert_error) and tries them again once the program is there.
 */
export const MISSING_CONVERTER_MESSAGES = {
  libreoffice: SITE_CONVERSION_FAILURES.libreofficeMissing,
  calibre: SITE_CONVERSION_FAILURES.calibreMissing,
} as const;

/**
 * What LibreOffice or calibre failed with when it made no PDF: the admin's list shows it (it names
 * the program to look into); the uploader reads MEMBER_REASONS' sentence instead.
 */
export const CONVERTER_FAILED_MESSAGES = {
  libreoffice: 'LibreOffice 无法转换此文档',
  calibre: 'calibre 无法转换此电子书',
} as const;

/**
 * The reasons stored for the admins that name a program, as the uploader reads them: what failed
 * and what they can do, in words of theirs (they know no LibreOffice or calibre).
 */
const MEMBER_REASONS: Readonly<Record<string, string>> = {
  [CONVERTER_FAILED_MESSAGES.libreoffice]: '文档无法转换，请检查文件是否损坏，或另存为 PDF 后重新上传',
  [CONVERTER_FAILED_MESSAGES.calibre]: '电子书无法转换，请检查文件是否损坏，或转换为 EPUB、PDF 后重新上传',
  [SITE_CONVERSION_FAILURES.libreofficeMissing]: SITE_CONVERSION_FAILURES.converterMissing,
  [SITE_CONVERSION_FAILURES.calibreMissing]: SITE_CONVERSION_FAILURES.converterMissing,
};

/** A stored conversion failure (`convert_error`) as its uploader reads it; the admins read it as stored. */
export function memberConversionReason(reason: string): string {
  return MEMBER_REASONS[reason] ?? reason;
}

export interface ConversionErrorOptions {
  /** what the tool or the check said, for the log */
  detail?: string;
  /** a more precise Chinese message than the reason's usual one */
  message?: string;
}

export class ConversionError extends Error {
  override name = 'ConversionError';
  readonly detail: string | undefined;

  constructor(
    readonly reason: ConversionFailure,
    options: ConversionErrorOptions = {},
  ) {
    super(options.message ?? MESSAGES[reason]);
    this.detail = options.detail;
  }
}

/** A file cut short (a truncated PDF): its pages from `page` on have lost their content. */
export function incompleteFile(page: number): ConversionError {
  return new ConversionError('incomplete', {
    detail: `the objects of page ${page} are missing (MuPDF repaired the file)`,
    message: `文件已损坏或不完整（第 ${page} 页起内容缺失），请上传完整的文件`,
  });
}

/** The error for a conversion stopped by its signal: its time limit, or the caller. */
export function abortReason(signal: AbortSignal): ConversionError {
  const timedOut = signal.reason instanceof DOMException && signal.reason.name === 'TimeoutError';
  return new ConversionError(timedOut ? 'timeout' : 'aborted');
}
