// FriendlinkAPI (contract: endpoints.md): the public links of the home page and the admin's
// management. Every write marks every friend-link query stale (admin lists, public links).
import { queryOptions } from '@tanstack/react-query';
import type { Empty } from '../../../../shared/types/common';
import type { Friendlink, ListFriendlinkReply } from '../../../../shared/types/friendlink';
import { api, unwrap } from '../../api/client';
import { invalidateAfter, type WriteContext } from '../../api/query-client';

export const friendlinkKeys = {
  all: ['friendlink'] as const,
  public: ['friendlink', 'list', 'public'] as const,
  admin: ['friendlink', 'admin'] as const,
};

export const listFriendlinks = (query: { page: number; size: number; wd?: string; enable?: readonly boolean[] }) =>
  api.get<ListFriendlinkReply>('/api/v1/friendlink/list', query);

/** The links of the home page. */
export const friendlinksQuery = () =>
  queryOptions({
    queryKey: friendlinkKeys.public,
    queryFn: async () => unwrap(await listFriendlinks({ page: 1, size: 100 })).friendlink ?? [],
  });

const stale = [friendlinkKeys.all];

export const createFriendlink = (link: Friendlink, context: WriteContext) =>
  invalidateAfter(api.post<Friendlink>('/api/v1/friendlink', link), context, stale);

/** Full replacement of all columns. */
export const updateFriendlink = (link: Friendlink, context: WriteContext) =>
  invalidateAfter(api.put<Empty>('/api/v1/friendlink', link), context, stale);

export const deleteFriendlinks = (ids: readonly number[], context: WriteContext) =>
  invalidateAfter(api.delete<Empty>('/api/v1/friendlink', { id: ids }), context, stale);
