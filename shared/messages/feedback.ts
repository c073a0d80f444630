import { message } from '../wire';

// FeedbackAPI's messages (ours, docs/api.md).

export const Feedback = message('Feedback', {
  id: 'int64',
  user_id: 'int64',
  username: 'string',
  content: 'string',
  contact: 'string',
  image: 'string',
  page: 'string',
  status: 'int32',
  reply: 'string',
  ip: 'string',
  handled_at: 'time',
  created_at: 'time',
  updated_at: 'time',
});

export const CreateFeedbackRequest = message('CreateFeedbackRequest', {
  content: 'string',
  contact: 'string',
  image: 'string',
  page: 'string',
  captcha_id: 'string',
  captcha: 'string',
});
export const UpdateFeedbackRequest = message('UpdateFeedbackRequest', {
  id: 'int64',
  status: 'int32',
  reply: 'string',
});
export const ListFeedbackRequest = message('ListFeedbackRequest', {
  page: 'int64',
  size: 'int64',
  wd: 'string',
  field: 'string[]',
  status: 'int32[]',
});
export const ListFeedbackReply = message('ListFeedbackReply', { total: 'int64', feedback: [Feedback] });
