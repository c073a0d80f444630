// The comments under an article or a document: approved threads (a comment and its replies),
// the reader's own comments in review marked 审核中 (or 未通过审核), the comment box with the
// captcha the security settings ask for, replying, and deleting one's own (confirmed in place) or,
// for those who may delete comments (the site's moderators), anybody's in place of 举报.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { loginLocation } from '../../../../shared/access';
import { grpcPermissionPath } from '../../../../shared/permissions';
import { ReportType, ReviewStatus } from '../../../../shared/constants';
import { formatRelativeTime } from '../../../../shared/format';
import type { Comment } from '../../../../shared/types/comment';
import { COMMENT_MAX_LENGTH, replyPrefix, textProblems } from '../../../../shared/validation';
import { ApiError, unwrap } from '../../api/client';
import { InlineConfirm } from '../../kit/confirm/InlineConfirm';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { QueryStates } from '../../kit/query-states/QueryStates';
import { useNearViewport } from '../../kit/visibility/use-near-viewport';
import { Avatar } from '../../ui/Avatar';
import { TextAreaField } from '../../ui/FormField';
import { Button } from '../../ui/semi';
import { Tag } from '../../ui/semi-extra';
import { CaptchaField, captchaEnabled, captchaFields, captchaProblem, useCaptcha } from '../auth/CaptchaField';
import { loginReasonState } from '../auth/login-reason';
import { ReportButton } from '../report/ReportButton';
import { usePermissionCheck, useSession } from '../session/use-session';
import { useSettings } from '../settings/use-settings';
import {
  approvedCommentsQuery,
  commentKeys,
  commentRightQuery,
  commentThreadQuery,
  createComment,
  deleteComments,
  myCommentsQuery,
} from './api';
import { COMMENTS_ID, commentElementId, commentIdOf } from './comment-anchor';
import './comments.css';
import { useFirstInvalidFocus } from '../../kit/forms/first-invalid';
import { useSessionDraft } from '../../kit/forms/session-draft';
import { usePlaceRestored } from '../../kit/visibility/place-restored';

/** Threads shown at first and added by each 查看更多评论: a page of hundreds stays light on a phone. */
const THREADS_PER_STEP = 20;

/** Deletes anybody's comment (the server's DeleteComment lets others delete only their own). */
const DELETE_ANY_COMMENT = grpcPermissionPath('CommentAPI', 'DeleteComment');

interface Thread {
  comment: Comment;
  replies: Comment[];
}

/**
 * Approved comments with the reader's own merged in (theirs win: they carry the review state), as threads, newest
 * first.
 */
export function commentThreads(approved: readonly Comment[], mine: readonly Comment[]): Thread[] {
  const byId = new Map<number, Comment>();
  for (const c of [...approved, ...mine]) byId.set(c.id ?? 0, c);
  const all = [...byId.values()].sort((a, b) => (a.id ?? 0) - (b.id ?? 0));
  // Replies gathered by their thread in one pass: a list of 1,000 is not read once per thread.
  const repliesOf = new Map<number, Comment[]>();
  for (const c of all) {
    if (!c.parent_id || !byId.has(c.parent_id)) continue;
    const replies = repliesOf.get(c.parent_id);
    if (replies) replies.push(c);
    else repliesOf.set(c.parent_id, [c]);
  }
  const tops = all.filter((c) => !c.parent_id || !byId.has(c.parent_id));
  return tops.reverse().map((comment) => ({ comment, replies: repliesOf.get(comment.id ?? 0) ?? [] }));
}

/** The threads on the page, `from` (included) to `to` (excluded), by their place in the list. */
export interface ThreadWindow {
  from: number;
  to: number;
}

/**
 * The threads to show: those the reader opened (`opened`, by steps either way), or at first the first step.
 * A link's comment (`wanted`, a reply in its thread too) outside them opens its own window instead: its step
 * and the one before it, newer ones above it and older below opened by steps, so that a link to a very old
 * comment draws as many threads as one to a recent one.
 */
