// MessageAPI (ours, docs/api.md §15): the member's 消息 centre.

/** What a message is about. */
export const MessageType = {
  DocumentApproved: 1,
  DocumentRejected: 2,
  DocumentFailed: 3,
  CommentReply: 4,
} as const;
export type MessageType = (typeof MessageType)[keyof typeof MessageType];

export interface Message {
  id?: number;
  type?: MessageType;
  title?: string;
  content?: string;
  /** 0 a document, 1 an article (TargetType). */
  target_type?: number;
  target_id?: number;
  /** An article's identifier, for its link. */
  target_key?: string;
  /** Absent while unread. */
  read_at?: string;
  created_at?: string;
}

export interface ListMessageRequest {
  page?: number;
  size?: number;
  /** Only the unread ones. */
  unread?: boolean;
}

export interface ListMessageReply {
  total?: number;
  /** All the member's unread messages, whatever the page. */
  unread?: number;
  message?: Message[];
}

export interface UnreadMessages {
  count?: number;
}

/** `PUT /api/v1/message/read`: these ids, or every message when none is given. */
export interface ReadMessageRequest {
  id?: number[];
}
