// The reason the dashboard says once for an outage (dashboard-outage.tsx), for its panels to
// leave out a failure already said.
import { createContext, useContext } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { errorMessage } from '../../api/client';

/** What a failure without a message of its own is counted as. */
const FAILED = '加载失败';

/** Why `query` failed, null when it did not. */
export const reasonOf = (query: UseQueryResult<unknown>): string | null =>
  query.isError ? errorMessage(query.error, FAILED) : null;

export const OutageContext = createContext<string | null>(null);

/**
 * Whether a query failed for the reason the dashboard already says once: its panel then shows
 * nothing of its own for it.
 */
export function useSaidByOutage(): (query: UseQueryResult<unknown>) => boolean {
  const reason = useContext(OutageContext);
  return (query) => reason !== null && reasonOf(query) === reason;
}
