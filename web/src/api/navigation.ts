import { queryOptions } from '@tanstack/react-query';
import type { ListNavigationReply } from '../../../shared/types';
import { NAVIGATION_PAGE_SIZE } from '../../../shared/constants';
import { api, unwrap } from './client';


export const fetchNavigationList = () =>
  api.get<ListNavigationReply>('/api/v1/navigation/list', { page: 1, size: NAVIGATION_PAGE_SIZE });

export const navigationListQuery = () =>
  queryOptions({
    queryKey: ['navigation', 'list'] as const,
    queryFn: async () => unwrap(await fetchNavigationList()).navigation ?? [],
    staleTime: 5 * 60_000,
  });
