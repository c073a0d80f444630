import { QueryClient, type MutationFunctionContext, type QueryKey } from '@tanstack/react-query';
import type { Empty } from '../../../shared/types/common';
import { api, type ApiResult } from './client';

/** Server state lives in react-query; failures are already shown by the screens. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 60_000 },
      mutations: { retry: false },
    },
  });
}

/** What a feature's write needs from react-query: the client whose queries it refreshes. */
export type WriteContext = Pick<MutationFunctionContext, 'client'>;

/**
 * A feature's write: the call, then, when it succeeded, every query under the `stale` keys
 * marked stale (those on screen refetch) before the answer is handed back. Each feature's
 * `api.ts` names what its own writes make stale, so no screen lists keys.
 */
export async function invalidateAfter<T>(
  call: Promise<ApiResult<T>>,
  { client }: WriteContext,
  stale: readonly QueryKey[],
): Promise<ApiResult<T>> {
  const result = await call;
  if (result.ok) await Promise.all(stale.map((queryKey) => client.invalidateQueries({ queryKey })));
  return result;
}

/**
 * The writes of a MOREDOC resource at `path` (`POST` creates, `PUT` replaces every column,
 * `DELETE ?id=…` deletes), each marking the `stale` keys stale when it succeeds.
 */
export function resourceWrites<Entity, Created = Empty>(path: string, stale: readonly QueryKey[]) {
  return {
    create: (entity: Entity, context: WriteContext) => invalidateAfter(api.post<Created>(path, entity), context, stale),
    update: (entity: Entity, context: WriteContext) => invalidateAfter(api.put<Empty>(path, entity), context, stale),
    remove: (ids: readonly number[], context: WriteContext) =>
      invalidateAfter(api.delete<Empty>(path, { id: ids }), context, stale),
  };
}
