// MessageAPI (ours, docs/api.md §15): the member's 消息 centre.

/** What a message is about. */
import type { Wire } from '../wire';
import type * as messageMessages from '../messages/message';

export const MessageType = {
  DocumentApproved: 1,
  DocumentRejected: 2,
  DocumentFailed: 3,
  CommentReply: 4,
  /** An admin confirmed the member's payment (a transfer, mostly): the plan's days are added. */
  OrderConfirmed: 5,
  /** An admin refunded the member's order: the days it still had are taken back. */
  OrderRefunded: 6,
  /** An admin approved the member's comment or reply: everyone sees it now. */
  CommentApproved: 7,
  /** An admin rejected the member's comment or reply: only its author sees it. */
  CommentRejected: 8,
  /** An admin granted or extended the member's VIP period (开通或延长会员): the days and the new end. */
  VipGranted: 9,
  /** An admin ended the member's VIP period (取消会员). */
  VipRevoked: 10,
} as const;
export type MessageType = (typeof MessageType)[keyof typeof MessageType];

/**
 * `target_type`: 0 a document, 1 an article (TargetType); `target_id` 0 for an order's or a VIP period's messages (types 5, 6, 9, 10).
 * `target_key`: An article's identifier, for its link.
 * `comment_id`: The comment a message about one leads to (types 4, 7, 8: the reply, the comment reviewed); absent in
 * the others and in those written before it was kept.
 * `read_at`: Absent while unread.
 */
export type Message = Wire<typeof messageMessages.Message>;

/**
 * `unread`: Only the unread ones.
 */
export type ListMessageRequest = Wire<typeof messageMessages.ListMessageRequest>;

/**
 * `unread`: All the member's unread messages, whatever the page.
 */
export type ListMessageReply = Wire<typeof messageMessages.ListMessageReply>;

export type UnreadMessages = Wire<typeof messageMessages.UnreadMessages>;

/** `PUT /api/v1/message/read`: these ids, or every message when none is given. */
export type ReadMessageRequest = Wire<typeof messageMessages.ReadMessageRequest>;
