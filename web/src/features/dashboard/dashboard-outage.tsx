// The dashboard during an outage: when most of its calls fail for one reason (the backend away:
// 服务暂时不可用, 数据库暂时不可用…), it says so once, with one 重试 that asks every call again,
// rather than 加载失败 in each panel and each count of 待处理. A panel whose call failed for
// that reason then shows nothing of its own; a failure of another reason, or one call failing
// alone, is still said where it happened.
import type { ReactNode } from 'react';
import { useQueries, useQueryClient, type QueryKey, type UseQueryResult } from '@tanstack/react-query';
import { ErrorState } from '../../ui/states';
import { envsQuery, setupChecklistQuery } from '../config/api';
import { usePermissionCheck } from '../session/use-session';
import { statsQuery } from '../stats/api';
import { ENVS_PERMISSION } from './ConverterStatus';
import { STATS_PERMISSION } from './DashboardFigures';
import { OutageContext, reasonOf, type Outage } from './outage-context';
import { pendingQueries } from './PendingWork';
import { SETUP_CHECKLIST_PERMISSION } from './SetupChecklist';

/**
 * The reason most of the dashboard's calls failed for, if two or more did and they are more
 * than half of its calls (those still out count in the whole); null otherwise. Undecided while
 * no outage is said yet but the calls still out could make one: as soon as the answers make it
 * certain either way, it is decided.
 */
function outageOf(results: UseQueryResult<unknown>[]): Outage {
  const counts = new Map<string, number>();
  let out = 0;
  for (const result of results) {
    const reason = reasonOf(result);
    if (reason !== null) counts.set(reason, (counts.get(reason) ?? 0) + 1);
    else if (result.isPending) out += 1;
  }
  const isOutage = (count: number) => count >= 2 && count * 2 > results.length;
  let top = 0;
  for (const [reason, count] of counts) {
    if (isOutage(count)) return { reason, undecided: false };
    top = Math.max(top, count);
  }
  return { reason: null, undecided: out > 0 && isOutage(top + out) };
}

/** The dashboard's panels, under the one notice of an outage when there is one. */
export function DashboardCalls({ children }: { children: ReactNode }) {
  const holds = usePermissionCheck();
  const client = useQueryClient();
  const queries = [
    ...(holds(SETUP_CHECKLIST_PERMISSION) ? [setupChecklistQuery()] : []),
    ...(holds(STATS_PERMISSION) ? [statsQuery()] : []),
    ...pendingQueries(holds),
    ...(holds(ENVS_PERMISSION) ? [envsQuery()] : []),
  ];
  const outage = useQueries({
    queries,
    combine: (results) => outageOf(results as UseQueryResult<unknown>[]),
  });
  const retry = () => {
    const keys: QueryKey[] = queries.map((query) => query.queryKey);
    for (const queryKey of keys) void client.refetchQueries({ queryKey, exact: true });
  };
  return (
    <OutageContext.Provider value={outage}>
      {outage.reason !== null && (
        <div className="app-panel">
          <ErrorState message={outage.reason} onRetry={retry} />
        </div>
      )}
      {children}
    </OutageContext.Provider>
  );
}