export function threadWindow(
  threads: readonly Thread[],
  opened: ThreadWindow | undefined,
  wanted: number,
): ThreadWindow {
  const at = wanted ? threads.findIndex((t) => t.comment.id === wanted || t.replies.some((r) => r.id === wanted)) : -1;
  if (at < 0 || (opened && opened.from <= at && at < opened.to)) return opened ?? { from: 0, to: THREADS_PER_STEP };
  const step = Math.floor(at / THREADS_PER_STEP);
  return { from: Math.max(0, step - 1) * THREADS_PER_STEP, to: (step + 1) * THREADS_PER_STEP };
}

/** The comments (a thread's first and its replies) of `threads`, as the heading counts them. */
const commentCount = (threads: readonly Thread[]) => threads.reduce((sum, t) => sum + 1 + t.replies.length, 0);

/**
 * The count in the heading is the server's public one (approved comments); the reader's own comments listed
 * beside them but not approved yet are told apart after it, so the heading agrees with the list.
 */
export function unlistedCountNote(approved: readonly Comment[], mine: readonly Comment[]): string {
  const approvedIds = new Set(approved.map((c) => c.id));
  const own = mine.filter((c) => !approvedIds.has(c.id) && c.status !== ReviewStatus.Approved);
  const pending = own.filter((c) => c.status !== ReviewStatus.Rejected).length;
  const rejected = own.length - pending;
  const parts = [pending ? `${pending} 条待审核` : '', rejected ? `${rejected} 条未通过审核` : ''].filter(Boolean);
  return parts.length ? `（另有 ${parts.join('、')}）` : '';
}

function ReviewTag({ status }: { status?: number }) {
  if (status === ReviewStatus.Approved) return null;
  return status === ReviewStatus.Rejected ? (
    <Tag color="red" size="small">
      未通过审核
    </Tag>
  ) : (
    <Tag color="orange" size="small">
      审核中
    </Tag>
  );
}

