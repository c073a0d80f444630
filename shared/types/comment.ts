// Wire types of comment (docs/moredoc.md §12; conventions in ./common.ts).

import type { Wire } from '../wire';
import type * as commentMessages from '../messages/comment';
import type * as commonMessages from '../messages/common';

/**
 * `parent_id`: 0 (or absent) = top level; else the comment this one replies to.
 * `content`: Plain text (never HTML).
 * `document_id`: The document id (type 0) or the article id (type 1).
 * `status`: 0 pending, 1 approved, 2 rejected.
 * `comment_count`: Approved replies.
 * `type`: 0 document comment, 1 article comment.
 * `document_uuid`: The document's uuid or the article's identifier.
 */
export type Comment = Wire<typeof commentMessages.Comment>;

export type ListCommentReply = Wire<typeof commentMessages.ListCommentReply>;

/**
 * `type`: 0 document, 1 article.
 */
export type CreateCommentRequest = Wire<typeof commentMessages.CreateCommentRequest>;

export type ListCommentRequest = Wire<typeof commentMessages.ListCommentRequest>;

export type GetCommentRequest = Wire<ReturnType<typeof commonMessages.IdRequest>>;

export type DeleteCommentRequest = Wire<ReturnType<typeof commonMessages.IdsRequest>>;

export type CheckCommentRequest = Wire<typeof commentMessages.CheckCommentRequest>;
