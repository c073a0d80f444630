// Server state of a resource screen: the list query, kept under the feature's own key so
// that the feature's writes (which mark that key stale) refresh it, and asked again as the
// resource says while its rows are still changing by themselves (`polling`).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { FormValues, ListQuery, ResourceDef } from './resource';

/**
 * `kept()` names, when the list is asked, the rows it answers beyond its filters (`ListQuery.keep`).
 * They are not part of the key: a write that keeps its rows refreshes the list the screen shows,
 * which would otherwise drop them, then load a second list to bring them back.
 */
export function useResourceList<Row, Values extends FormValues>(
  resource: ResourceDef<Row, Values>,
  query: Omit<ListQuery, 'keep'>,
  kept: () => readonly number[],
) {
  return useQuery({
    queryKey: [...resource.listKey, query],
    queryFn: () => resource.list({ ...query, keep: kept() }),
    placeholderData: keepPreviousData,
    staleTime: 0,
    ...resource.polling,
  });
}
