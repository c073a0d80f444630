// Wire types of attachment (docs/moredoc.md §12; conventions in ./common.ts).

import type { PageRequest } from './common';

export interface Attachment {
  id?: number;
  /** MD5 hex of the content. */
  hash?: string;
  user_id?: number;
  type_id?: number;
  /** Resource type, see constants `resourceTypeOptions`. */
  type?: number;
  enable?: boolean;
  path?: string;
  name?: string;
  size?: number;
  width?: number;
  height?: number;
  ext?: string;
  ip?: string;
  username?: string;
  type_name?: string;
  description?: string;
  created_at?: string;
  updated_at?: string;
}

export interface ListAttachmentReply { total?: number; attachment?: Attachment[] }

/** `POST /api/v1/upload/avatar|config|banner|category` (contract README §8.2). */
export interface UploadImageReply {
  code?: number;
  message?: string;
  data?: Attachment;
}

export interface GetAttachmentRequest { id: number }

export interface DeleteAttachmentRequest { id: number[] }

export interface ListAttachmentRequest extends Omit<PageRequest, 'field'> {
  enable?: boolean[];
  user_id?: number[];
  type?: number[];
  ext?: string;
}

/** `GET /api/v1/document/formats` (ours): the extensions the document upload takes now, with their dot. */
export interface DocumentFormats {
  ext?: string[];
}
