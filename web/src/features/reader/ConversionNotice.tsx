// What the reader shows instead of pages: a document still converting (its progress, kept
// up to date), one whose conversion failed, one waiting for or refused in review, a
// disabled one.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { DocumentStatus } from '../../../../shared/constants';
import type { Document } from '../../../../shared/types/document';
import { documentKeys, documentProgressQuery, isConverting } from '../document/api';

/** Pages converted so far; the backend tells the owner and admins (docs/api.md). */
function progressOf(doc: Document): { done: number; total: number } | undefined {
  const progress = doc.convert_progress;
  return progress?.total ? { done: progress.done ?? 0, total: progress.total } : undefined;
}

function ConvertingNotice({ doc }: { doc: Document }) {
  const client = useQueryClient();
  const id = doc.id ?? 0;
  const polled = useQuery(documentProgressQuery(id));
  const latest = polled.data ?? doc;
  const done = !isConverting(latest);
  useEffect(() => {
    // Converted (or failed): the reader shows the new state.
    if (done) void client.invalidateQueries({ queryKey: documentKeys.detail(id) });
  }, [done, client, id]);
  const progress = progressOf(latest);
  const percent = progress ? Math.round((progress.done / progress.total) * 100) : undefined;
  return (
    <div className="app-reader-notice" role="status">
      <p className="app-reader-notice__title">
        {latest.status === DocumentStatus.Converting ? '文档正在转换中' : '文档等待转换'}
      </p>
      <p className="app-reader-notice__text">转换完成后即可在线阅读，本页会自动更新。</p>
      <progress className="app-reader-notice__progress" aria-label="转换进度" max={100} value={percent} />
      {progress && (
        <p className="app-reader-notice__text">
          已转换 {progress.done} / {progress.total} 页（{percent}%）
        </p>
      )}
    </div>
  );
}

const NOTICES: Partial<Record<number, { title: string; text: string }>> = {
  [DocumentStatus.Failed]: { title: '文档转换失败', text: '该文档暂时无法在线阅读。' },
  [DocumentStatus.Disabled]: { title: '文档已禁用', text: '该文档已被管理员禁用。' },
  [DocumentStatus.PendingReview]: {
    title: '文档正在审核中',
    text: '文档转换完成后即可预览，审核通过后所有人都可以阅读。',
  },
  [DocumentStatus.ReviewRejected]: { title: '文档审核未通过', text: '该文档未通过审核，无法在线阅读。' },
};

export function ConversionNotice({ doc }: { doc: Document }) {
  if (isConverting(doc)) return <ConvertingNotice doc={doc} />;
  const notice = NOTICES[doc.status ?? DocumentStatus.Pending] ?? { title: '文档暂时无法阅读', text: '请稍后再试。' };
  return (
    <div className="app-reader-notice" role="status">
      <p className="app-reader-notice__title">{notice.title}</p>
      <p className="app-reader-notice__text">{notice.text}</p>
      {doc.status === DocumentStatus.Failed && doc.convert_error && (
        <p className="app-reader-notice__error">原因：{doc.convert_error}</p>
      )}
    </div>
  );
}
