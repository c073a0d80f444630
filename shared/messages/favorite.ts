import { message } from '../wire';
import { ListedDocument } from './document';

// FavoriteAPI's messages.

export const Favorite = message('Favorite', {
  id: 'int64',
  user_id: 'int64',
  document_id: 'int64',
  created_at: 'time',
  updated_at: 'time',
  ...ListedDocument.fields,
  type: 'int32',
});

export const GetFavoriteRequest = message('GetFavoriteRequest', { document_id: 'int64', type: 'int32' });
export const ListFavoriteRequest = message('ListFavoriteRequest', { page: 'int64', size: 'int64', type: 'int32' });
export const ListFavoriteReply = message('ListFavoriteReply', { total: 'int64', favorite: [Favorite] });
