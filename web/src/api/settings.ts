import { queryOptions } from '@tanstack/react-query';
import type { Settings } from '../../../shared/types/config';
import { api, unwrap } from './client';

export const fetchSettings = () => api.get<Settings>('/api/v1/settings');

export const settingsQuery = () =>
  queryOptions({
    queryKey: ['settings'] as const,
    queryFn: async () => unwrap(await fetchSettings()),
    staleTime: 5 * 60_000,
  });
