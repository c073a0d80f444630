// GroupAPI (contract: endpoints.md, GroupAPI): the roles of the admin back office.
import { queryOptions } from '@tanstack/react-query';
import type { Empty } from '../../../shared/types/common';
import type { Group, GroupPermissions, ListGroupReply, UpdateGroupPermissionRequest } from '../../../shared/types/group';
import { api, unwrap } from './client';

export const groupApi = {
  /** size 0 lists every group. */
  list: (query: { page?: number; size?: number; wd?: string }) => api.get<ListGroupReply>('/api/v1/group/list', query),
  create: (group: Group) => api.post<Group>('/api/v1/group', group),
  /** Full replacement of every column: send the whole group. */
  update: (group: Group) => api.put<Empty>('/api/v1/group', group),
  remove: (ids: readonly number[]) => api.delete<Empty>('/api/v1/group', { id: ids }),
  permissions: (id: number) => api.get<GroupPermissions>('/api/v1/group/permission', { id }),
  /** Replaces the group's grants. */
  setPermissions: (request: UpdateGroupPermissionRequest) => api.put<Empty>('/api/v1/group/permission', request),
};

export const groupKeys = {
  all: ['group'] as const,
  options: ['group', 'all'] as const,
  permissions: (id: number) => ['group', 'permission', id] as const,
};

/** Every group, for the group pickers of the user screens. */
export const allGroupsQuery = () =>
  queryOptions({
    queryKey: groupKeys.options,
    queryFn: async () => unwrap(await groupApi.list({ page: 1, size: 0 })).group ?? [],
  });

export const groupPermissionsQuery = (id: number) =>
  queryOptions({
    queryKey: groupKeys.permissions(id),
    queryFn: async () => unwrap(await groupApi.permissions(id)).permission_id ?? [],
    staleTime: 0,
  });
