// PermissionAPI (contract: endpoints.md, PermissionAPI; permissions.md §4).
import { queryOptions } from '@tanstack/react-query';
import type { Empty } from '../../../shared/types/common';
import type { ListPermissionReply, Permission } from '../../../shared/types/permission';
import { api, unwrap } from './client';

export const permissionApi = {
  /** Without page and size the backend lists every row, ordered by path. */
  list: (query: { wd?: string; method?: readonly string[]; path?: string } = {}) =>
    api.get<ListPermissionReply>('/api/v1/permission/list', query),
  /** Only `title` and `description` are written. */
  update: (permission: Pick<Permission, 'id' | 'title' | 'description'>) => api.put<Empty>('/api/v1/permission', permission),
};

export const permissionKeys = { all: ['permission'] as const, every: ['permission', 'all'] as const };

/** Every permission row (the grant tree of the role screen). */
export const allPermissionsQuery = () =>
  queryOptions({
    queryKey: permissionKeys.every,
    queryFn: async () => unwrap(await permissionApi.list()).permission ?? [],
  });
