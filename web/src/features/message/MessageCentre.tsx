// `/member/message`: the member's messages, newest first, ten a page, all or only the unread
// ones; each says what happened and leads to it (the document, the article, 我的文档, 我的订单); 查看 and
// 标为已读 mark one read, 全部标为已读 all of them; 删除 asks first.
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { TargetType } from '../../../../shared/constants';
import { formatDate, SHORT_DATE_FORMAT } from '../../../../shared/format';
import { articlePagePath } from '../../../../shared/page-paths';
import { MessageType, type Message } from '../../../../shared/types/message';
import { unwrap } from '../../api/client';
import { InlineConfirm } from '../../kit/confirm/InlineConfirm';
import { QueryStates } from '../../kit/query-states/QueryStates';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { Pager } from '../../ui/Pager';
import { Panel } from '../../ui/Panel';
import { TabSwitch } from '../../ui/TabSwitch';
import { Button } from '../../ui/semi';
import { useLastPageFallback, usePageParam } from '../../kit/member-list/page-param';
import { useRowFocusKeeper } from '../../kit/member-list/row-focus';
import { EmptyState } from '../../ui/states';
import { commentPath } from '../comment/comment-anchor';
import { documentPathById } from '../document/document-links';
import { deleteMessages, messagesQuery, readMessages } from './api';
import './message.css';

const PAGE_SIZE = 10;

type Show = 'all' | 'unread';
const SHOWN: readonly { key: Show; label: string }[] = [
  { key: 'all', label: '全部消息' },
  { key: 'unread', label: '未读消息' },
];

/** Messages about a comment of the member's: they lead to that comment (or the page's comments), not its top. */
const ABOUT_A_COMMENT: readonly number[] = [
  MessageType.CommentReply,
  MessageType.CommentApproved,
  MessageType.CommentRejected,
];

/**
 * Where a message leads: the member's own documents for a review or a failure, their orders for
 * an order confirmed or refunded, /vip for an admin's grant or revoke, else the page it is about,
 * at the comment for a comment's review and a reply (a rejected comment shows 未通过审核 there to
 * its author): at the comments for a message that names none (written before they were named).
 */
function linkOf(message: Message): { to: string; label: string } | null {
  if (message.type === MessageType.DocumentRejected || message.type === MessageType.DocumentFailed)
    return { to: '/member/document', label: '查看我的文档' };
  if (message.type === MessageType.OrderConfirmed || message.type === MessageType.OrderRefunded)
    return { to: '/member/order', label: '查看我的订单' };
  // An admin's grant or revoke names no order: the member's VIP state, and the plans to renew.
  if (message.type === MessageType.VipGranted || message.type === MessageType.VipRevoked)
    return { to: '/vip', label: '查看 VIP 会员' };
  if (!message.target_id) return null;
  const at = (path: string) =>
    ABOUT_A_COMMENT.includes(message.type ?? 0) ? commentPath(path, message.comment_id ?? 0) : path;
  if ((message.target_type ?? TargetType.Document) === TargetType.Article) {
    return { to: at(articlePagePath({ id: message.target_id, identifier: message.target_key })), label: '查看文章' };
  }
  return { to: at(documentPathById(message.target_id)), label: '查看文档' };
}

