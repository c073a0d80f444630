// GroupAPI (docs/moredoc.md, GroupAPI): the roles of the admin back office. A change of
// a role marks every role query stale (admin list, pickers, grants); a change of its grants,
// that role's grants.
import { queryOptions } from '@tanstack/react-query';
import type { Empty } from '../../../../shared/types/common';
import type {
  Group,
  GroupPermissions,
  ListGroupReply,
  UpdateGroupPermissionRequest,
} from '../../../../shared/types/group';
import { api, unwrap } from '../../api/client';
import { invalidateAfter, resourceWrites, type WriteContext } from '../../api/query-client';

export const groupKeys = {
  all: ['group'] as const,
  options: ['group', 'all'] as const,
  admin: ['group', 'admin'] as const,
  permissions: (id: number) => ['group', 'permission', id] as const,
};

/** size 0 lists every group. */
export const listGroups = (query: { page?: number; size?: number; wd?: string }) =>
  api.get<ListGroupReply>('/api/v1/group/list', query);

/** Every group, for the group pickers of the user screens. */
export const allGroupsQuery = () =>
  queryOptions({
    queryKey: groupKeys.options,
    queryFn: async () => unwrap(await listGroups({ page: 1, size: 0 })).group ?? [],
  });

export const groupPermissionsQuery = (id: number) =>
  queryOptions({
    queryKey: groupKeys.permissions(id),
    queryFn: async () =>
      unwrap(await api.get<GroupPermissions>('/api/v1/group/permission', { id })).permission_id ?? [],
    staleTime: 0,
  });

/** Create, update (every column: send the whole group) and delete. */
export const groupWrites = resourceWrites<Group, Group>('/api/v1/group', [groupKeys.all]);

/** Replaces the group's grants. */
export const setGroupPermissions = (request: UpdateGroupPermissionRequest, context: WriteContext) =>
  invalidateAfter(api.put<Empty>('/api/v1/group/permission', request), context, [
    groupKeys.permissions(request.group_id),
  ]);
