// Wire types of group (docs/moredoc.md §12; conventions in ./common.ts).

import type { Wire } from '../wire';
import type * as commonMessages from '../messages/common';
import type * as groupMessages from '../messages/group';

/**
 * `sort`: Higher first.
 */
export type Group = Wire<typeof groupMessages.Group>;

export type GroupPermissions = Wire<typeof groupMessages.GroupPermissions>;

export type ListGroupReply = Wire<typeof groupMessages.ListGroupReply>;

export type GetGroupRequest = Wire<typeof groupMessages.GetGroupRequest>;

export type DeleteGroupRequest = Wire<ReturnType<typeof commonMessages.IdsRequest>>;

export type ListGroupRequest = Wire<typeof groupMessages.ListGroupRequest>;

export type GetGroupPermissionRequest = Wire<ReturnType<typeof commonMessages.IdRequest>>;

/** `permission_id`: replaces the group's grants. */
// The SPA always names the group it changes (its cache key is the group's).
export type UpdateGroupPermissionRequest = Wire<typeof groupMessages.UpdateGroupPermissionRequest> & {
  group_id: number;
};
