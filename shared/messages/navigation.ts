import { message } from '../wire';

// NavigationAPI's messages.

export const Navigation = message('Navigation', {
  id: 'int64',
  title: 'string',
  href: 'string',
  target: 'string',
  color: 'string',
  sort: 'int32',
  enable: 'bool',
  parent_id: 'int64',
  description: 'string',
  created_at: 'time',
  updated_at: 'time',
  fixed: 'bool',
});

export const ListNavigationRequest = message('ListNavigationRequest', {
  page: 'int64',
  size: 'int64',
  wd: 'string',
  field: 'string[]',
  order: 'string',
});
export const ListNavigationReply = message('ListNavigationReply', { total: 'int64', navigation: [Navigation] });
