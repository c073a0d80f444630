import { QueryClient, type MutationFunctionContext, type QueryKey } from '@tanstack/react-query';
import type { ApiResult } from './client';

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
