// NavigationAPI (docs/moredoc.md): the public header's navigation (start data) and the
// admin's management. Every write marks every navigation query stale (the header, admin lists).
import { queryOptions } from '@tanstack/react-query';
import { NAVIGATION_PAGE_SIZE } from '../../../../shared/constants';
import type { ListNavigationReply, Navigation } from '../../../../shared/types/navigation';
import { api, unwrap } from '../../api/client';
import { resourceWrites } from '../../api/query-client';

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

/**
 * Create, update (every column except `fixed`) and delete (children go with their parents;
 * fixed entries are never deleted).
 */
export const navigationWrites = resourceWrites<Navigation, Navigation>('/api/v1/navigation', [navigationKeys.all]);
