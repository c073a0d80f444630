import { TargetType } from '../../../shared/constants';
import { MessageType } from '../../../shared/types/message';
import type { Database } from '../../db';
import { insertMessages, type NewMessage } from './store';

// What other modules tell members through the 消息 centre, each message worded here once:
// the document module when a document is reviewed or fails to convert, the comment module
// when a comment is answered. Written in the caller's transaction.

interface DocumentRef {
  id: number;
  title: string;
  user_id: number;
}

/**
 * An approved document with pages is public at once; one without waits for its conversion. A
 * rejection says the reviewer's reason, when given, last (it may end in any punctuation).
 */
export function documentReviewed(doc: DocumentRef & { pages: number }, approved: boolean, reason = ''): NewMessage {
  return approved
    ? {
        user_id: doc.user_id,
        type: MessageType.DocumentApproved,
        title: '文档审核通过',
        content: `您上传的文档《${doc.title}》已通过审核，${doc.pages > 0 ? '现在' : '转换完成后'}所有人都可以阅读。`,
        target_type: TargetType.Document,
        target_id: doc.id,
      }
    : {
        user_id: doc.user_id,
        type: MessageType.DocumentRejected,
        title: '文档审核未通过',
        content: `您上传的文档《${doc.title}》未通过审核，可在“我的文档”中查看。${reason ? `原因：${reason}` : ''}`,
        target_type: TargetType.Document,
        target_id: doc.id,
      };
}

export function documentFailed(doc: DocumentRef, reason: string): NewMessage {
  return {
    user_id: doc.user_id,
    type: MessageType.DocumentFailed,
    title: '文档转换失败',
    content: `您上传的文档《${doc.title}》转换失败：${reason}`,
    target_type: TargetType.Document,
    target_id: doc.id,
  };
}

/** `to` answered by `by` on the document or article `target` (its identifier in `key`), with the reply's start. */
export function commentAnswered(
  to: number,
  by: string,
  target: { type: number; id: number; key: string; title: string },
  reply: string,
): NewMessage {
  const chars = [...reply];
  const excerpt = chars.length > 60 ? `${chars.slice(0, 60).join('')}…` : reply;
  return {
    user_id: to,
    type: MessageType.CommentReply,
    title: '评论有了新回复',
    content: `${by} 在${target.type === TargetType.Article ? '文章' : '文档'}《${target.title}》中回复了您：${excerpt}`,
    target_type: target.type,
    target_id: target.id,
    target_key: target.key,
  };
}

/** Writes the messages (none for user 0, a guest). */
export async function tell(db: Database, messages: readonly NewMessage[]): Promise<void> {
  await insertMessages(
    db,
    messages.filter((m) => m.user_id > 0),
  );
}
