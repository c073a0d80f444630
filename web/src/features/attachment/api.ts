// AttachmentAPI (docs/moredoc.md): every stored file, for the admin. Deleting removes
// the file once nothing else stores the same content.
import type { Attachment, ListAttachmentReply, ListAttachmentRequest } from '../../../../shared/types/attachment';
import { api } from '../../api/client';
import { resourceWrites } from '../../api/query-client';

export const attachmentKeys = { all: ['attachment'] as const, admin: ['attachment', 'admin'] as const };

export const listAttachments = (request: ListAttachmentRequest) =>
  api.get<ListAttachmentReply>('/api/v1/attachment/list', { ...request });

/** Update writes `name`, `enable` and `description` only; delete removes the rows. */
export const attachmentWrites = resourceWrites<Attachment>('/api/v1/attachment', [attachmentKeys.all]);
