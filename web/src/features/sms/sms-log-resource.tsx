// The log of /admin/user/sms: every message sent or tried, newest first, read-only. Numbers
// arrive masked (138****0000); the message text never leaves the backend.
import {
  SmsStatus,
  optionLabel,
  smsProviderOptions,
  smsPurposeOptions,
  smsStatusOptions,
} from '../../../../shared/constants';
import type { SmsLog } from '../../../../shared/types/sms';
import { dateColumn } from '../../kit/admin-resource/cells';
import { asList, keyword, listPage } from '../../kit/admin-resource/list-query';
import type { ResourceDef } from '../../kit/admin-resource/resource';
import { Tag } from '../../ui/semi-extra';
import { listSmsLog, smsKeys } from './api';

const STATUS_COLORS: Record<number, 'green' | 'red' | 'blue'> = {
  [SmsStatus.Sent]: 'green',
  [SmsStatus.Failed]: 'red',
  [SmsStatus.Sending]: 'blue',
};

function StatusTag({ row }: { row: SmsLog }) {
  const status = row.status ?? SmsStatus.Sending;
  const label =
    row.provider === 'log' && status === SmsStatus.Sent
      ? '已记录（未发送）'
      : optionLabel(smsStatusOptions, status, '未知');
  return <Tag color={STATUS_COLORS[status] ?? 'grey'}>{label}</Tag>;
}

const purposeLabel = (purpose: string | undefined) =>
  smsPurposeOptions.find((o) => o.value === purpose)?.label ?? purpose ?? '';

export const smsLogResource: ResourceDef<SmsLog> = {
  key: 'sms-log',
  title: '短信管理',
  noun: '短信记录',
  rowId: (row) => row.id ?? 0,
  rowLabel: (row) => row.mobile ?? '',
  columns: [
    dateColumn('created_at', '时间'),
    { key: 'mobile', title: '手机号', width: 120 },
    { key: 'purpose', title: '用途', width: 90, render: (row) => purposeLabel(row.purpose) },
    {
      key: 'provider',
      title: '服务商',
      width: 100,
      render: (row) => optionLabel(smsProviderOptions, row.provider ?? '', row.provider ?? ''),
    },
    { key: 'status', title: '结果', width: 130, render: (row) => <StatusTag row={row} /> },
    { key: 'error', title: '错误', render: (row) => row.error || '-' },
    { key: 'ip', title: 'IP', width: 120 },
    { key: 'biz_id', title: '回执 ID', render: (row) => row.biz_id || '-' },
  ],
  filters: [
    { kind: 'keyword', name: 'mobile', label: '手机号', placeholder: '完整手机号' },
    { kind: 'keyword', name: 'ip', label: 'IP', placeholder: '完整 IP 地址' },
    { kind: 'select', name: 'purpose', label: '用途', options: smsPurposeOptions },
    { kind: 'select', name: 'status', label: '结果', options: smsStatusOptions },
    { kind: 'select', name: 'provider', label: '服务商', options: smsProviderOptions },
  ],
  listKey: smsKeys.admin,
  list: ({ page, size, filters }) =>
    listPage(
      listSmsLog({
        page,
        size,
        // A whole number in any usual spelling; the backend refuses anything else (shown as the list's error).
        mobile: keyword(filters.mobile),
        ip: keyword(filters.ip),
        purpose: asList(filters.purpose as string | undefined),
        status: asList(filters.status as number | undefined),
        provider: asList(filters.provider as string | undefined),
      }),
      (reply) => reply.sms_log,
    ),
};
