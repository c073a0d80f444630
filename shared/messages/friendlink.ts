import { message } from '../wire';

// FriendlinkAPI's messages.

export const Friendlink = message('Friendlink', {
  id: 'int32',
  title: 'string',
  link: 'string',
  description: 'string',
  sort: 'int32',
  enable: 'bool',
  created_at: 'time',
  updated_at: 'time',
});

export const ListFriendlinkRequest = message('ListFriendlinkRequest', {
  page: 'int32',
  size: 'int32',
  wd: 'string',
  enable: 'bool[]',
  field: 'string[]',
});
export const ListFriendlinkReply = message('ListFriendlinkReply', { friendlink: [Friendlink], total: 'int64' });
