import { message } from '../wire';

// CategoryAPI's messages.

export const Category = message('Category', {
  id: 'int64',
  parent_id: 'int64',
  title: 'string',
  doc_count: 'int32',
  sort: 'int32',
  enable: 'bool',
  cover: 'string',
  created_at: 'time',
  updated_at: 'time',
  icon: 'string',
  description: 'string',
  show_description: 'bool',
  type: 'int32',
});

export const ListCategoryRequest = message('ListCategoryRequest', {
  page: 'int64',
  size: 'int64',
  parent_id: 'int64[]',
  wd: 'string',
  enable: 'bool[]',
  field: 'string[]',
  type: 'int32[]',
});
export const ListCategoryReply = message('ListCategoryReply', { total: 'int64', category: [Category] });
