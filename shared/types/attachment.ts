// Wire types of attachment (docs/moredoc.md §12; conventions in ./common.ts).

import type { Wire } from '../wire';
import type * as attachmentMessages from '../messages/attachment';
import type * as commonMessages from '../messages/common';

/**
 * `hash`: MD5 hex of the content.
 * `type`: Resource type, see constants `resourceTypeOptions`.
 */
export type Attachment = Wire<typeof attachmentMessages.Attachment>;

export type ListAttachmentReply = Wire<typeof attachmentMessages.ListAttachmentReply>;

/** `POST /api/v1/upload/avatar|config|banner|category` (docs/moredoc.md §8). */
export interface UploadImageReply {
  code?: number;
  message?: string;
  data?: Attachment;
}

export type GetAttachmentRequest = Wire<ReturnType<typeof commonMessages.IdRequest>>;

export type DeleteAttachmentRequest = Wire<ReturnType<typeof commonMessages.IdsRequest>>;

export type ListAttachmentRequest = Wire<typeof attachmentMessages.ListAttachmentRequest>;

/** `GET /api/v1/document/formats` (ours): the extensions the document upload takes now, with their dot. */
export type DocumentFormats = Wire<typeof attachmentMessages.DocumentFormats>;
