import { message } from '../wire';

// PermissionAPI's messages; `Permission` is also encoded in UserAPI's GetUserPermissions.

export const Permission = message('Permission', {
  id: 'int64',
  method: 'string',
  path: 'string',
  title: 'string',
  description: 'string',
  created_at: 'time',
  updated_at: 'time',
});

export const ListPermissionRequest = message('ListPermissionRequest', {
  page: 'int64',
  size: 'int64',
  wd: 'string',
  method: 'string[]',
  path: 'string',
});
export const ListPermissionReply = message('ListPermissionReply', { total: 'int64', permission: [Permission] });
