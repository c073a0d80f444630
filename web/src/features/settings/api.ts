// The public settings (`GET /api/v1/settings`): seeded from the start data, read everywhere;
// the writes of config and languages mark them stale.
import { queryOptions } from '@tanstack/react-query';
import type { Settings } from '../../../../shared/types/config';
import { api, unwrap } from '../../api/client';

export const settingsKeys = { all: ['settings'] as const };

export const fetchSettings = () => api.get<Settings>('/api/v1/settings');

export const settingsQuery = () =>
  queryOptions({
    queryKey: settingsKeys.all,
    queryFn: async () => unwrap(await fetchSettings()),
    staleTime: 5 * 60_000,
  });
