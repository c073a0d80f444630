import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { errorMessage } from '../../api/client';
import { Skeleton, Spin } from '../../ui/semi';
import { ErrorState } from '../../ui/states';
import './query-states.css';

/**
 * What a screen shows for one query: a skeleton while it loads, the error with 重试, the
 * empty state when `isEmpty` says so, else what `children` renders from the data. The answer
 * a list keeps while the next one comes (keepPreviousData: another page, filter or order) is
 * dimmed under 正在加载…: on a slow network it was taken for the list just asked for.
 */
export function QueryStates<T>({
  query,
  loadingRows,
  held = false,
  failure,
  isEmpty,
  empty,
  children,
}: {
  query: UseQueryResult<T>;
  loadingRows: number;
  /** Shown as still loading while true, whatever the query says: a failure held back for now. */
  held?: boolean;
  /** The error text when the failure carries no message, e.g. '订单加载失败'. */
  failure: string;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending || held) return <Skeleton.Paragraph rows={loadingRows} />;
  if (query.isError)
    return <ErrorState message={errorMessage(query.error, failure)} onRetry={() => void query.refetch()} />;
  // The note comes and goes before what it dims, which stays mounted meanwhile.
  return (
    <>
      {query.isPlaceholderData && (
        <p className="app-query-states__loading" role="status">
          <Spin size="small" />
          正在加载…
        </p>
      )}
      {isEmpty?.(query.data) ? empty : children(query.data)}
    </>
  );
}
