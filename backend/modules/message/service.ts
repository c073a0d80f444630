import { TargetType } from '../../../shared/constants';
import { SHORT_DATE_FORMAT, formatDate } from '../../../shared/format';
import { MessageType } from '../../../shared/types/message';
import { formatFen } from '../../../shared/vip';
import type { Database } from '../../db';
import { existingUserIds } from '../user/service';
import { insertMessages, type NewMessage } from './store';

// What other modules tell members through the 消息 centre, each message worded here once:
// the document module when a document is reviewed or fails to convert, the comment module
// when a comment is reviewed or answered, the order module when an admin confirms or refunds an order.
// Written in the caller's transaction, after the change it reports: a change refused as
// already made tells nobody twice.

interface DocumentRef {
  id: number;
  title: string;
  user_id: number;
}

/**
 * An approved document with pages is public at once; one without waits for its conversion, and
 * one whose conversion failed in review (`convert_error`) is converted again, which may fail again.
 * A rejection says the reviewer's reason, when given, last (it may end in any punctuation).
 */
export function documentReviewed(
  doc: DocumentRef & { pages: number; convert_error?: string },
  approved: boolean,
  reason = '',
): NewMessage {
  return approved
    ? {
        user_id: doc.user_id,
        type: MessageType.DocumentApproved,
        title: '文档审核通过',
        content: `您上传的文档《${doc.title}》已通过审核，${approvedWhen(doc)}所有人都可以阅读。`,
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

function approvedWhen(doc: { pages: number; convert_error?: string }): string {
  if (doc.pages > 0) return '现在';
  return doc.convert_error ? '此前转换失败，现将重新转换，转换成功后' : '转换完成后';
}

/** `again`: the document had failed before, and this conversion was its new try. */
export function documentFailed(doc: DocumentRef, reason: string, again = false): NewMessage {
  return {
    user_id: doc.user_id,
    type: MessageType.DocumentFailed,
    title: '文档转换失败',
    content: `您上传的文档《${doc.title}》${again ? '再次' : ''}转换失败：${reason}`,
    target_type: TargetType.Document,
    target_id: doc.id,
  };
}

/** A comment's target: a document or an article (its identifier in `key`). */
interface CommentTargetRef {
  type: number;
  id: number;
  key: string;
  title: string;
}

/** A comment's start, as a message quotes it. */
function excerptOf(text: string): string {
  const chars = [...text];
  return chars.length > 60 ? `${chars.slice(0, 60).join('')}…` : text;
}

const targetName = (target: CommentTargetRef) =>
  `${target.type === TargetType.Article ? '文章' : '文档'}《${target.title}》`;

/** `to` answered by `by` on `target` with `reply` (`text`: its start); the message leads to the reply. */
export function commentAnswered(
  to: number,
  by: string,
  target: CommentTargetRef,
  reply: { id: number },
  text: string,
): NewMessage {
  return {
    user_id: to,
    type: MessageType.CommentReply,
    title: '评论有了新回复',
    content: `${by} 在${targetName(target)}中回复了您：${excerptOf(text)}`,
    target_type: target.type,
    target_id: target.id,
    target_key: target.key,
    comment_id: reply.id,
  };
}

/** An admin approved or rejected `comment` (a reply too) of its author on `target`, with its start; leads to it. */
export function commentReviewed(
  comment: { id: number; user_id: number; content: string },
  target: CommentTargetRef,
  approved: boolean,
): NewMessage {
  const about = { target_type: target.type, target_id: target.id, target_key: target.key, comment_id: comment.id };
  return approved
    ? {
        user_id: comment.user_id,
        type: MessageType.CommentApproved,
        title: '评论审核通过',
        content: `您在${targetName(target)}中的评论已通过审核，现在所有人都可以看到：${excerptOf(comment.content)}`,
        ...about,
      }
    : {
        user_id: comment.user_id,
        type: MessageType.CommentRejected,
        title: '评论审核未通过',
        content: `您在${targetName(target)}中的评论未通过审核，只有您自己看得到：${excerptOf(comment.content)}`,
        ...about,
      };
}

interface OrderRef {
  buyer_id: number;
  order_no: string;
  plan_title: string;
  amount: number;
  paid_amount: number;
}

const orderName = (order: OrderRef) => `您的订单 ${order.order_no}（${order.plan_title}）`;

/** An admin confirmed the order's payment; `vipEndAt` is the buyer's period's end with the plan's days added. */
export function orderConfirmed(order: OrderRef, vipEndAt: string): NewMessage {
  return {
    user_id: order.buyer_id,
    type: MessageType.OrderConfirmed,
    title: '会员已开通',
    content: `${orderName(order)}已确认收款，VIP 会员有效期至 ${formatDate(vipEndAt, SHORT_DATE_FORMAT)}。`,
  };
}

/**
 * An admin refunded the order: the amount, and what the refund took back of the VIP period
 * (`withdrawn`: the days, the period's end afterwards and whether it still runs), or nothing
 * for a payment that arrived after the order closed and never granted days.
 */
export function orderRefunded(
  order: OrderRef,
  withdrawn: { days: number; endAt: string; running: boolean } | null,
): NewMessage {
  const amount = formatFen(order.paid_amount || order.amount);
  let period = '这笔付款没有开通 VIP 会员，会员期限不变。';
  if (withdrawn) {
    const taken = withdrawn.days > 0 ? `收回 VIP 会员 ${withdrawn.days} 天，` : '没有可收回的 VIP 会员天数，';
    const end = withdrawn.running ? `会员有效期至 ${formatDate(withdrawn.endAt, SHORT_DATE_FORMAT)}` : 'VIP 会员已结束';
    period = `${taken}${end}。`;
  }
  return {
    user_id: order.buyer_id,
    type: MessageType.OrderRefunded,
    title: '订单已退款',
    content: `${orderName(order)}已退款 ${amount} 元，${period}`,
  };
}

/**
 * An admin granted `days` of VIP (开通或延长会员); `extended`: a period was running, now ending at
 * `until`. The admin's reason is not said, as for orders: it is the admins' note.
 */
export function vipGranted(userId: number, days: number, until: string, extended: boolean): NewMessage {
  return {
    user_id: userId,
    type: MessageType.VipGranted,
    title: extended ? '会员已延长' : '会员已开通',
    content: `管理员为您${extended ? '延长' : '开通'}了 VIP 会员 ${days} 天，会员有效期至 ${formatDate(until, SHORT_DATE_FORMAT)}。`,
  };
}

/** An admin ended the member's running VIP period (取消会员). */
export function vipRevoked(userId: number): NewMessage {
  return {
    user_id: userId,
    type: MessageType.VipRevoked,
    title: '会员已取消',
    content: '管理员取消了您的 VIP 会员，会员权益已结束。如有疑问，请联系网站管理员。',
  };
}

/** Writes the messages (none for user 0, a guest, nor for an account deleted meanwhile: orders outlive their buyer). */
export async function tell(db: Database, messages: readonly NewMessage[]): Promise<void> {
  const wanted = messages.filter((m) => m.user_id > 0);
  const existing = new Set(await existingUserIds(db, [...new Set(wanted.map((m) => m.user_id))]));
  await insertMessages(
    db,
    wanted.filter((m) => existing.has(m.user_id)),
  );
}
