import { message } from '../wire';
import { Document } from './document';

// DocumentAPI.SearchDocument's messages. A hit is a Document plus five fields of ours
// (docs/api.md): `title_highlight` and `snippet`, HTML with the matches in <em>…</em>,
// `snippet_page`, the page the snippet comes from, `match_page`, a page past the free preview
// that matches when no free page does, and `match_words`, the query's words found there.

export const SearchDocumentRequest = message('SearchDocumentRequest', {
  page: 'int32',
  size: 'int32',
  wd: 'string',
  category_id: 'int64[]',
  sort: 'string',
  ext: 'string',
  user_id: 'int64',
  created_at: 'string[]',
  language: 'string[]',
});

export const SearchHitDocument = message('Document', {
  ...Document.fields,
  title_highlight: 'string',
  snippet: 'string',
  snippet_page: 'int32',
  match_page: 'int32',
  match_words: 'string[]',
});

export const SearchDocumentReply = message('SearchDocumentReply', {
  total: 'int64',
  spend: 'string',
  document: [SearchHitDocument],
});
