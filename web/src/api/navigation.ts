import { queryOptions } from '@tanstack/react-query';
import type { Empty } from '../../../shared/types/common';
import type { ListNavigationReply, Navigation } from '../../../shared/types/navigation';
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

/** The admin's navigation management (contract: NavigationAPI). */
export const navigationApi = {
  /** Every item, enabled or not. */
  list: (wd?: string) => api.get<ListNavigationReply>('/api/v1/navigation/list', { page: 1, size: NAVIGATION_PAGE_SIZE, wd }),
  create: (item: Navigation) => api.post<Navigation>('/api/v1/navigation', item),
  /** Full replacement of all columns except `fixed`. */
  update: (item: Navigation) => api.put<Empty>('/api/v1/navigation', item),
  /** Children go with their parents; fixed entries are never deleted. */
  remove: (ids: readonly number[]) => api.delete<Empty>('/api/v1/navigation', { id: ids }),
};
