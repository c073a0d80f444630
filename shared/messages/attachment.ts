import { message } from '../wire';

// AttachmentAPI's messages; the upload routes answer with an `Attachment`.

export const Attachment = message('Attachment', {
  id: 'int64',
  hash: 'string',
  user_id: 'int64',
  type_id: 'int64',
  type: 'int32',
  enable: 'bool',
  path: 'string',
  name: 'string',
  size: 'int64',
  width: 'int64',
  height: 'int64',
  ext: 'string',
  ip: 'string',
  username: 'string',
  type_name: 'string',
  description: 'string',
  created_at: 'time',
  updated_at: 'time',
});

export const ListAttachmentRequest = message('ListAttachmentRequest', {
  page: 'int64',
  size: 'int64',
  wd: 'string',
  enable: 'bool[]',
  user_id: 'int64[]',
  type: 'int64[]',
  ext: 'string',
});
export const ListAttachmentReply = message('ListAttachmentReply', { total: 'int64', attachment: [Attachment] });

/** Ours: the extensions `POST /api/v1/upload/document` takes now, with their dot. */
export const DocumentFormats = message('DocumentFormats', { ext: 'string[]' });
