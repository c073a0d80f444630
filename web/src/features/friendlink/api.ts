// FriendlinkAPI (contract: endpoints.md): the public links of the home page and the admin's
// management. Every write marks every friend-link query stale (admin lists, public links).
import { queryOptions } from '@tanstack/react-query';
import type { Friendlink, ListFriendlinkReply } from '../../../../shared/types/friendlink';
import { api, unwrap } from '../../api/client';
import { resourceWrites } from '../../api/query-client';

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

/** Create, update (every column) and delete. */
export const friendlinkWrites = resourceWrites<Friendlink, Friendlink>('/api/v1/friendlink', [friendlinkKeys.all]);
