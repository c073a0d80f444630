// The admin's reports (/admin/report): the reason, the reported item with a link and under it
// the reporter's words and the admin's note, the reporter; handled with a note, or deleted.
import { Link } from 'react-router-dom';
import { optionLabel, ReportType, reportReasonOptions, reportStatusOptions } from '../../../../shared/constants';
import { grpcPermissionPath } from '../../../../shared/permissions';
import type { Report } from '../../../../shared/types/report';
import { REPORT_REMARK_MAX_LENGTH } from '../../../../shared/validation';
import { dateColumn, StackCell } from '../../kit/admin-resource/cells';
import { asList, keyword, listPage } from '../../kit/admin-resource/list-query';
import type { ResourceDef } from '../../kit/admin-resource/resource';
import { Tag } from '../../ui/semi-extra';
import { documentPathById } from '../document/document-links';
import { deleteReports, handleReport, handleReports, listReports, reportKeys } from './api';
import './report.css';

const UPDATE = grpcPermissionPath('ReportAPI', 'UpdateReport');
const remarkInput = { label: '处理备注', maxLength: REPORT_REMARK_MAX_LENGTH, placeholder: '如：已删除违规内容' };

const STATUS_FILTER = reportStatusOptions.map((o) => ({ value: o.value === 'true', label: o.label }));
const TARGET_OPTIONS = [
  { value: ReportType.Document, label: '文档' },
  { value: ReportType.Article, label: '文章' },
  { value: ReportType.Comment, label: '评论' },
];

/**
 * The reported item, linked so that the admin can judge it: the article's page, the document's reader, or the
 * comment found by its text in 评论管理, where it is rejected or deleted.
 */
function TargetCell({ report }: { report: Report }) {
  const title = report.document_title || `#${report.document_id ?? ''}`;
  const path =
    report.type === ReportType.Comment
      ? `/admin/comment?${new URLSearchParams({ wd: [...title].slice(0, 20).join('') }).toString()}`
      : report.type === ReportType.Article
        ? `/article/detail/${report.document_uuid || report.document_id}`
        : report.document_id && documentPathById(report.document_id);
  return (
    <span className="app-report-cell">
      <Tag size="small">{optionLabel(TARGET_OPTIONS, report.type ?? 0, '文档')}</Tag>{' '}
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

export const reportResource: ResourceDef<Report> = {
  key: 'report',
  title: '举报管理',
  noun: '举报',
  rowId: (row) => row.id ?? 0,
  rowLabel: (row) => row.document_title ?? '',
  columns: [
    { key: 'id', title: 'ID', width: 70 },
    {
      key: 'reason',
      title: '原因',
      width: 80,
      render: (row) => optionLabel(reportReasonOptions, row.reason ?? 0, '其他'),
    },
    // The reporter's words and the admin's note under the item: as columns of their own the three
    // shared what the others left, four or five characters a line at 1280 px.
    {
      key: 'target',
      title: '举报对象',
      render: (row) => (
        <StackCell
          main={<TargetCell report={row} />}
          sub={
            row.description || row.remark ? (
              <>
                {row.description && <span className="app-report-line">举报说明：{row.description}</span>}
                {row.remark && <span className="app-report-line app-report-remark">处理备注：{row.remark}</span>}
              </>
            ) : undefined
          }
        />
      ),
    },
    { key: 'username', title: '举报人', width: 100, render: (row) => row.username || `#${row.user_id ?? ''}` },
    {
      key: 'status',
      title: '状态',
      width: 80,
      render: (row) => <Tag color={row.status ? 'green' : 'orange'}>{row.status ? '已处理' : '未处理'}</Tag>,
    },
    dateColumn('created_at', '举报时间'),
  ],
  filters: [
    { kind: 'keyword', name: 'wd', label: '关键字', placeholder: '被举报内容的标题' },
    { kind: 'select', name: 'status', label: '状态', options: STATUS_FILTER },
    { kind: 'select', name: 'type', label: '对象', options: TARGET_OPTIONS },
  ],
  listKey: reportKeys.admin,
  list: ({ page, size, filters }) =>
    listPage(
      listReports({
        page,
        size,
        wd: keyword(filters.wd),
        status: asList(filters.status as boolean | undefined),
        type: asList(filters.type as number | undefined),
      }),
      (r) => r.report,
    ),
  rowCommands: (row) => [
    {
      key: 'handle',
      label: row.status ? '修改备注' : '处理',
      confirm: `举报“${row.document_title ?? ''}”：${optionLabel(reportReasonOptions, row.reason ?? 0, '其他')}。处理后标记为已处理。`,
      input: { ...remarkInput, initial: row.remark ?? '' },
      run: (context, remark) => handleReport(row.id ?? 0, true, remark ?? '', context),
      success: '已处理',
      requires: UPDATE,
    },
  ],
  // Open reports only: a handled one keeps its own note (修改备注 changes it, one at a time).
  batchActions: [
    {
      key: 'handle',
      label: '批量处理',
      applies: (row) => !row.status,
      confirm: (n) => `将选中的 ${n} 条未处理举报标记为已处理，下面的处理备注会写入每一条。`,
      input: remarkInput,
      run: (ids, context, remark) => handleReports(ids, typeof remark === 'string' ? remark : '', context),
      success: '已处理',
      requires: UPDATE,
    },
  ],
  remove: (ids, _confirmation, context) => deleteReports(ids, context),
  requires: { remove: grpcPermissionPath('ReportAPI', 'DeleteReport') },
};
