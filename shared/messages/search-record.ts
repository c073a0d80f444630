import { message } from '../wire';

// SearchRecordAPI's messages.

export const SearchRecord = message('SearchRecord', {
  id: 'int64',
  user_id: 'int64',
  ip: 'string',
  total: 'int32',
  page: 'int32',
  user_agent: 'string',
  keywords: 'string',
  created_at: 'time',
  updated_at: 'time',
  spend_time: 'float',
  username: 'string',
});

export const ListSearchRecordRequest = message('ListSearchRecordRequest', {
  page: 'int32',
  size: 'int32',
  keywords: 'string',
  field: 'string[]',
  order: 'string',
  user_id: 'int64[]',
  ip: 'string',
});
export const ListSearchRecordReply = message('ListSearchRecordReply', {
  total: 'int64',
  search_record: [SearchRecord],
});
