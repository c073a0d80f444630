import type { QueryClient } from '@tanstack/react-query';
import type { StartData } from '../../../shared/types/start-data';
import { seedFailure } from '../api/query-client';
import { categoryListQuery } from '../features/category/api';
import { navigationListQuery } from '../features/navigation/api';
import { settingsQuery } from '../features/settings/api';
import { clearSession, initSession, setPermissions, signIn } from '../features/session/session-store';
import { loadStartData, readStartData } from './start-data';

/**
 * Puts the start data where the screens read it: react-query's cache (with the answers of the
 * page's first calls under the keys their screens use, and the failures among them, the
 * subject's 404, which the screens show without asking again) and the session.
 */
export function applyStartData(queryClient: QueryClient, start: StartData): void {
  queryClient.setQueryData(settingsQuery().queryKey, start.settings);
  queryClient.setQueryData(navigationListQuery().queryKey, start.navigation);
  queryClient.setQueryData(categoryListQuery().queryKey, start.categories);
  for (const answer of start.routeData ?? []) queryClient.setQueryData(answer.key, answer.data);
  for (const failed of start.routeFailures ?? []) seedFailure(queryClient, failed.key, failed.failure);
  if (start.user) {
    signIn(start.user);
    setPermissions(start.permissions ?? []);
  } else {
    // No valid cookie: whatever was stored from an earlier visit is stale.
    clearSession();
  }
}

export async function boot(queryClient: QueryClient): Promise<StartData> {
  initSession();
  const start = readStartData() ?? (await loadStartData());
  applyStartData(queryClient, start);
  return start;
}
