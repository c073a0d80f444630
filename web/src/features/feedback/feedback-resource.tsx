// The admin's feedback (/admin/feedback): what visitors and members wrote, with their
// contact, screenshot and page; handled with a reply, or deleted.
import { feedbackStatusOptions, FeedbackStatus, optionLabel } from '../../../../shared/constants';
import { grpcPermissionPath } from '../../../../shared/permissions';
import type { Feedback } from '../../../../shared/types/feedback';
import { FEEDBACK_LIMITS } from '../../../../shared/validation';
import { dateColumn, ImageThumb, StackCell } from '../../kit/admin-resource/cells';
import { asList, keyword, listPage } from '../../kit/admin-resource/list-query';
import type { ResourceDef } from '../../kit/admin-resource/resource';
import { Tag } from '../../ui/semi-extra';
import { deleteFeedback, feedbackKeys, handleFeedback, handleFeedbacks, listFeedback } from './api';
import './feedback.css';

const UPDATE = grpcPermissionPath('FeedbackAPI', 'UpdateFeedback');
const replyInput = { label: '回复', maxLength: FEEDBACK_LIMITS.reply, rows: 4, placeholder: '如：已修复，感谢反馈' };

export const feedbackResource: ResourceDef<Feedback> = {
  key: 'feedback',
  title: '意见反馈',
  noun: '反馈',
  rowId: (row) => row.id ?? 0,
  rowLabel: (row) => (row.content ?? '').slice(0, 20),
  columns: [
    { key: 'id', title: 'ID', width: 70 },
    // The page and the reply under the words, the contact under the user: as columns of their
    // own they pushed the row past the 957 px a table has at 1280 px, under the actions, or (the
    // reply) got what the others left, three characters a line.
    {
      key: 'content',
      title: '反馈内容',
      render: (row) => (
        <StackCell
          main={<span className="app-feedback-cell">{row.content}</span>}
          sub={
            row.page || row.reply ? (
              <>
                {row.page && <span className="app-feedback-line">来自 {row.page}</span>}
                {row.reply && <span className="app-feedback-line app-feedback-reply">回复：{row.reply}</span>}
              </>
            ) : undefined
          }
        />
      ),
    },
    {
      key: 'image',
      title: '截图',
      width: 64,
      render: (row) =>
        row.image ? (
          <a href={row.image} target="_blank" rel="noreferrer noopener">
            <ImageThumb src={row.image} alt="反馈截图" square />
          </a>
        ) : (
          '-'
        ),
    },
    {
      key: 'user',
      title: '用户 / 联系方式',
      render: (row) => (
        <StackCell main={row.username || (row.user_id ? `#${row.user_id}` : '游客')} sub={row.contact} />
      ),
    },
    {
      key: 'status',
      title: '状态',
      width: 80,
      render: (row) => (
        <Tag color={row.status === FeedbackStatus.Handled ? 'green' : 'orange'}>
          {optionLabel(feedbackStatusOptions, row.status ?? 0)}
        </Tag>
      ),
    },
    dateColumn('created_at', '时间'),
  ],
  filters: [
    { kind: 'keyword', name: 'wd', label: '关键字', placeholder: '内容、联系方式或回复' },
    { kind: 'select', name: 'status', label: '状态', options: feedbackStatusOptions },
  ],
  listKey: feedbackKeys.admin,
  list: ({ page, size, filters }) =>
    listPage(
      listFeedback({ page, size, wd: keyword(filters.wd), status: asList(filters.status as number | undefined) }),
      (r) => r.feedback,
    ),
  rowCommands: (row) => [
    {
      key: 'handle',
      label: row.status === FeedbackStatus.Handled ? '修改回复' : '处理',
      confirm: '写下处理结果，反馈将标记为已处理。',
      input: { ...replyInput, initial: row.reply ?? '' },
      run: (context, reply) => handleFeedback(row.id ?? 0, FeedbackStatus.Handled, reply ?? '', context),
      success: '已处理',
      requires: UPDATE,
    },
  ],
  // Open feedback only: a handled one keeps its own reply (修改回复 changes it, one at a time).
  batchActions: [
    {
      key: 'handle',
      label: '批量处理',
      applies: (row) => row.status !== FeedbackStatus.Handled,
      confirm: (n) => `将选中的 ${n} 条未处理反馈标记为已处理，下面的回复会写入每一条。`,
      input: replyInput,
      run: (ids, context, reply) =>
        handleFeedbacks(ids, FeedbackStatus.Handled, typeof reply === 'string' ? reply : '', context),
      success: '已处理',
      requires: UPDATE,
    },
  ],
  remove: (ids, _confirmation, context) => deleteFeedback(ids, context),
  requires: { remove: grpcPermissionPath('FeedbackAPI', 'DeleteFeedback') },
};
