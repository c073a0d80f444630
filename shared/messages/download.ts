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
  // Ours (not in MOREDOC's Download): the document's price at the download (credits moved only when
  // is_pay), and why it cost that, a DownloadReason.
  price: 'int32',
  reason: 'string',
});

/**
 * Why a download cost what it did (ours, `Download.reason`): `paid` its price; free because the member `owner`s the
 * document, it is priced 0 (`free`), they `bought` it within download.free_download_duration days, their VIP
 * membership downloads for free (`vip`), or a reviewer downloaded it (`review`). Absent: recorded before this was kept.
 */
export type DownloadReason = 'paid' | 'owner' | 'free' | 'bought' | 'vip' | 'review';

export const ListUserDownloadReply = message('ListUserDownloadReply', { total: 'int64', download: [Download] });
/**
 * DownloadDocument's request: MOREDOC's client sends the id alone. Ours: with `check_price`,
 * `price` is the most the reader agreed to pay (0 for a download they were shown as free), and a
 * download that would cost more is refused (400, code 9) instead of paid: a price raised since
 * the reader's page was loaded is never taken unseen.
 */
export const DownloadDocumentRequest = message('Document', { id: 'int64', price: 'int32', check_price: 'bool' });
export const DownloadDocumentReply = message('DownloadDocumentReply', { url: 'string' });
/** Ours: whether the caller bought the document and downloads it again for nothing. */
export const DocumentPurchase = message('DocumentPurchase', { bought: 'bool' });
