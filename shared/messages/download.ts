import { message } from '../wire';
import { ListedDocument } from './document';

// The download messages: a member's download records (UserAPI.ListUserDownload) and the
// signed link of DocumentAPI.DownloadDocument.

export const Download = message('Download', {
  id: 'int64',
  user_id: 'int64',
  document_id: 'int64',
  ip: 'string',
  is_pay: 'bool',
  created_at: 'time',
  updated_at: 'time',
  ...ListedDocument.fields,
  // Ours: the credits a paid download cost (not in MOREDOC's Download).
  price: 'int32',
});

export const ListUserDownloadReply = message('ListUserDownloadReply', { total: 'int64', download: [Download] });
export const DownloadDocumentReply = message('DownloadDocumentReply', { url: 'string' });
/** Ours: whether the caller bought the document and downloads it again for nothing. */
export const DocumentPurchase = message('DocumentPurchase', { bought: 'bool' });
