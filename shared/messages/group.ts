import { message } from '../wire';

// GroupAPI's messages; `Group` is also encoded in UserAPI's ListUserGroup.

export const Group = message('Group', {
  id: 'int64',
  title: 'string',
  color: 'string',
  is_default: 'bool',
  is_display: 'bool',
  description: 'string',
  user_count: 'int32',
  sort: 'int32',
  enable_upload: 'bool',
  enable_comment_approval: 'bool',
  created_at: 'time',
  updated_at: 'time',
  enable_comment: 'bool',
  enable_document_review: 'bool',
  enable_article: 'bool',
  enable_article_approval: 'bool',
});

export const GetGroupRequest = message('GetGroupRequest', { id: 'int64', title: 'string' });
export const ListGroupRequest = message('ListGroupRequest', {
  wd: 'string',
  page: 'int64',
  size: 'int64',
  sort: 'string',
  field: 'string[]',
});
export const ListGroupReply = message('ListGroupReply', { group: [Group], total: 'int64' });
export const GroupPermissions = message('GroupPermissions', { permission_id: 'int64[]' });
export const UpdateGroupPermissionRequest = message('UpdateGroupPermissionRequest', {
  group_id: 'int64',
  permission_id: 'int64[]',
});
