// Server state of a resource screen: the list query, kept under the feature's own key so
// that the feature's writes (which mark that key stale) refresh it, and polled while the
// resource says its rows are still changing (`refetchWhile`).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { FormValues, ListQuery, ResourceDef } from './resource';

const RESOURCE_POLL_MS = 2_000;

export function useResourceList<Row, Values extends FormValues>(resource: ResourceDef<Row, Values>, query: ListQuery) {
  const { refetchWhile } = resource;
  return useQuery({
    queryKey: [...resource.listKey, query],
    queryFn: () => resource.list(query),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: refetchWhile
      ? (current) =>
          current.state.data && !current.state.error && refetchWhile(current.state.data.rows) ? RESOURCE_POLL_MS : false
      : false,
  });
}
