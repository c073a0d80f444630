import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { errorMessage } from '../../api/client';
import { Skeleton } from '../../ui/semi';
import { ErrorState } from '../../ui/states';

/**
 * What a screen shows for one query: a skeleton while it loads, the error with 重试, the
 * empty state when `isEmpty` says so, else what `children` renders from the data.
 */
export function QueryStates<T>({
  query,
  loadingRows,
  failure,
  isEmpty,
  empty,
  children,
}: {
  query: UseQueryResult<T>;
  loadingRows: number;
  /** The error text when the failure carries no message, e.g. '订单加载失败'. */
  failure: string;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Skeleton.Paragraph rows={loadingRows} />;
  if (query.isError)
    return <ErrorState message={errorMessage(query.error, failure)} onRetry={() => void query.refetch()} />;
  if (isEmpty?.(query.data)) return empty;
  return children(query.data);
}
