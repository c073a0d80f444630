// What the reader shows instead of pages: a document still converting (its progress), one
// whose conversion failed, one waiting for or refused in review, a disabled one. While the
// conversion is underway (in review too) the server is asked again until it ends; then the
// reader's copy of the document takes its pages or the failure, and the reader shows them.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { DocumentStatus } from '../../../../shared/constants';
import type { Document } from '../../../../shared/types/document';
import { documentProgressQuery, takeConversionEnd } from '../document/api';
import {
  awaitsReviewConversion,
  conversionFailure,
  conversionUnderway,
  failedConversionAdvice,
  failedConversionReviewNote,
  isConverting,
} from '../document/conversion';
import { useSession } from '../session/use-session';

/** Pages converted so far; the backend tells the owner and admins (docs/api.md). */
function progressOf(doc: Document): { done: number; total: number } | undefined {
  const progress = doc.convert_progress;
  return progress?.total ? { done: progress.done ?? 0, total: progress.total } : undefined;
}

/**
 * The document as the server says now: asked again while its conversion is underway (an
 * answer from before this notice showed is not taken); once it ended, the reader's copy takes it.
 */
function useLatestState(doc: Document): Document {
  const client = useQueryClient();
  const underway = conversionUnderway(doc);
  const polled = useQuery({ ...documentProgressQuery(doc.id ?? 0), enabled: underway });
  const latest = underway && polled.isFetchedAfterMount ? polled.data : undefined;
  const ended = latest !== undefined && !conversionUnderway(latest);
  useEffect(() => {
    if (ended) takeConversionEnd(client, latest);
  }, [ended, latest, client]);
  return latest ?? doc;
}

/** The bar and the pages done of all (the bar without a value while none is known). */
function ConversionProgressReport({ doc }: { doc: Document }) {
  const progress = progressOf(doc);
  const percent = progress ? Math.round((progress.done / progress.total) * 100) : undefined;
  return (
    <>
      <progress className="app-reader-notice__progress" aria-label="转换进度" max={100} value={percent} />
      {progress && (
        <p className="app-reader-notice__text">
          已转换 {progress.done} / {progress.total} 页（{percent}%）
        </p>
      )}
    </>
  );
}

function ConvertingNotice({ doc }: { doc: Document }) {
  return (
    <div className="app-reader-notice" role="status">
      <p className="app-reader-notice__title">
        {doc.status === DocumentStatus.Converting ? '文档正在转换中' : '文档等待转换'}
      </p>
      <p className="app-reader-notice__text">转换完成后即可在线阅读，本页会自动更新。</p>
      <ConversionProgressReport doc={doc} />
    </div>
  );
}

const NOTICES: Partial<Record<number, { title: string; text: string }>> = {
  [DocumentStatus.Disabled]: { title: '文档已禁用', text: '该文档已被管理员禁用。' },
  [DocumentStatus.PendingReview]: {
    title: '文档正在审核中',
    text: '文档转换完成后即可预览，审核通过后所有人都可以阅读。',
  },
  [DocumentStatus.ReviewRejected]: { title: '文档审核未通过', text: '该文档未通过审核，无法在线阅读。' },
};

/**
 * A failed conversion, whatever the review status (a document in review keeps it): why, and
 * for its uploader what to do about it, for a reviewer that an approval converts it again.
 */
function FailedNotice({ doc, reason }: { doc: Document; reason: string }) {
  const { user } = useSession();
  const own = user?.id !== undefined && doc.user_id === user.id;
  const review = failedConversionReviewNote(doc);
  return (
    <div className="app-reader-notice" role="status">
      <p className="app-reader-notice__title">文档转换失败</p>
      <p className="app-reader-notice__text">
        {doc.status === DocumentStatus.PendingReview
          ? '文档正在审核中，但转换失败，暂时无法在线阅读。'
          : '该文档暂时无法在线阅读。'}
      </p>
      <p className="app-reader-notice__error">原因：{reason}</p>
      {own ? (
        <p className="app-reader-notice__text">
          {failedConversionAdvice(doc)}
          <Link to="/member/document">前往我的文档</Link>
        </p>
      ) : (
        review && <p className="app-reader-notice__text">{review}。</p>
      )}
    </div>
  );
}

/** Said of a document converted into no page at all (the converter gave no error): it cannot be read either. */
const NO_PAGES = '转换后没有得到任何页面';

/** Why the conversion ended without pages to read: its failure, or none made; undefined when it did not. */
function failureOf(doc: Document): string | undefined {
  const failure = conversionFailure(doc);
  if (failure !== undefined) return failure;
  return doc.status === DocumentStatus.Converted && !((doc.pages ?? 0) > 0) ? NO_PAGES : undefined;
}

/** A document whose conversion failed, or made no page: nothing to read until it is converted again. */
export const conversionEndedWithoutPages = (doc: Document) => failureOf(doc) !== undefined;

export function ConversionNotice({ doc: shown }: { doc: Document }) {
  const doc = useLatestState(shown);
  if (isConverting(doc)) return <ConvertingNotice doc={doc} />;
  const failure = failureOf(doc);
  if (failure !== undefined) return <FailedNotice doc={doc} reason={failure} />;
  const notice = NOTICES[doc.status ?? DocumentStatus.Pending] ?? { title: '文档暂时无法阅读', text: '请稍后再试。' };
  return (
    <div className="app-reader-notice" role="status">
      <p className="app-reader-notice__title">{notice.title}</p>
      <p className="app-reader-notice__text">{notice.text}</p>
      {/* In review it converts too: its uploader and the admins see how far (the backend tells nobody else). */}
      {awaitsReviewConversion(doc) && <ConversionProgressReport doc={doc} />}
    </div>
  );
}
