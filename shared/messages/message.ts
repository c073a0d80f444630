import { message } from '../wire';

// MessageAPI's messages (ours, docs/api.md §15).

export const Message = message('Message', {
  id: 'int64',
  type: 'int32',
  title: 'string',
  content: 'string',
  target_type: 'int32',
  target_id: 'int64',
  target_key: 'string',
  comment_id: 'int64',
  read_at: 'time',
  created_at: 'time',
});
export const ListMessageRequest = message('ListMessageRequest', { page: 'int64', size: 'int64', unread: 'bool' });
export const ListMessageReply = message('ListMessageReply', { total: 'int64', unread: 'int64', message: [Message] });
export const UnreadMessages = message('UnreadMessages', { count: 'int64' });
export const ReadMessageRequest = message('ReadMessageRequest', { id: 'int64[]' });
