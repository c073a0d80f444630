// The admin's punishments (/admin/user/punishment; types: docs/moredoc.md §12): create for several
// users and types at once, edit one, end (cancel) one or many. There is no delete.
import { optionLabel, punishmentTypeOptions } from '../../../../shared/constants';
import { grpcPermissionPath } from '../../../../shared/permissions';
import type { Punishment } from '../../../../shared/types/punishment';
import { DateCell, dateColumn } from '../../kit/admin-resource/cells';
import { dateTimeRender } from '../../kit/admin-resource/DateTimeInput';
import { asList, keyword, listPage } from '../../kit/admin-resource/list-query';
import type { ResourceDef } from '../../kit/admin-resource/resource';
import { Tag } from '../../ui/semi-extra';
import { usersField } from '../user/UserPicker';
import {
  cancelPunishments,
  createPunishments,
  endsAt,
  isActive,
  listPunishments,
  punishmentKeys,
  updatePunishment,
} from './api';

type Values = {
  users: number[];
  username: string;
  types: number[];
  type: number | undefined;
  reason: string;
  remark: string;
  /** RFC 3339, or '' for a permanent punishment. */
  end_time: string;
  enable: boolean;
};

function StatusTag({ row }: { row: Punishment }) {
  if (isActive(row)) return <Tag color="red">生效中</Tag>;
  return <Tag color="grey">{row.enable ? '已到期' : '已结束'}</Tag>;
}

const CANCEL = grpcPermissionPath('PunishmentAPI', 'CancelPunishment');

const STATUS_FILTER = [
  { value: 1, label: '未取消' },
  { value: 0, label: '已结束' },
];

export const punishmentResource: ResourceDef<Punishment, Values> = {
  key: 'punishment',
  title: '处罚管理',
  noun: '处罚',
  rowId: (row) => row.id ?? 0,
  rowLabel: (row) =>
    `${row.username ?? `用户#${row.user_id ?? ''}`} · ${optionLabel(punishmentTypeOptions, row.type ?? 0)}`,
  columns: [
    { key: 'id', title: 'ID', width: 70 },
    { key: 'username', title: '用户', render: (row) => row.username ?? `#${row.user_id ?? ''}` },
    {
      key: 'type',
      title: '类型',
      width: 110,
      render: (row) => optionLabel(punishmentTypeOptions, row.type ?? 0, '未知'),
    },
    { key: 'status', title: '状态', width: 80, render: (row) => <StatusTag row={row} /> },
    { key: 'reason', title: '原因' },
    {
      key: 'end_time',
      title: '结束时间',
      width: 140,
      render: (row) => {
        const at = endsAt(row);
        return at ? <DateCell value={at} /> : row.enable ? '永久' : '-';
      },
    },
    dateColumn('created_at', '处罚时间'),
  ],
  filters: [
    { kind: 'keyword', name: 'wd', label: '关键字', placeholder: '原因或备注' },
    { kind: 'select', name: 'type', label: '类型', options: punishmentTypeOptions },
    { kind: 'select', name: 'enable', label: '状态', options: STATUS_FILTER },
  ],
  listKey: punishmentKeys.admin,
  list: ({ page, size, filters }) =>
    listPage(
      listPunishments({
        page,
        size,
        wd: keyword(filters.wd),
        type: asList(filters.type as number | undefined),
        enable: asList(filters.enable as number | undefined),
      }),
      (r) => r.punishment,
    ),
  form: {
    fields: [
      usersField<Values>('超级管理员不会被处罚', ['create']),
      { name: 'username', label: '用户', kind: 'text', readOnly: true, modes: ['edit'] },
      {
        name: 'types',
        label: '处罚类型',
        kind: 'select',
        multiple: true,
        required: true,
        options: punishmentTypeOptions,
        modes: ['create'],
      },
      {
        name: 'type',
        label: '处罚类型',
        kind: 'select',
        required: true,
        options: punishmentTypeOptions,
        modes: ['edit'],
      },
      {
        name: 'end_time',
        label: '结束时间',
        kind: 'custom',
        render: dateTimeRender('留空表示永久', true),
        hint: '留空表示永久处罚',
        validate: (value: string, _values, { mode }) =>
          mode === 'create' && Date.parse(value) <= Date.now() ? '结束时间必须晚于当前时间' : undefined,
      },
      { name: 'reason', label: '处罚原因', kind: 'textarea', maxLength: 255, hint: '用户可以看到' },
      { name: 'remark', label: '备注', kind: 'textarea', maxLength: 255, hint: '仅管理员可见' },
      { name: 'enable', label: '生效', kind: 'switch', modes: ['edit'] },
    ],
    initial: (row) => ({
      users: [],
      username: row?.username ?? '',
      types: [],
      type: row?.type,
      reason: row?.reason ?? '',
      remark: row?.remark ?? '',
      end_time: row?.end_time ?? '',
      enable: row ? row.enable === true : true,
    }),
  },
  create: (v, context) =>
    createPunishments(
      {
        user_id: v.users,
        type: v.types,
        enable: true,
        reason: v.reason.trim(),
        remark: v.remark.trim(),
        ...(v.end_time ? { end_time: v.end_time } : {}),
      },
      context,
    ),
  update: (v, row, context) =>
    updatePunishment(
      {
        id: row.id,
        user_id: row.user_id,
        type: v.type,
        enable: v.enable,
        reason: v.reason.trim(),
        remark: v.remark.trim(),
        ...(v.end_time ? { end_time: v.end_time } : {}),
      },
      context,
    ),
  requires: {
    create: grpcPermissionPath('PunishmentAPI', 'CreatePunishment'),
    update: grpcPermissionPath('PunishmentAPI', 'UpdatePunishment'),
  },
  rowCommands: (row) =>
    row.enable
      ? [
          {
            key: 'cancel',
            label: '结束',
            confirm: `确定结束对“${row.username ?? ''}”的处罚（${optionLabel(punishmentTypeOptions, row.type ?? 0)}）吗？`,
            run: (context) => cancelPunishments([row.id ?? 0], context),
            success: '处罚已结束',
            requires: CANCEL,
          },
        ]
      : [],
  batchActions: [
    {
      key: 'cancel',
      label: '批量结束',
      confirm: (count) => `确定结束选中的 ${count} 条处罚吗？`,
      run: (ids, context) => cancelPunishments(ids, context),
      success: '处罚已结束',
      requires: CANCEL,
    },
  ],
};
