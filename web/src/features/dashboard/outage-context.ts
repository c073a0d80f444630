// The reason the dashboard says once for an outage (dashboard-outage.tsx), for its panels to
// leave out a failure already said, and to hold a failure back while an outage may still come.
import { createContext, useContext } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { errorMessage } from '../../api/client';

/** What a failure without a message of its own is counted as. */
const FAILED = '加载失败';

/** Why `query` failed, null when it did not. */
export const reasonOf = (query: UseQueryResult<unknown>): string | null =>
  query.isError ? errorMessage(query.error, FAILED) : null;

/**
 * The dashboard's calls as its panels see them: the reason of an outage said once, if any, and
 * whether the calls still out could yet make one (then no failure is said in a panel yet).
 */
export type Outage = { reason: string | null; undecided: boolean };

export const OutageContext = createContext<Outage>({ reason: null, undecided: false });

/**
 * Whether a query failed for the reason the dashboard already says once: its panel then shows
 * nothing of its own for it.
 */
export function useSaidByOutage(): (query: UseQueryResult<unknown>) => boolean {
  const { reason } = useContext(OutageContext);
  return (query) => reason !== null && reasonOf(query) === reason;
}

/**
 * Whether a query's failure waits for the calls still out, which may yet make it part of an
 * outage said once: its panel shows it as still loading meanwhile, rather than a 加载失败 that
 * the notice would replace a moment later.
 */
export function useHeldByOutage(): (query: UseQueryResult<unknown>) => boolean {
  const { undecided } = useContext(OutageContext);
  return (query) => undecided && query.isError;
}
