// ConfigAPI's admin calls (docs/moredoc.md, ConfigAPI; §10): one category
// of rows at a time; saving writes only the `value` of the rows sent, by id, and makes the
// config lists and the public settings stale.
import { queryOptions } from '@tanstack/react-query';
import type { Empty } from '../../../../shared/types/common';
import type { Config, Configs, Envs, SetupChecklist } from '../../../../shared/types/config';
import { api, unwrap } from '../../api/client';
import { invalidateAfter, type WriteContext } from '../../api/query-client';
import { settingsKeys } from '../settings/api';

export const configKeys = { all: ['config'] as const, category: (category: string) => ['config', category] as const };

export const configCategoryQuery = (category: string) =>
  queryOptions({
    queryKey: configKeys.category(category),
    queryFn: async () => unwrap(await api.get<Configs>('/api/v1/config/list', { category: [category] })).config ?? [],
    staleTime: 0,
  });

/** Each row as listed (id, name, category) with its edited value. */
export const saveConfig = (
  rows: readonly Pick<Config, 'id' | 'name' | 'category' | 'value'>[],
  context: WriteContext,
) => invalidateAfter(api.put<Empty>('/api/v1/config', { config: rows }), context, [configKeys.all, settingsKeys.all]);

/** What this install has for converting documents (`GET /api/v1/envs`; empty without the GetEnvs permission). */
export const envsQuery = () =>
  queryOptions({
    queryKey: [...configKeys.all, 'envs'] as const,
    queryFn: async () => unwrap(await api.get<Envs>('/api/v1/envs')).envs ?? [],
  });

/**
 * What the site still lacks (`GET /api/v1/setup/checklist`): read again whenever the dashboard
 * opens, since the fixes happen on other screens (categories, roles, config, the password).
 */
export const setupChecklistQuery = () =>
  queryOptions({
    queryKey: [...configKeys.all, 'setup-checklist'] as const,
    queryFn: async () => unwrap(await api.get<SetupChecklist>('/api/v1/setup/checklist')).missing ?? [],
    staleTime: 0,
  });
