// The site's figures (`GET /api/v1/stats`): the home page's counts and the admin dashboard.
import { queryOptions } from '@tanstack/react-query';
import type { Stats } from '../../../../shared/types/config';
import { api, unwrap } from '../../api/client';

export type { Stats };

export const statsKeys = { all: ['stats'] as const };

export const statsQuery = () =>
  queryOptions({
    queryKey: statsKeys.all,
    queryFn: async () => unwrap(await api.get<Stats>('/api/v1/stats')),
  });
