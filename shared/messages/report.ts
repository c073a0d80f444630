import { message } from '../wire';

// ReportAPI's messages (docs/moredoc.md §12); `type`, `description` and `document_uuid`
// are ours (docs/api.md).

export const Report = message('Report', {
  id: 'int64',
  document_id: 'int64',
  user_id: 'int64',
  reason: 'int32',
  status: 'bool',
  created_at: 'time',
  updated_at: 'time',
  document_title: 'string',
  remark: 'string',
  username: 'string',
  type: 'int32',
  description: 'string',
  document_uuid: 'string',
});

export const ListReportRequest = message('ListReportRequest', {
  page: 'int64',
  size: 'int64',
  wd: 'string',
  field: 'string[]',
  order: 'string',
  status: 'bool[]',
  type: 'int32[]',
});
export const ListReportReply = message('ListReportReply', { total: 'int64', report: [Report] });
