import { message } from '../wire';

// BannerAPI's messages.

export const Banner = message('Banner', {
  id: 'int64',
  title: 'string',
  path: 'string',
  sort: 'int32',
  enable: 'bool',
  type: 'int32',
  url: 'string',
  description: 'string',
  created_at: 'time',
  updated_at: 'time',
});

export const ListBannerRequest = message('ListBannerRequest', {
  page: 'int64',
  size: 'int64',
  type: 'int32[]',
  enable: 'bool[]',
  wd: 'string',
  field: 'string[]',
});
export const ListBannerReply = message('ListBannerReply', { total: 'int64', banner: [Banner] });
