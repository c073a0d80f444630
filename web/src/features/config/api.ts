// ConfigAPI's admin calls (docs/moredoc.md, ConfigAPI; §10): one category
// of rows at a time; saving writes only the `value` of the rows sent, by id, and makes the
// config lists and the public settings stale.
import { queryOptions } from '@tanstack/react-query';
import type { ApiFailure } from '../../../../shared/api-failure';
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

type SavedRows = readonly Pick<Config, 'category' | 'name' | 'value'>[];

const emailValue = (rows: SavedRows, name: string) =>
  rows.find((row) => row.category === 'email' && row.name === name)?.value?.trim();

/** Whether saving `rows` sends a test mail: the mail service on and 测试邮箱 filled (docs/api.md §3). */
const sendsTestMail = (rows: SavedRows) => emailValue(rows, 'enable') === 'true' && !!emailValue(rows, 'test_email');

/**
 * Saving 邮箱配置 sends a test mail once the values are stored (docs/api.md §3): its failure, a 503
 * of code 14 saying why, leaves them saved. Another 503 of code 14 (the storage full) saved nothing.
 */
export const testMailFailed = (failure: ApiFailure, rows: SavedRows) =>
  failure.status === 503 && failure.data.code === 14 && sendsTestMail(rows);

/**
 * What saving 邮箱配置 did about its test mail, said with 保存成功: the server sends one when the
 * mail service is on and 测试邮箱 is filled (docs/api.md §3); undefined without a test address.
 */
export function testMailNote(rows: SavedRows): string | undefined {
  const to = emailValue(rows, 'test_email');
  if (!to) return undefined;
  return sendsTestMail(rows) ? `测试邮件已发送至 ${to}，请查收` : '邮件服务未启用，未发送测试邮件';
}

/** Each row as listed (id, name, category) with its edited value. */
export async function saveConfig(
  rows: readonly Pick<Config, 'id' | 'name' | 'category' | 'value'>[],
  context: WriteContext,
) {
  const stale = [configKeys.all, settingsKeys.all];
  const result = await invalidateAfter(api.put<Empty>('/api/v1/config', { config: rows }), context, stale);
  if (!result.ok && testMailFailed(result, rows))
    await Promise.all(stale.map((queryKey) => context.client.invalidateQueries({ queryKey })));
  return result;
}

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
