import { QueryClient, type MutationFunctionContext, type QueryKey } from '@tanstack/react-query';
import type { ApiFailure } from '../../../shared/api-failure';
import type { Empty } from '../../../shared/types/common';
import { answeredBySigningInAgain, api, ApiError, type ApiResult } from './client';

/** The failures the page carried (seedFailure): a screen shows them without asking again. */
const carriedFailures = new WeakSet<object>();

/** Whether `error` is a failure the page carried, rather than one of a call the app made. */
export function isCarriedFailure(error: unknown): boolean {
  return typeof error === 'object' && error !== null && carriedFailures.has(error);
}

/**
 * Keeps a failure the page carried (start data `routeFailures`: its subject's 404) under its
 * call's key, as if the screen's query had failed so: the screen shows it, and does not ask
 * again when it mounts (the query client's `retryOnMount`). Asked again (a retry, a refetch),
 * the query is as any other.
 */
export function seedFailure(client: QueryClient, key: QueryKey, failure: ApiFailure): void {
  if (client.getQueryState(key)) return;
  const error = new ApiError(failure);
  carriedFailures.add(error);
  client.getQueryCache().build(
    client,
    { queryKey: key },
    {
      data: undefined,
      dataUpdateCount: 0,
      dataUpdatedAt: 0,
      error,
      errorUpdateCount: 1,
      errorUpdatedAt: Date.now(),
      fetchFailureCount: 1,
      fetchFailureReason: error,
      fetchMeta: null,
      isInvalidated: false,
      status: 'error',
      fetchStatus: 'idle',
    },
  );
}

/** Server state lives in react-query; failures are already shown by the screens. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: false,
        refetchOnWindowFocus: false,
        staleTime: 60_000,
        // A failure the page carried is the page's answer: the screen shows it as it is.
        retryOnMount: (query) => !isCarriedFailure(query.state.error),
      },
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
 * A batch through an RPC that takes one id (UpdateReport, UpdateFeedback): one call per id, in
 * turn, then the `stale` keys marked stale once if any call succeeded. One answer: a success when
 * every call succeeded; else the first refusal as it came, with what the batch did
 * (`batchShortfall`: how many rows it did, the rows done stay done, and the ids not done, so that a
 * retry sends only those and its toast can count the whole batch). A refusal that the
 * sign-in-again dialog answers stops the batch, so that the dialog, not a toast, answers it.
 */
export async function writeEach(
  ids: readonly number[],
  call: (id: number) => Promise<ApiResult<unknown>>,
  { client }: WriteContext,
  stale: readonly QueryKey[],
): Promise<ApiResult<Empty>> {
  const succeeded = new Set<number>();
  const refusals: ({ ok: false } & ApiFailure)[] = [];
  for (const id of ids) {
    const result = await call(id);
    if (result.ok) succeeded.add(id);
    else if (answeredBySigningInAgain(result)) {
      refusals.unshift(result);
      break;
    } else refusals.push(result);
  }
  if (succeeded.size > 0) await Promise.all(stale.map((queryKey) => client.invalidateQueries({ queryKey })));
  const first = refusals[0];
  if (!first) return { ok: true, status: 200, data: {} };
  // Its body as it came: the sign-in-again dialog knows the refusals it answers by it.
  shortfalls.set(first.data, { done: succeeded.size, left: ids.filter((id) => !succeeded.has(id)) });
  return first;
}

/** What a failed `writeEach` batch did: how many rows, and the ids it left (refused, or not tried after a session end). */
export interface BatchShortfall {
  done: number;
  left: readonly number[];
}

/** The shortfalls of failed `writeEach` batches, by their failure's body. */
const shortfalls = new WeakMap<object, BatchShortfall>();

/** What a failed `writeEach` batch did and left undone; undefined for any other failure. */
export function batchShortfall(failure: unknown): BatchShortfall | undefined {
  const data = failure instanceof ApiError ? failure.failure.data : (failure as Partial<ApiFailure> | undefined)?.data;
  return typeof data === 'object' && data !== null ? shortfalls.get(data) : undefined;
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
