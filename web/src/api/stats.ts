import { queryOptions } from '@tanstack/react-query';
import type { Stats } from '../../../shared/types/config';
import { api, unwrap } from './client';

export type { Stats };

export const fetchStats = () => api.get<Stats>('/api/v1/stats');

export const statsQuery = () =>
  queryOptions({
    queryKey: ['stats'] as const,
    queryFn: async () => unwrap(await fetchStats()),
  });
