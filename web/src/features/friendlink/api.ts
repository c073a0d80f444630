// FriendlinkAPI (docs/moredoc.md): the public links of the home page and the admin's
// management. Every write marks every friend-link query stale (admin lists, public links).
import { friendlinksCall } from '../../../../shared/page-data';
import type { Friendlink, ListFriendlinkReply } from '../../../../shared/types/friendlink';
import { callQuery } from '../../api/call-query';
import { api } from '../../api/client';
import { resourceWrites } from '../../api/query-client';

export const friendlinkKeys = {
  all: ['friendlink'] as const,
  admin: ['friendlink', 'admin'] as const,
};

export const listFriendlinks = (query: { page: number; size: number; wd?: string; enable?: readonly boolean[] }) =>
  api.get<ListFriendlinkReply>('/api/v1/friendlink/list', query);

/** The links of the home page. */
export const friendlinksQuery = () => callQuery(friendlinksCall());

/** Create, update (every column) and delete. */
export const friendlinkWrites = resourceWrites<Friendlink, Friendlink>('/api/v1/friendlink', [friendlinkKeys.all]);
