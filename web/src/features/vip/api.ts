// UserVipAPI (ours, docs/api.md §9): the member's own VIP period, and the admins' list of
// members with VIP, their grants, revokes and history. A change of a period makes the member's
// own state (and the account that shows it) stale too.
import { queryOptions } from '@tanstack/react-query';
import type { Empty } from '../../../../shared/types/common';
import type {
  GrantUserVipRequest,
  ListUserVipLogReply,
  ListUserVipReply,
  ListUserVipRequest,
  RevokeUserVipRequest,
  UserVip,
} from '../../../../shared/types/vip';
import { api, unwrap } from '../../api/client';
import { invalidateAfter, type WriteContext } from '../../api/query-client';
import { userKeys } from '../user/api';

export const vipKeys = {
  all: ['vip'] as const,
  mine: ['vip', 'mine'] as const,
  admin: ['vip', 'admin'] as const,
  log: (userId: number, page: number) => ['vip', 'admin', 'log', userId, page] as const,
};

/** `status` filter of the admin list. */
export const VipListStatus = { Active: 1, Expired: 2 } as const;

export const myVipQuery = () =>
  queryOptions({
    queryKey: vipKeys.mine,
    queryFn: async (): Promise<UserVip> => unwrap(await api.get<UserVip>('/api/v1/vip')),
    staleTime: 0,
  });

export const listUserVips = (query: ListUserVipRequest) => api.get<ListUserVipReply>('/api/v1/vip/list', { ...query });

export const vipLogQuery = (userId: number, page: number, size = 10) =>
  queryOptions({
    queryKey: vipKeys.log(userId, page),
    queryFn: async () => unwrap(await api.get<ListUserVipLogReply>('/api/v1/vip/log', { user_id: userId, page, size })),
  });

const stale = [vipKeys.all, userKeys.current];

/** Grants a period to members without one, extends the others'. */
export const grantVip = (request: GrantUserVipRequest, context: WriteContext) =>
  invalidateAfter(api.post<Empty>('/api/v1/vip/grant', request), context, stale);

export const revokeVip = (request: RevokeUserVipRequest, context: WriteContext) =>
  invalidateAfter(api.put<Empty>('/api/v1/vip/revoke', request), context, stale);
