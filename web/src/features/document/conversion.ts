// What became of a document's conversion, whatever its review status, for every screen that
// shows a document's state (the uploader, 我的文档, the reader, the admin's list). A document in
// review (6) converts too and keeps its status when the conversion fails, with the reason in
// `convert_error` (docs/api.md, "Conversion"; backend/modules/document/store.ts,
// `awaitsReviewConversion`): its status alone does not say it failed. While a conversion shown
// is underway, those screens ask again, less and less often (`conversionPollWait`).
import { DocumentStatus, isSiteConversionFailure } from '../../../../shared/constants';
import type { Document } from '../../../../shared/types/document';

/**
 * Why the document's conversion failed: its `convert_error`, whatever its status (a failed
 * document, 3, or one in review, 6); `undefined` when it did not fail, or converts again (approved
 * after a failure in review, sent to convert again: the reason stays until its job starts).
 */
export function conversionFailure(doc: Pick<Document, 'status' | 'convert_error'>): string | undefined {
  if (isConverting(doc)) return undefined;
  if (doc.convert_error) return doc.convert_error;
  return doc.status === DocumentStatus.Failed ? '转换器未给出原因' : undefined;
}

/**
 * The failure as a line beside the document's status: its reason alone where the status says
 * 转换失败 already (3), else (in review: 待审核) with 转换失败 before it; `undefined` when it
 * did not fail.
 */
export function conversionFailureLine(doc: Pick<Document, 'status' | 'convert_error'>): string | undefined {
  const failure = conversionFailure(doc);
  if (failure === undefined) return undefined;
  return doc.status === DocumentStatus.Failed ? failure : `转换失败：${failure}`;
}

/** The statuses of a document whose conversion has not finished yet. */
const CONVERTING: readonly number[] = [DocumentStatus.Pending, DocumentStatus.Converting, DocumentStatus.Reconvert];

/** A document queued for conversion or converting (its status says so). */
export function isConverting(doc: Pick<Document, 'status'>): boolean {
  return CONVERTING.includes(doc.status ?? DocumentStatus.Pending);
}

/** A document in review whose conversion has not ended yet: no pages and no failure. */
export function awaitsReviewConversion(doc: Pick<Document, 'status' | 'pages' | 'convert_error'>): boolean {
  return doc.status === DocumentStatus.PendingReview && (doc.pages ?? 0) <= 0 && !doc.convert_error;
}

/** A conversion that has not ended, neither in pages nor in a failure: converting, or in review without either. */
export function conversionUnderway(doc: Pick<Document, 'status' | 'pages' | 'convert_error'>): boolean {
  return isConverting(doc) || awaitsReviewConversion(doc);
}

/**
 * How long a screen that shows an underway conversion waits before asking again: `firstMs`
 * after its first answer, each wait twice the one before, never more than `maxMs` (a long
 * conversion is not asked about every few seconds for an hour).
 */
export const CONVERSION_POLL = { firstMs: 3_000, maxMs: 30_000 } as const;

/** The wait after `asked` answers of the current run (0 after the first): 3 s, 6 s, 12 s, 24 s, then 30 s. */
export function conversionPollWait(asked: number): number {
  return Math.min(CONVERSION_POLL.firstMs * 2 ** Math.max(asked, 0), CONVERSION_POLL.maxMs);
}

/**
 * What the uploader of a document that failed conversion can do about it, by its reason: mend
 * the file and upload it again, or, when the site failed (out of time, a converter missing or
 * crashed), ask the admins, since the same file would fail the same way.
 */
export function failedConversionAdvice(doc: Pick<Document, 'status' | 'convert_error'>): string {
  return isSiteConversionFailure(conversionFailure(doc) ?? '')
    ? '这是服务器转换时出现的问题，重新上传同一文件无法解决，请联系网站管理员重新转换。'
    : '请删除该文档，检查文件（如去掉密码、确认格式）后重新上传。';
}

/** What a reviewer can do about it: an approval converts a document in review again. */
export function failedConversionReviewNote(doc: Pick<Document, 'status'>): string | undefined {
  return doc.status === DocumentStatus.PendingReview ? '审核通过时将重新转换' : undefined;
}