function MessageItem({ message }: { message: Message }) {
  const unread = !message.read_at;
  const id = message.id ?? 0;
  const read = useMutation({
    mutationFn: async (_: void, context) => unwrap(await readMessages([id], context)),
    onError: (error) => toastFailure('操作失败', error),
  });
  const remove = useMutation({
    mutationFn: async (_: void, context) => unwrap(await deleteMessages([id], context)),
    onError: (error) => toastFailure('删除失败', error),
  });
  const link = linkOf(message);
  return (
    <li className={`app-messages__item${unread ? ' app-messages__item--unread' : ''}`} data-row={message.id}>
      <span className="app-messages__dot" aria-hidden />
      <div className="app-messages__body">
        <div className="app-messages__head">
          <h2 className="app-messages__title">
            {unread && <span className="app-visually-hidden">未读：</span>}
            {message.title}
          </h2>
          <time className="app-messages__time" dateTime={message.created_at}>
            {message.created_at ? formatDate(message.created_at, SHORT_DATE_FORMAT) : ''}
          </time>
        </div>
        <p className="app-messages__content">{message.content}</p>
        <div className="app-messages__actions">
          {link && (
            <Link to={link.to} onClick={() => unread && read.mutate()}>
              {link.label}
            </Link>
          )}
          {unread && (
            <Button size="small" theme="borderless" loading={read.isPending} onClick={() => read.mutate()}>
              标为已读
            </Button>
          )}
          <InlineConfirm
            label="删除"
            question="删除这条消息？"
            accessibleName={`删除消息“${message.title ?? ''}”`}
            busy={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
        </div>
      </div>
    </li>
  );
}

export function MessageCentre({ userId }: { userId: number }) {
  // The tab is in the address beside the page (`?tab=unread`), so that the back from a message's page comes back to it.
  const [params, setParams] = useSearchParams();
  const show: Show = params.get('tab') === 'unread' ? 'unread' : 'all';
  const pageParam = usePageParam();
  const [page, setPage] = pageParam;
  const list = useQuery({
    ...messagesQuery(userId, page, PAGE_SIZE, show === 'unread'),
    placeholderData: keepPreviousData,
  });
  const tools = useRef<HTMLDivElement>(null);
  const readAll = useMutation({
    mutationFn: async (_: void, context) => unwrap(await readMessages([], context)),
    onError: (error) => toastFailure('操作失败', error),
  });
  const unread = list.data?.unread ?? 0;
  // Nothing unread left, 全部标为已读 turns disabled under the keyboard (dropping the focus on
  // <body>): it goes to the tab beside it.
  useEffect(() => {
    const focused = document.activeElement;
    const lost = focused === document.body || (focused instanceof HTMLButtonElement && focused.disabled);
    if (readAll.isSuccess && unread === 0 && lost)
      tools.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.focus();
  }, [readAll.isSuccess, unread]);
  const { rows, onFocus, onBlur } = useRowFocusKeeper<HTMLUListElement>('messages-title', list.data?.message);
  // The last message of the last page deleted (or read, among the unread), or an old link's page: the last page.
  const pastTheLast = useLastPageFallback(
    pageParam,
    list.isSuccess && !list.isPlaceholderData
      ? { rows: (list.data.message ?? []).length, total: list.data.total ?? 0 }
      : undefined,
    PAGE_SIZE,
  );
  return (
    <Panel title="我的消息" titleId="messages-title" heading="h1">
      <div className="app-messages__tools" ref={tools}>
        <TabSwitch
          label="显示的消息"
          tabs={SHOWN.map((s) => (s.key === 'unread' && unread ? { ...s, label: `${s.label}（${unread}）` } : s))}
          active={show}
          onChange={(next) =>
            // A switch is no step of the history, and starts again at page 1.
            setParams(
              (current) => {
                const out = new URLSearchParams(current);
                out.delete('page');
                if (next === 'unread') out.set('tab', 'unread');
                else out.delete('tab');
                return out;
              },
              { preventScrollReset: true, replace: true },
            )
          }
        />
        <Button disabled={unread === 0} loading={readAll.isPending} onClick={() => readAll.mutate()}>
          全部标为已读
        </Button>
      </div>
      <QueryStates
        query={list}
        loadingRows={5}
        failure="消息加载失败"
        isEmpty={(data) => !pastTheLast && (data.message ?? []).length === 0}
        empty={
          <EmptyState
            title={show === 'unread' ? '没有未读消息' : '暂无消息'}
            description="文档审核结果、转换失败、评论审核结果和回复，订单的确认收款和退款，以及 VIP 会员的开通和取消，都会通知到这里。"
          />
        }
      >
        {(data) => (
          <>
            <ul
              ref={rows}
              className="app-messages__list"
              aria-labelledby="messages-title"
              onFocus={onFocus}
              onBlur={onBlur}
            >
              {(data.message ?? []).map((message) => (
                <MessageItem key={message.id} message={message} />
              ))}
            </ul>
            <Pager page={page} size={PAGE_SIZE} total={data.total ?? 0} onChange={setPage} />
          </>
        )}
      </QueryStates>
    </Panel>
  );
}
