import { message } from './message';

// Entity messages of contract/endpoints.md §4, fields in .proto declaration order (which is
// the key order of our JSON). Request-only messages live next to the service that uses them.

export const User = message('User', {
  login_at: 'time', created_at: 'time', updated_at: 'time',
  id: 'int64', username: 'string', mobile: 'string', email: 'string', address: 'string',
  signature: 'string', last_login_ip: 'string', register_ip: 'string',
  doc_count: 'int32', follow_count: 'int32', fans_count: 'int32', favorite_count: 'int32',
  comment_count: 'int32', status: 'int32', avatar: 'string', identity: 'string', realname: 'string',
  group_id: 'int64[]', credit_count: 'int32', article_count: 'int32', remark: 'string',
});

export const Group = message('Group', {
  id: 'int64', title: 'string', color: 'string', is_default: 'bool', is_display: 'bool',
  description: 'string', user_count: 'int32', sort: 'int32', enable_upload: 'bool',
  enable_comment_approval: 'bool', created_at: 'time', updated_at: 'time', enable_comment: 'bool',
  enable_document_review: 'bool', enable_article: 'bool', enable_article_approval: 'bool',
});

export const Permission = message('Permission', {
  id: 'int64', method: 'string', path: 'string', title: 'string', description: 'string',
  created_at: 'time', updated_at: 'time',
});

export const Config = message('Config', {
  id: 'int64', label: 'string', name: 'string', value: 'string', placeholder: 'string',
  input_type: 'string', category: 'string', sort: 'int32', options: 'string',
  created_at: 'time', updated_at: 'time', col_num: 'int32',
});

export const Navigation = message('Navigation', {
  id: 'int64', title: 'string', href: 'string', target: 'string', color: 'string', sort: 'int32',
  enable: 'bool', parent_id: 'int64', description: 'string', created_at: 'time', updated_at: 'time',
  fixed: 'bool',
});

export const Category = message('Category', {
  id: 'int64', parent_id: 'int64', title: 'string', doc_count: 'int32', sort: 'int32', enable: 'bool',
  cover: 'string', created_at: 'time', updated_at: 'time', icon: 'string', description: 'string',
  show_description: 'bool', type: 'int32',
});

export const Banner = message('Banner', {
  id: 'int64', title: 'string', path: 'string', sort: 'int32', enable: 'bool', type: 'int32',
  url: 'string', description: 'string', created_at: 'time', updated_at: 'time',
});

export const Friendlink = message('Friendlink', {
  id: 'int32', title: 'string', link: 'string', description: 'string', sort: 'int32', enable: 'bool',
  created_at: 'time', updated_at: 'time',
});

export const Attachment = message('Attachment', {
  id: 'int64', hash: 'string', user_id: 'int64', type_id: 'int64', type: 'int32', enable: 'bool',
  path: 'string', name: 'string', size: 'int64', width: 'int64', height: 'int64', ext: 'string',
  ip: 'string', username: 'string', type_name: 'string', description: 'string',
  created_at: 'time', updated_at: 'time',
});

export const Language = message('Language', {
  id: 'int64', language: 'string', enable: 'bool', code: 'string', total: 'int32', sort: 'int32',
  created_at: 'time', updated_at: 'time',
});

export const Punishment = message('Punishment', {
  end_time: 'time', created_at: 'time', updated_at: 'time', id: 'int64', user_id: 'int64',
  type: 'int32', enable: 'bool', operators: 'string', remark: 'string', reason: 'string',
  username: 'string',
});

export const Dynamic = message('Dynamic', {
  id: 'int64', user_id: 'int64', content: 'string', type: 'int32', username: 'string',
  created_at: 'time', updated_at: 'time',
});

export const Sign = message('Sign', {
  id: 'int64', user_id: 'int64', sign_at: 'int32', ip: 'string', created_at: 'time', award: 'int32',
});

export const Download = message('Download', {
  id: 'int64', user_id: 'int64', document_id: 'int64', ip: 'string', is_pay: 'bool',
  created_at: 'time', updated_at: 'time', title: 'string', ext: 'string', score: 'int32',
  size: 'int64', pages: 'int32', document_uuid: 'string',
});

/** Generic `{id: [..]}` request used by the Delete* and Cancel* RPCs. */
export const IdsRequest = (name: string) => message(name, { id: 'int64[]' });
/** Generic `{id}` request used by the Get* RPCs. */
export const IdRequest = (name: string) => message(name, { id: 'int64' });
