// 最近阅读 (/member/reading): the documents the member read, newest first, with the page they
// stopped at (the link opens the reader there); each removable, or all at once (offered only
// while there is something to clear).
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import type { ReadingRecord } from '../../../../shared/types/document';
import { unwrap } from '../../api/client';
import { InlineConfirm } from '../../kit/confirm/InlineConfirm';
import { MemberListPanel, recordTime, type MemberListColumn } from '../../kit/member-list/MemberListPanel';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { EmptyState } from '../../ui/states';
import { documentPath, documentPathById } from '../document/document-links';
import { FormatIcon } from '../document/FormatIcon';
import { clearReadingHistory, forgetReading, readingHistoryQuery } from './api';

type Row = ReadingRecord & { id?: number };

/** The reader of the record's document, at the page read last. */
const readerAt = (record: ReadingRecord) =>
  `${documentPath({ id: record.document_id, category_id: record.category_id }) ?? documentPathById(record.document_id ?? 0)}?page=${record.page ?? 1}`;

function ForgetReading({ record }: { record: ReadingRecord }) {
  const forget = useMutation({
    mutationFn: async (_: void, context) => unwrap(await forgetReading(record.document_id ?? 0, context)),
    onSuccess: () => toast.success('已删除阅读记录'),
    onError: (error) => toastFailure('删除阅读记录失败', error),
  });
  return (
    <InlineConfirm
      question="确定删除这条阅读记录？"
      accessibleName={`删除“${record.title ?? ''}”的阅读记录`}
      busy={forget.isPending}
      onConfirm={() => forget.mutate()}
    />
  );
}

function ClearHistory() {
  const clear = useMutation({
    mutationFn: async (_: void, context) => unwrap(await clearReadingHistory(context)),
    onSuccess: () => toast.success('已清空阅读记录'),
    onError: (error) => toastFailure('清空阅读记录失败', error),
  });
  return (
    <div className="app-reading-history__actions">
      <InlineConfirm
        label="清空全部"
        question="确定清空全部阅读记录？"
        accessibleName="清空全部阅读记录"
        busy={clear.isPending}
        onConfirm={() => clear.mutate()}
      />
    </div>
  );
}

const COLUMNS: MemberListColumn<Row>[] = [
  {
    title: '文档',
    cell: (r) => (
      <span className="app-my-documents__title">
        <FormatIcon ext={r.ext} />
        <Link to={readerAt(r)}>{r.title}</Link>
      </span>
    ),
  },
  { title: '读到', cell: (r) => (r.pages ? `第 ${r.page ?? 1} / ${r.pages} 页` : `第 ${r.page ?? 1} 页`) },
  { title: '阅读时间', cell: (r) => recordTime(r.updated_at) },
  { title: '操作', cell: (r) => <ForgetReading record={r} /> },
];

export function MyReadingHistory() {
  return (
    <MemberListPanel
      title="最近阅读"
      titleId="reading-history-title"
      above={(data) => ((data?.total ?? 0) > 0 ? <ClearHistory /> : null)}
      query={readingHistoryQuery}
      rowsOf={(data) => data.reading?.map((r) => ({ ...r, id: r.document_id }))}
      failure="阅读记录加载失败"
      empty={
        <EmptyState title="暂无阅读记录" description="登录后阅读的文档会显示在这里，换一台设备也能接着读。">
          <Link to="/library">去文库看看</Link>
        </EmptyState>
      }
      columns={COLUMNS}
    />
  );
}
