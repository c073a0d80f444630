// PermissionAPI (docs/moredoc.md, PermissionAPI; §11). Renaming a
// permission marks every permission query stale (the admin list, the roles' grant tree).
import { queryOptions } from '@tanstack/react-query';
import type { Empty } from '../../../../shared/types/common';
import type { ListPermissionReply, Permission } from '../../../../shared/types/permission';
import { api, unwrap } from '../../api/client';
import { invalidateAfter, type WriteContext } from '../../api/query-client';

export const permissionKeys = {
  all: ['permission'] as const,
  every: ['permission', 'all'] as const,
  admin: ['permission', 'admin'] as const,
};

/** Without page and size the backend lists every row, ordered by path. */
export const listPermissions = (query: { wd?: string; method?: readonly string[]; path?: string } = {}) =>
  api.get<ListPermissionReply>('/api/v1/permission/list', query);

/** Every permission row (the grant tree of the role screen). */
export const allPermissionsQuery = () =>
  queryOptions({
    queryKey: permissionKeys.every,
    queryFn: async () => unwrap(await listPermissions()).permission ?? [],
  });

/** Only `title` and `description` are written. */
export const updatePermission = (permission: Pick<Permission, 'id' | 'title' | 'description'>, context: WriteContext) =>
  invalidateAfter(api.put<Empty>('/api/v1/permission', permission), context, [permissionKeys.all]);
