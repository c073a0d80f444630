import { message } from '../wire';
import { User } from './user';

// CommentAPI's messages (docs/moredoc.md §12, fields in .proto order).

export const Comment = message('Comment', {
  created_at: 'time',
  updated_at: 'time',
  id: 'int64',
  parent_id: 'int64',
  content: 'string',
  document_id: 'int64',
  status: 'int32',
  comment_count: 'int32',
  user_id: 'int64',
  user: User,
  document_title: 'string',
  type: 'int32',
  document_uuid: 'string',
});

export const CreateCommentRequest = message('CreateCommentRequest', {
  document_id: 'int64',
  parent_id: 'int64',
  content: 'string',
  captcha_id: 'string',
  captcha: 'string',
  type: 'int32',
});
export const ListCommentRequest = message('ListCommentRequest', {
  page: 'int64',
  size: 'int64',
  wd: 'string',
  field: 'string[]',
  order: 'string',
  status: 'int32[]',
  document_id: 'int64',
  user_id: 'int64',
  parent_id: 'int64[]',
  with_document_title: 'bool',
  type: 'int32[]',
});
export const ListCommentReply = message('ListCommentReply', { total: 'int64', comment: [Comment] });
export const CheckCommentRequest = message('CheckCommentRequest', { id: 'int64[]', status: 'int32' });
