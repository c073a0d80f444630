// The admin's VIP members (/admin/user/vip): everyone who has or had a period, by name and
// state; 开通会员 grants (or extends) days to chosen users with a reason; each row extends,
// revokes and shows its history (VipMemberActions).
import type { UserVip } from '../../../../shared/types/vip';
import { VIP_PLAN_MAX_DAYS } from '../../../../shared/vip';
import { dateColumn } from '../../kit/admin-resource/cells';
import { asList, keyword, listPage } from '../../kit/admin-resource/list-query';
import type { ResourceDef } from '../../kit/admin-resource/resource';
import { Tag } from '../../ui/semi-extra';
import { searchedUsernames } from '../user/api';
import { usersField } from '../user/UserPicker';
import { VipListStatus, grantVip, listUserVips, vipKeys } from './api';
import { GRANT, VIP_MEMBER_ACTIONS, VipMemberActions, reasonField } from './VipMemberActions';
import './vip.css';

type Values = { users: number[]; days: number | undefined; reason: string };

const STATUS_FILTER = [
  { value: VipListStatus.Active, label: '有效' },
  { value: VipListStatus.Expired, label: '已过期' },
];

export const vipResource: ResourceDef<UserVip, Values> = {
  key: 'user-vip',
  title: '会员管理',
  noun: '会员',
  createLabel: '开通会员',
  // A grant is no row created: the sheet says 开通 (a grant refused says 开通失败, not 创建失败).
  createVerb: '开通',
  rowId: (row) => row.user_id ?? 0,
  rowLabel: (row) => row.username ?? `#${row.user_id ?? ''}`,
  columns: [
    { key: 'user_id', title: '用户 ID', width: 80 },
    {
      key: 'username',
      title: '用户',
      // A name is one word: at 390 px buyera2024 broke into buyera20 / 24 (the table scrolls instead).
      render: (row) => <span className="app-resource-nowrap">{row.username || '-'}</span>,
    },
    { key: 'plan_title', title: '套餐', render: (row) => row.plan_title || '管理员开通' },
    {
      key: 'status',
      title: '状态',
      width: 80,
      render: (row) => (row.active ? <Tag color="amber">有效</Tag> : <Tag color="grey">已过期</Tag>),
    },
    dateColumn('start_at', '本期开始'),
    dateColumn('end_at', '到期时间'),
  ],
  filters: [
    { kind: 'keyword', name: 'wd', label: '用户名' },
    { kind: 'select', name: 'status', label: '状态', options: STATUS_FILTER },
  ],
  listKey: vipKeys.admin,
  list: ({ page, size, filters }) =>
    listPage(
      listUserVips({ page, size, wd: keyword(filters.wd), status: asList(filters.status as number | undefined) }),
      (r) => r.user_vip,
    ),
  form: {
    fields: [
      usersField<Values>('已是会员的用户在当前有效期后顺延'),
      { name: 'days', label: '天数', kind: 'number', required: true, integer: true, min: 1, max: VIP_PLAN_MAX_DAYS },
      reasonField<Values>(),
    ],
    initial: () => ({ users: [], days: 30, reason: '' }),
  },
  create: (values, context) =>
    grantVip({ user_id: values.users, days: values.days ?? 0, reason: values.reason.trim() }, context),
  createdToast: (values, { client }) => {
    const names = searchedUsernames(client, values.users);
    const whom = names.length > 3 ? `${names.slice(0, 3).join('、')} 等 ${names.length} 位用户` : names.join('、');
    return { title: '开通成功', description: `已为 ${whom} 开通会员（${values.days ?? 0} 天）` };
  },
  requires: { create: GRANT },
  rowActions: (row) => <VipMemberActions row={row} />,
  rowActionsRequire: VIP_MEMBER_ACTIONS,
};
