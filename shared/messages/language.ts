import { message } from '../wire';

// LanguageAPI's messages; `Language` is also encoded in ConfigAPI's GetSettings.

export const Language = message('Language', {
  id: 'int64',
  language: 'string',
  enable: 'bool',
  code: 'string',
  total: 'int32',
  sort: 'int32',
  created_at: 'time',
  updated_at: 'time',
});

export const UpdateLanguageStatusRequest = message('UpdateLanguageStatusRequest', { id: 'int64[]', enable: 'bool' });
export const ListLanguageRequest = message('ListLanguageRequest', {
  wd: 'string',
  enable: 'bool[]',
  field: 'string[]',
  page: 'int32',
  size: 'int32',
});
export const ListLanguageReply = message('ListLanguageReply', { total: 'int64', language: [Language] });
