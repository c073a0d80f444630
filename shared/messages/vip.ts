import { message } from '../wire';

// UserVipAPI's messages (ours, docs/api.md §9).

export const UserVip = message('UserVip', {
  user_id: 'int64',
  username: 'string',
  plan_code: 'string',
  plan_title: 'string',
  start_at: 'time',
  end_at: 'time',
  active: 'bool',
  created_at: 'time',
  updated_at: 'time',
});

export const VipLog = message('VipLog', {
  id: 'int64',
  user_id: 'int64',
  action: 'int32',
  days: 'int32',
  order_id: 'int64',
  operator_id: 'int64',
  operator: 'string',
  reason: 'string',
  end_before: 'time',
  end_after: 'time',
  created_at: 'time',
});

export const ListUserVipRequest = message('ListUserVipRequest', {
  page: 'int64',
  size: 'int64',
  wd: 'string',
  user_id: 'int64[]',
  status: 'int32[]',
});
export const ListUserVipReply = message('ListUserVipReply', { total: 'int64', user_vip: [UserVip] });
export const GrantUserVipRequest = message('GrantUserVipRequest', {
  user_id: 'int64[]',
  days: 'int32',
  reason: 'string',
});
export const RevokeUserVipRequest = message('RevokeUserVipRequest', { user_id: 'int64[]', reason: 'string' });
export const ListUserVipLogRequest = message('ListUserVipLogRequest', {
  user_id: 'int64',
  page: 'int64',
  size: 'int64',
});
export const ListUserVipLogReply = message('ListUserVipLogReply', { total: 'int64', log: [VipLog] });
