// NavigationAPI (contract: endpoints.md): the public header's navigation (start data) and the
// admin's management. Every write marks every navigation query stale (the header, admin lists).
import { queryOptions } from '@tanstack/react-query';
import { NAVIGATION_PAGE_SIZE } from '../../../../shared/constants';
import type { Empty } from '../../../../shared/types/common';
import type { ListNavigationReply, Navigation } from '../../../../shared/types/navigation';
import { api, unwrap } from '../../api/client';
import { invalidateAfter, type WriteContext } from '../../api/query-client';

export const navigationKeys = {
  all: ['navigation'] as const,
  public: ['navigation', 'list'] as const,
  admin: ['navigation', 'admin'] as const,
};

/** Every item, enabled or not (the public header shows the enabled ones). */
export const fetchNavigationList = (wd?: string) =>
  api.get<ListNavigationReply>('/api/v1/navigation/list', { page: 1, size: NAVIGATION_PAGE_SIZE, wd });

export const navigationListQuery = () =>
  queryOptions({
    queryKey: navigationKeys.public,
    queryFn: async () => unwrap(await fetchNavigationList()).navigation ?? [],
    staleTime: 5 * 60_000,
  });

const stale = [navigationKeys.all];

export const createNavigation = (item: Navigation, context: WriteContext) =>
  invalidateAfter(api.post<Navigation>('/api/v1/navigation', item), context, stale);

/** Full replacement of all columns except `fixed`. */
export const updateNavigation = (item: Navigation, context: WriteContext) =>
  invalidateAfter(api.put<Empty>('/api/v1/navigation', item), context, stale);

/** Children go with their parents; fixed entries are never deleted. */
export const deleteNavigations = (ids: readonly number[], context: WriteContext) =>
  invalidateAfter(api.delete<Empty>('/api/v1/navigation', { id: ids }), context, stale);
