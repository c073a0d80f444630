// A member's right to do something, as the contract's `GET /api/v1/user/cani…` calls answer it:
// `{}` when the member may, 403 with the reason (a punishment, no group that allows it) when
// not. A refusal is an answer here, not an error.
import { queryOptions, type QueryKey } from '@tanstack/react-query';
import type { Empty } from '../../../shared/types/common';
import { api, ApiError } from './client';

export const rightQuery = <Key extends QueryKey>(queryKey: Key, path: `/api/v1/user/cani${string}`) =>
  queryOptions({
    queryKey,
    queryFn: async () => {
      const result = await api.get<Empty>(path);
      if (result.ok) return { allowed: true } as const;
      if (result.status === 403) return { allowed: false, reason: result.data.message } as const;
      throw new ApiError({ status: result.status, data: result.data });
    },
    staleTime: 5 * 60_000,
  });