function CommentForm({
  type,
  targetId,
  parent,
  onDone,
}: {
  type: number;
  targetId: number;
  parent?: Comment;
  onDone?: () => void;
}) {
  const { security } = useSettings();
  const captcha = useCaptcha('comment', captchaEnabled(security, 'comment'));
  const { user } = useSession();
  const client = useQueryClient();
  // What is typed outlives a visit elsewhere: kept per reader, document or article, and reply,
  // until it is sent or emptied.
  const [content, setContent] = useSessionDraft(
    `moredoc.comment-draft.${user?.id ?? 0}.${type}.${targetId}${parent?.id ? `.${parent.id}` : ''}`,
  );
  const [captchaText, setCaptchaText] = useState('');
  const [errors, setErrors] = useState<{ content?: string; captcha?: string }>({});
  const { ref: formRef, focusFirstInvalid } = useFirstInvalidFocus();
  const replyTo = parent?.user?.username;
  // A reply's box opens under 回复: the keyboard goes into it.
  const replying = Boolean(parent);
  useEffect(() => {
    if (replying) formRef.current?.querySelector('textarea')?.focus();
  }, [replying, formRef]);
  // A reply to a reply is sent after 回复 @name：, which counts towards the limit too.
  const prefix = replyTo && parent?.parent_id ? replyPrefix(replyTo) : '';
  const max = COMMENT_MAX_LENGTH - [...prefix].length;
  const send = useMutation({
    mutationFn: async (text: string, context) =>
      unwrap(
        await createComment(
          {
            type,
            document_id: targetId,
            content: text,
            ...(parent?.id ? { parent_id: parent.id } : {}),
            ...captchaFields(captcha, captchaText),
          },
          context,
        ),
      ),
    onSuccess: (created) => {
      setContent('');
      setCaptchaText('');
      if (captcha.required) captcha.refresh();
      if (created.status === ReviewStatus.Approved) toast.success('评论成功');
      else toast.success('评论已提交', '审核通过后其他人就能看到，审核中的评论只有你自己看得到。');
      onDone?.();
    },
    onError: (error) => {
      // A new image after any refusal (the backend may have spent the old one), and its field empty for it.
      if (captcha.required) {
        setCaptchaText('');
        captcha.refresh();
      }
      toastFailure('评论失败', error);
      // Barred since the page was opened: the box gives way to the reason (what was typed stays in the draft).
      if (error instanceof ApiError && error.status === 403)
        void client.invalidateQueries({ queryKey: commentKeys.right(user?.id ?? 0) });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = content.trim();
    const next = {
      content: textProblems(text, '评论内容', max, true)[0],
      captcha: captchaProblem(captcha, captchaText),
    };
    setErrors(next);
    if (next.content || next.captcha) return focusFirstInvalid();
    send.mutate(prefix + text);
  };

  const id = parent ? `reply-${parent.id}` : 'comment-content';
  return (
    <form ref={formRef} className="app-comment-form" onSubmit={submit} noValidate>
      <TextAreaField
        id={id}
        label={replyTo ? `回复 @${replyTo}` : '发表评论'}
        hideLabel={!replyTo}
        value={content}
        onChange={(value) => {
          setContent(value);
          setErrors((e) => ({ ...e, content: undefined }));
        }}
        placeholder={replyTo ? `回复 @${replyTo}…` : '说说你的看法…'}
        max={max}
        rows={parent ? 2 : 3}
        error={errors.content}
      />
      <CaptchaField captcha={captcha} value={captchaText} onChange={setCaptchaText} error={errors.captcha} />
      <div className="app-form-actions">
        <Button htmlType="submit" theme="solid" loading={send.isPending}>
          {parent ? '回复' : '发表评论'}
        </Button>
        {onDone && parent && <Button onClick={onDone}>取消</Button>}
      </div>
    </form>
  );
}

function CommentItem({
  comment,
  type,
  targetId,
  replyingTo,
  mayReply,
  mayDeleteAny,
  onReply,
  onDelete,
  deleting,
  replyCount = 0,
  marked = false,
}: {
  comment: Comment;
  type: number;
  targetId: number;
  replyingTo: number | undefined;
  /** Signed in and not barred from commenting. */
  mayReply: boolean;
  /** Holds the permission to delete comments: 删除 on others' comments, in place of 举报. */
  mayDeleteAny: boolean;
  onReply: (id: number | undefined) => void;
  onDelete: (comment: Comment) => void;
  deleting: boolean;
  /** The replies under it, which the server deletes with it (everybody's). */
  replyCount?: number;
  /** The comment the address names (a message's link): marked for a moment as the page comes to it. */
  marked?: boolean;
}) {
  const { user } = useSession();
  const mine = user?.id !== undefined && user.id === comment.user_id;
  const mayDelete = mine || mayDeleteAny;
  const name = comment.user?.username ?? '已删除的用户';
  return (
    <div
      className={`app-comment${marked ? ' app-comment--marked' : ''}`}
      id={comment.id ? commentElementId(comment.id) : undefined}
      data-comment-id={comment.id}
    >
      <Avatar src={comment.user?.avatar} name={name} />
      <div className="app-comment__body">
        {/* A <div>: the review tag is one (Semi's Tag), which a <p> may not hold. */}
        <div className="app-comment__head">
          <span className="app-comment__author">{name}</span>
          {comment.created_at && <time dateTime={comment.created_at}>{formatRelativeTime(comment.created_at)}</time>}
          <ReviewTag status={comment.status} />
        </div>
        {/* Plain text: React escapes it, so markup in a comment shows as what it is. */}
        <p className="app-comment__content">{comment.content}</p>
        <div className="app-comment__actions">
          {mayReply && comment.status === ReviewStatus.Approved && (
            <Button
              id={`comment-reply-${comment.id ?? 0}`}
              size="small"
              theme="borderless"
              onClick={() => onReply(replyingTo === comment.id ? undefined : comment.id)}
              aria-expanded={replyingTo === comment.id}
            >
              回复
            </Button>
          )}
          {!mayDelete && comment.status === ReviewStatus.Approved && comment.id && (
            <ReportButton type={ReportType.Comment} targetId={comment.id} title={`${name} 的评论`} />
          )}
          {mayDelete && (
            <InlineConfirm
              label="删除"
              question={replyCount > 0 ? `确定删除？其下的 ${replyCount} 条回复也会一起删除。` : '确定删除？'}
              busy={deleting}
              onConfirm={() => onDelete(comment)}
            />
          )}
        </div>
        {replyingTo === comment.id && (
          <CommentForm
            type={type}
            targetId={targetId}
            parent={comment}
            onDone={() => {
              onReply(undefined);
              // Sent or cancelled, the keyboard goes back to 回复, not to the page's top.
              document.getElementById(`comment-reply-${comment.id ?? 0}`)?.focus();
            }}
          />
        )}
      </div>
    </div>
  );
}

/**
 * `type`: 0 document, 1 article; `targetId`: its id; `onCount`: told the number of approved
 * comments whenever it is read, so that a count shown elsewhere on the page follows the list.
 */
export function CommentSection({
  type,
  targetId,
  onCount,
}: {
  type: number;
  targetId: number;
  onCount?: (count: number) => void;
}) {
  const { user } = useSession();
  const mayDeleteAny = usePermissionCheck()(DELETE_ANY_COMMENT);
  const location = useLocation();
  // Loaded as the reader comes near them: the page's first screen needs no request of its own.
  const section = useRef<HTMLElement>(null);
  const near = useNearViewport(section);
  const approved = useQuery({ ...approvedCommentsQuery(type, targetId), enabled: near });
  const mine = useQuery({ ...myCommentsQuery(type, targetId, user?.id ?? 0), enabled: near && Boolean(user?.id) });
  // The comment a link names (`#comment-<id>`, a message's): its thread is shown, however far down, and it is
  // marked, only as the link is followed: back to it, the page is where the reader left it, and nothing lights up.
  const wanted = commentIdOf(location.hash.slice(1));
  // Older than the newest 1,000 the list gives (or the member's own past theirs): its thread is asked for
  // apart, and joins the list in its place.
  const listed = (list: readonly Comment[] | undefined) => list?.some((c) => c.id === wanted) ?? false;
  const missing =
    wanted > 0 &&
    approved.isSuccess &&
    (!user || mine.isSuccess) &&
    !listed(approved.data.comments) &&
    !listed(mine.data);
  const thread = useQuery({ ...commentThreadQuery(wanted, user?.id ?? 0), enabled: missing });
  const threadRows = missing ? (thread.data ?? []) : [];
  // A member barred from commenting (a punishment, or no group that allows it) is told why in place of the box,
  // before typing anything, and is offered no 回复.
  const right = useQuery({ ...commentRightQuery(user?.id ?? 0), enabled: near && Boolean(user?.id) });
  const barredReason = right.data?.allowed === false ? right.data.reason : undefined;
  const [replyingTo, setReplyingTo] = useState<number>();
  const [openedThreads, setOpenedThreads] = useState<ThreadWindow>();
  const restored = usePlaceRestored();
  // 查看更多评论 takes the keyboard to the first thread it shows: they come before the button, so the
  // next Tab would skip them (and the button is gone once all are shown); 查看较新的评论 likewise, its
  // threads coming above where the reader was.
  const threadList = useRef<HTMLOListElement>(null);
  const firstShown = useRef<number | null>(null);
  useEffect(() => {
    const index = firstShown.current;
    firstShown.current = null;
    if (index !== null) threadList.current?.querySelector<HTMLElement>(`:scope > li:nth-child(${index + 1})`)?.focus();
  }, [openedThreads]);
  const remove = useMutation({
    mutationFn: async (comment: Comment, context) => unwrap(await deleteComments([comment.id ?? 0], context)),
    onSuccess: () => toast.success('评论已删除'),
    onError: (error) => toastFailure('删除失败', error),
  });
  // The server's count: past the 1,000 newest listed, the list alone said 1000.
  const count = approved.data?.total ?? 0;
  const headingNote = unlistedCountNote(approved.data?.comments ?? [], mine.data ?? []);
  useEffect(() => {
    if (approved.data) onCount?.(approved.data.total);
  }, [approved.data, onCount]);

  return (
    <section ref={section} className="app-comments" id={COMMENTS_ID} aria-labelledby="comments-title">
      <h2 id="comments-title" className="app-comments__title">
        评论{approved.data ? `（${count}）` : ''}
        {approved.data && headingNote && <span className="app-comments__note">{headingNote}</span>}
      </h2>
      {user && barredReason !== undefined ? (
        <p className="app-comments__login" role="status">
          {barredReason || '您暂时不能发表评论'}
        </p>
      ) : user ? (
        <CommentForm type={type} targetId={targetId} />
      ) : (
        // The login page tells a visitor sent from here what the login is for, under a document as under an article.
        <p className="app-comments__login">
          <Link to={loginLocation(location.pathname + location.search)} state={loginReasonState('comment')}>
            登录
          </Link>
          后参与评论
        </p>
      )}
      <QueryStates
        query={approved}
        loadingRows={3}
        failure="评论加载失败"
        isEmpty={({ comments }) => commentThreads(comments, mine.data ?? []).length === 0}
        empty={<p className="app-comments__empty">还没有评论，来说第一句吧。</p>}
      >
        {({ comments: list, total }) => {
          const item = (comment: Comment, replyCount?: number) => (
            <CommentItem
              comment={comment}
              type={type}
              targetId={targetId}
              replyingTo={replyingTo}
              mayReply={Boolean(user) && barredReason === undefined}
              mayDeleteAny={mayDeleteAny}
              onReply={setReplyingTo}
              onDelete={(c) => remove.mutate(c)}
              deleting={remove.isPending && remove.variables?.id === comment.id}
              replyCount={replyCount}
              marked={wanted > 0 && comment.id === wanted && !restored}
            />
          );
          const threads = commentThreads([...list, ...threadRows], mine.data ?? []);
          const shown = threadWindow(threads, openedThreads, wanted);
          // The buttons count comments, as the heading does, not threads: a hidden thread with replies is
          // more than one 条.
          const newer = commentCount(threads.slice(0, shown.from));
          const hidden = commentCount(threads.slice(shown.to));
          return (
            <>
              {newer > 0 && (
                <Button
                  className="app-comments__newer"
                  block
                  onClick={() => {
                    firstShown.current = 0;
                    setOpenedThreads({ from: Math.max(0, shown.from - THREADS_PER_STEP), to: shown.to });
                  }}
                >
                  查看较新的评论（还有 {newer} 条）
                </Button>
              )}
              <ol ref={threadList} className="app-comments__list">
                {threads.slice(shown.from, shown.to).map(({ comment, replies }) => (
                  <li key={comment.id} className="app-comments__thread" tabIndex={-1}>
                    {item(comment, replies.length)}
                    {replies.length > 0 && (
                      <ol className="app-comments__replies">
                        {replies.map((reply) => (
                          <li key={reply.id}>{item(reply)}</li>
                        ))}
                      </ol>
                    )}
                  </li>
                ))}
              </ol>
              {hidden > 0 && (
                <Button
                  className="app-comments__more"
                  block
                  onClick={() => {
                    firstShown.current = shown.to - shown.from;
                    setOpenedThreads({ from: shown.from, to: shown.to + THREADS_PER_STEP });
                  }}
                >
                  查看更多评论（还有 {hidden} 条）
                </Button>
              )}
              {/* Below a linked thread older than those listed, the note names it too: it is shown as well. */}
              {hidden === 0 && total > list.length && (
                <p className="app-comments__older">
                  仅显示最新的 {list.length} 条评论{threadRows.length > 0 ? '及链接所指的评论' : ''}
                </p>
              )}
            </>
          );
        }}
      </QueryStates>
    </section>
  );
}
