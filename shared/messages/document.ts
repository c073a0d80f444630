import { message } from '../wire';
import { Attachment } from './attachment';
import { Category } from './category';
import { User } from './user';

// DocumentAPI's and RecycleAPI's messages (docs/moredoc.md §12, fields in .proto
// declaration order). `convert_progress`, `readable_pages` and SetDocumentReconvertRequest are ours (docs/api.md).

/**
 * What a download or favourite row shows of its document: fields that MOREDOC's Download and
 * Favorite both carry (spread into them; no RPC answers this message alone).
 */
export const ListedDocument = message('ListedDocument', {
  title: 'string',
  ext: 'string',
  score: 'int32',
  size: 'int64',
  pages: 'int32',
  document_uuid: 'string',
});

/** Pages converted so far of the document's total, while its conversion runs (ours). */
export const ConvertProgress = message('ConvertProgress', { done: 'int32', total: 'int32' });

export const Document = message('Document', {
  id: 'int64',
  title: 'string',
  keywords: 'string',
  description: 'string',
  user_id: 'int64',
  cover: 'string',
  width: 'int32',
  height: 'int32',
  preview: 'int32',
  pages: 'int32',
  uuid: 'string',
  download_count: 'int32',
  view_count: 'int32',
  favorite_count: 'int32',
  comment_count: 'int32',
  score: 'int32',
  score_count: 'int32',
  price: 'int32',
  size: 'int64',
  status: 'int32',
  created_at: 'time',
  updated_at: 'time',
  deleted_at: 'time',
  recommend_at: 'time',
  deleted_user_id: 'int64',
  username: 'string',
  category_id: 'int64[]',
  deleted_username: 'string',
  ext: 'string',
  attachment: Attachment,
  user: User,
  enable_gzip: 'bool',
  convert_error: 'string',
  preview_ext: 'string',
  language: 'string',
  content: 'string',
  category: [Category],
  convert_progress: ConvertProgress,
  readable_pages: 'int32',
});

export const DocumentScore = message('DocumentScore', {
  id: 'int64',
  document_id: 'int64',
  user_id: 'int64',
  score: 'int32',
  created_at: 'time',
  updated_at: 'time',
});

export const ListDocumentRequest = message('ListDocumentRequest', {
  page: 'int64',
  size: 'int64',
  wd: 'string',
  field: 'string[]',
  order: 'string',
  category_id: 'int64[]',
  user_id: 'int64[]',
  status: 'int32[]',
  is_recommend: 'bool[]',
  limit: 'int64',
  ext: 'string',
  created_at: 'string[]',
  fee_type: 'string',
  language: 'string[]',
});
export const ListDocumentReply = message('ListDocumentReply', { total: 'int64', document: [Document] });

export const ListDocumentForHomeRequest = message('ListDocumentForHomeRequest', { limit: 'int64', field: 'string[]' });
export const ListDocumentForHomeItem = message('ListDocumentForHomeItem', {
  category_id: 'int64',
  category_cover: 'string',
  category_name: 'string',
  document: [Document],
});
export const ListDocumentForHomeResponse = message('ListDocumentForHomeResponse', {
  document: [ListDocumentForHomeItem],
});

export const CreateDocumentItem = message('CreateDocumentItem', {
  title: 'string',
  attachment_id: 'int64',
  price: 'int32',
  language: 'string',
  keywords: 'string',
  description: 'string',
});
export const CreateDocumentRequest = message('CreateDocumentRequest', {
  overwrite: 'bool',
  category_id: 'int64[]',
  document: [CreateDocumentItem],
});

export const GetDocumentRequest = message('GetDocumentRequest', {
  id: 'int64',
  with_author: 'bool',
  uuid: 'string',
  with_all_content: 'bool',
});
export const DeleteDocumentRequest = message('DeleteDocumentRequest', { id: 'int64[]' });
/** `reason` is ours: why a rejection (status 7), told to the uploaders in their 消息 centre. */
export const CheckDocumentRequest = message('CheckDocumentRequest', {
  id: 'int64[]',
  status: 'int32',
  reason: 'string',
});
export const SetDocumentRecommendRequest = message('SetDocumentRecommendRequest', { id: 'int64[]', type: 'int32' });
export const SetDocumentsCategoryRequest = message('SetDocumentsCategoryRequest', {
  document_id: 'int64[]',
  category_id: 'int64[]',
});
export const SetDocumentsLanguageRequest = message('SetDocumentsLanguageRequest', {
  document_id: 'int64[]',
  language: 'string',
});
/** Ours: MOREDOC's request is Empty; with ids, only those documents are converted again. */
export const SetDocumentReconvertRequest = message('SetDocumentReconvertRequest', { id: 'int64[]' });
export const RecoverRecycleDocumentRequest = message('RecoverRecycleDocumentRequest', { id: 'int64[]' });

/** Ours: find words in one document (the reader's search box). */
export const FindInDocumentRequest = message('FindInDocumentRequest', { id: 'int64', wd: 'string' });
/** A line holding the words: its page, its text, where the words are in it (UTF-16 units). */
export const FoundLine = message('FoundLine', { page: 'int32', text: 'string', start: 'int32', length: 'int32' });
/** `readable`: the pages searched (those the caller may read); `total`: all the hits, of which the first `hit`. */
export const FindInDocumentReply = message('FindInDocumentReply', {
  hit: [FoundLine],
  total: 'int32',
  readable: 'int32',
});

/** Ours: where a member last read a document (the page), and when. */
export const ReadingPosition = message('ReadingPosition', { document_id: 'int64', page: 'int32', updated_at: 'time' });

/** Ours: 猜你喜欢, at most `limit` documents for the signed-in member (ListDocumentReply answers it). */
export const ListDocumentsForYouRequest = message('ListDocumentsForYouRequest', { limit: 'int64' });
/** Ours: a page of the 热门文档 ranking (ListDocumentReply answers it). */
export const ListHotDocumentsRequest = message('ListHotDocumentsRequest', { page: 'int64', size: 'int64' });

/** Ours: a document of a member's reading history (最近阅读): the page they read last, and when. */
export const ReadingRecord = message('ReadingRecord', {
  document_id: 'int64',
  title: 'string',
  ext: 'string',
  pages: 'int32',
  page: 'int32',
  updated_at: 'time',
  category_id: 'int64[]',
});
export const ListReadingHistoryRequest = message('ListReadingHistoryRequest', { page: 'int64', size: 'int64' });
export const ListReadingHistoryReply = message('ListReadingHistoryReply', { total: 'int64', reading: [ReadingRecord] });
/** Ours: the documents to forget in the reading history. */
export const DeleteReadingHistoryRequest = message('DeleteReadingHistoryRequest', { document_id: 'int64[]' });

/** Ours: the publishing reward the signed-in member can still earn today (0 when publishing pays nothing). */
export const UploadRewardLeft = message('UploadRewardLeft', { left: 'int32' });
