// Server state of a resource screen: the list query, kept under the feature's own key so
// that the feature's writes (which mark that key stale) refresh it, and asked again as the
// resource says while its rows are still changing by themselves (`polling`).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { FormValues, ListQuery, ResourceDef } from './resource';

export function useResourceList<Row, Values extends FormValues>(resource: ResourceDef<Row, Values>, query: ListQuery) {
  return useQuery({
    queryKey: [...resource.listKey, query],
    queryFn: () => resource.list(query),
    placeholderData: keepPreviousData,
    staleTime: 0,
    ...resource.polling,
  });
}
