// ConfigAPI's admin calls (contract: endpoints.md, ConfigAPI; config-keys.md): one category
// of rows at a time; saving writes only the `value` of the rows sent, by id.
import { queryOptions } from '@tanstack/react-query';
import type { Empty } from '../../../shared/types/common';
import type { Config, Configs } from '../../../shared/types/config';
import { api, unwrap } from './client';

export const configApi = {
  list: (category: string) => api.get<Configs>('/api/v1/config/list', { category: [category] }),
  /** Each row as listed (id, name, category) with its edited value. */
  update: (rows: readonly Pick<Config, 'id' | 'name' | 'category' | 'value'>[]) =>
    api.put<Empty>('/api/v1/config', { config: rows }),
};

export const configKeys = { all: ['config'] as const, category: (category: string) => ['config', category] as const };

export const configCategoryQuery = (category: string) =>
  queryOptions({
    queryKey: configKeys.category(category),
    queryFn: async () => unwrap(await configApi.list(category)).config ?? [],
    staleTime: 0,
  });
