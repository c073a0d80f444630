import { queryOptions } from '@tanstack/react-query';
import type { Empty } from '../../../shared/types/common';
import type { Friendlink, ListFriendlinkReply } from '../../../shared/types/friendlink';
import { api, unwrap } from './client';

export const fetchFriendlinks = () => api.get<ListFriendlinkReply>('/api/v1/friendlink/list', { page: 1, size: 100 });

export const friendlinksQuery = () =>
  queryOptions({
    queryKey: ['friendlink', 'list', 'public'] as const,
    queryFn: async () => unwrap(await fetchFriendlinks()).friendlink ?? [],
  });

/** The admin's friend-link management (contract: FriendlinkAPI). */
export const friendlinkApi = {
  list: (query: { page: number; size: number; wd?: string; enable?: readonly boolean[] }) =>
    api.get<ListFriendlinkReply>('/api/v1/friendlink/list', query),
  create: (link: Friendlink) => api.post<Friendlink>('/api/v1/friendlink', link),
  /** Full replacement of all columns. */
  update: (link: Friendlink) => api.put<Empty>('/api/v1/friendlink', link),
  remove: (ids: readonly number[]) => api.delete<Empty>('/api/v1/friendlink', { id: ids }),
};
