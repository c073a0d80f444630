// Queries built from the call declarations of shared/page-data.ts: the key, path and query the
// gateway used for the page it served, so that the answers it inlined are found by the
// screens, and the same shaping of the answer when the SPA makes the call itself.
import { queryOptions } from '@tanstack/react-query';
import type { ApiCall } from '../../../shared/api-call';
import { api, unwrap } from './client';

export interface CallOptions<T> {
  /**
   * What a 404 stands for, instead of an error (a service the backend does not have); else the call's own
   * `whenMissing`.
   */
  whenMissing?: T;
}

/** Makes the call: what the screen keeps of the answer, or a thrown ApiError. */
export async function runCall<T>(call: ApiCall<T>, options: CallOptions<T> = {}): Promise<T> {
  const result = await api.get<unknown>(call.path, call.query);
  const whenMissing = options.whenMissing !== undefined ? options.whenMissing : call.whenMissing;
  if (!result.ok && result.status === 404 && whenMissing !== undefined) return whenMissing;
  return call.select(unwrap(result));
}

export const callQuery = <T>(call: ApiCall<T>, options: CallOptions<T> = {}) =>
  queryOptions({ queryKey: call.key, queryFn: () => runCall(call, options) });
