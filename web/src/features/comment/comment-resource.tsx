// The admin's comments (/admin/comment): every comment on documents and articles, filtered by
// review status and target type, approved or rejected in batches, deleted with their replies.
import { Link } from 'react-router-dom';
import { commentStatusOptions, optionLabel, ReviewStatus, TargetType } from '../../../../shared/constants';
import { grpcPermissionPath } from '../../../../shared/permissions';
import type { Comment } from '../../../../shared/types/comment';
import { dateColumn } from '../../kit/admin-resource/cells';
import { asList, keyword, listPage } from '../../kit/admin-resource/list-query';
import type { ResourceDef } from '../../kit/admin-resource/resource';
import { Tag } from '../../ui/semi-extra';
import { documentPathById } from '../document/document-links';
import { checkComments, commentKeys, deleteComments, listComments } from './api';
import './comments.css';

const CHECK = grpcPermissionPath('CommentAPI', 'CheckComment');
const STATUS_COLORS: Readonly<Record<number, 'orange' | 'green' | 'red'>> = { 0: 'orange', 1: 'green', 2: 'red' };
const TARGET_OPTIONS = [
  { value: TargetType.Document, label: '文档' },
  { value: TargetType.Article, label: '文章' },
];

/** Where the comment was written, linked: the article's page, or the document's reader (opened by its id). */
function TargetCell({ comment }: { comment: Comment }) {
  const title = comment.document_title || `#${comment.document_id ?? ''}`;
  const isArticle = comment.type === TargetType.Article;
  const path = isArticle
    ? comment.document_uuid && `/article/detail/${comment.document_uuid}`
    : comment.document_id && documentPathById(comment.document_id);
  return (
    <span>
      <Tag size="small">{isArticle ? '文章' : '文档'}</Tag>{' '}
      {path ? (
        <Link to={path} target="_blank">
          {title}
        </Link>
      ) : (
        title
      )}
    </span>
  );
}

const review = (status: number, label: string, success: string) => ({
  key: `status-${status}`,
  label,
  confirm: (n: number) => `确定将选中的 ${n} 条评论设为“${optionLabel(commentStatusOptions, status)}”吗？`,
  run: (ids: number[], context: Parameters<typeof checkComments>[2]) => checkComments(ids, status, context),
  success,
  danger: status === ReviewStatus.Rejected,
  requires: CHECK,
});

export const commentResource: ResourceDef<Comment> = {
  key: 'comment',
  title: '评论管理',
  noun: '评论',
  rowId: (row) => row.id ?? 0,
  rowLabel: (row) => (row.content ?? '').slice(0, 20),
  columns: [
    { key: 'id', title: 'ID', width: 70 },
    { key: 'content', title: '内容', render: (row) => <span className="app-comment-cell">{row.content}</span> },
    { key: 'target', title: '评论对象', render: (row) => <TargetCell comment={row} /> },
    { key: 'user', title: '用户', width: 100, render: (row) => row.user?.username ?? '-' },
    {
      key: 'status',
      title: '状态',
      width: 80,
      render: (row) => (
        <Tag color={STATUS_COLORS[row.status ?? 0] ?? 'grey'}>
          {optionLabel(commentStatusOptions, row.status ?? 0, '未知')}
        </Tag>
      ),
    },
    dateColumn('created_at', '时间'),
  ],
  filters: [
    { kind: 'keyword', name: 'wd', label: '关键字', placeholder: '评论内容' },
    { kind: 'select', name: 'status', label: '状态', options: commentStatusOptions },
    { kind: 'select', name: 'type', label: '对象', options: TARGET_OPTIONS },
  ],
  listKey: commentKeys.admin,
  list: ({ page, size, filters }) =>
    listPage(
      listComments({
        page,
        size,
        wd: keyword(filters.wd),
        status: asList(filters.status as number | undefined),
        type: asList(filters.type as number | undefined),
        with_document_title: true,
      }),
      (r) => r.comment,
    ),
  rowCommands: (row) => [
    ...(row.status !== ReviewStatus.Approved
      ? [
          {
            key: 'approve',
            label: '通过',
            confirm: '确定通过这条评论吗？通过后所有人都能看到。',
            success: '已通过',
            requires: CHECK,
            run: (context: Parameters<typeof checkComments>[2]) =>
              checkComments([row.id ?? 0], ReviewStatus.Approved, context),
          },
        ]
      : []),
    ...(row.status !== ReviewStatus.Rejected
      ? [
          {
            key: 'reject',
            label: '拒绝',
            confirm: '确定拒绝这条评论吗？它将不再公开显示。',
            success: '已拒绝',
            danger: true,
            requires: CHECK,
            run: (context: Parameters<typeof checkComments>[2]) =>
              checkComments([row.id ?? 0], ReviewStatus.Rejected, context),
          },
        ]
      : []),
  ],
  batchActions: [
    review(ReviewStatus.Approved, '批量通过', '已通过'),
    review(ReviewStatus.Rejected, '批量拒绝', '已拒绝'),
  ],
  remove: (ids, _confirmation, context) => deleteComments(ids, context),
  deletion: { note: '评论的回复会一起删除。' },
  requires: { remove: grpcPermissionPath('CommentAPI', 'DeleteComment') },
};
