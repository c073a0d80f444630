import { message } from '../wire';

// AdvertisementAPI's messages, fields in .proto order.

export const Advertisement = message('Advertisement', {
  id: 'int64',
  user_id: 'int64',
  position: 'string',
  start_time: 'time',
  end_time: 'time',
  created_at: 'time',
  updated_at: 'time',
  content: 'string',
  enable: 'bool',
  remark: 'string',
  title: 'string',
});

export const ListAdvertisementRequest = message('ListAdvertisementRequest', {
  page: 'int32',
  size: 'int32',
  wd: 'string',
  field: 'string[]',
  order: 'string',
  position: 'string[]',
  enable: 'bool[]',
});
export const GetAdvertisementByPositionRequest = message('GetAdvertisementByPositionRequest', { position: 'string[]' });
export const ListAdvertisementReply = message('ListAdvertisementReply', {
  total: 'int64',
  advertisement: [Advertisement],
});
