import { queryOptions } from '@tanstack/react-query';
import type { ListFriendlinkReply } from '../../../shared/types';
import { api, unwrap } from './client';

export const fetchFriendlinks = () => api.get<ListFriendlinkReply>('/api/v1/friendlink/list', { page: 1, size: 100 });

export const friendlinksQuery = () =>
  queryOptions({
    queryKey: ['friendlink', 'list', 'public'] as const,
    queryFn: async () => unwrap(await fetchFriendlinks()).friendlink ?? [],
  });
