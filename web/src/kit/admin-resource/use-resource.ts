// Server state of a resource screen: the list query (keyed by page, size and filters) and the
// refresh after a change (the admin list, plus what the resource says the change makes stale).
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ApiError, type ApiResult } from '../../api/client';
import type { FormValues, ListQuery, ResourceDef } from './resource';

export const adminKeys = {
  resource: (key: string) => ['admin', key] as const,
  list: (key: string, query: ListQuery) => ['admin', key, 'list', query] as const,
};

export function useResourceList<Row, Values extends FormValues>(resource: ResourceDef<Row, Values>, query: ListQuery) {
  return useQuery({
    queryKey: adminKeys.list(resource.key, query),
    queryFn: () => resource.list(query),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** Marks the resource's lists (and the queries it names) stale; active ones refetch. */
export function useInvalidateResource<Row, Values extends FormValues>(resource: ResourceDef<Row, Values>): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: adminKeys.resource(resource.key) }),
      ...(resource.invalidates ?? []).map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    ]);
  }, [queryClient, resource]);
}

/** For mutation functions: the data of a success, or an ApiError to reject with. */
export async function succeedOrThrow<T>(call: Promise<ApiResult<T>>): Promise<T> {
  const result = await call;
  if (!result.ok) throw new ApiError({ status: result.status, data: result.data });
  return result.data;
}
