// CommentAPI (docs/moredoc.md, CommentAPI; ours in docs/api.md §3): the comments of a
// document or an article, the reader's own (pending ones included), and the admin's review.
// Every write marks every comment query stale.
import { queryOptions } from '@tanstack/react-query';
import { ReviewStatus } from '../../../../shared/constants';
import type {
  Comment,
  CreateCommentRequest,
  ListCommentReply,
  ListCommentRequest,
} from '../../../../shared/types/comment';
import type { Empty } from '../../../../shared/types/common';
import { api, unwrap } from '../../api/client';
import { rightQuery } from '../../api/right-query';
import { invalidateAfter, type WriteContext } from '../../api/query-client';

export const commentKeys = {
  all: ['comment'] as const,
  approved: (type: number, targetId: number) => ['comment', 'approved', type, targetId] as const,
  mine: (type: number, targetId: number, userId: number) => ['comment', 'mine', type, targetId, userId] as const,
  mineCount: (userId: number) => ['comment', 'mine-count', userId] as const,
  admin: ['comment', 'admin'] as const,
  right: (userId: number) => ['comment', 'right', userId] as const,
  thread: (commentId: number, userId: number) => ['comment', 'thread', commentId, userId] as const,
};

export const listComments = (query: ListCommentRequest) =>
  api.get<ListCommentReply>('/api/v1/comment/list', { ...query });

/**
 * Approved comments and replies on one item, newest first (the backend returns up to 1,000 of
 * them: an item with more shows its newest), and how many there are in all. The status is asked
 * for: without it an admin would be answered every comment, rejected ones too.
 */
export const approvedCommentsQuery = (type: number, targetId: number) =>
  queryOptions({
    queryKey: commentKeys.approved(type, targetId),
    queryFn: async () => {
      const reply = unwrap(
        await listComments({ type: [type], document_id: targetId, status: [ReviewStatus.Approved], order: 'id desc' }),
      );
      const comments = reply.comment ?? [];
      return { comments, total: Math.max(reply.total ?? 0, comments.length) };
    },
  });

/**
 * The thread holding comment `commentId` (ours: `GET /api/v1/comment/thread`), none when it is gone
 * or not shown to this reader: a link to a comment older than the 1,000 newest finds it there. A
 * backend without it (MOREDOC's) fails the query, and the link leads to the comments.
 */
export const commentThreadQuery = (commentId: number, userId: number) =>
  queryOptions({
    queryKey: commentKeys.thread(commentId, userId),
    queryFn: async () =>
      unwrap(await api.get<ListCommentReply>('/api/v1/comment/thread', { id: commentId })).comment ?? [],
    retry: false,
  });

/**
 * The reader's own comments on one item, in every review state, newest first: past the 1,000 the
 * backend returns, their latest (the ones waiting for review) are those listed.
 */
export const myCommentsQuery = (type: number, targetId: number, userId: number) =>
  queryOptions({
    queryKey: commentKeys.mine(type, targetId, userId),
    queryFn: async () =>
      unwrap(await listComments({ type: [type], document_id: targetId, user_id: userId, order: 'id desc' })).comment ??
      [],
  });

/**
 * How many comments the member has, in every review state (ListComment's `total` for their own
 * `user_id`): their summary's 评论, which counts what they wrote as its 文档 does, while
 * `user.comment_count` counts only the approved ones others see.
 */
export const myCommentCountQuery = (userId: number) =>
  queryOptions({
    queryKey: commentKeys.mineCount(userId),
    queryFn: async () => unwrap(await listComments({ user_id: userId, page: 1, size: 1 })).total ?? 0,
  });

/**
 * Whether the member may comment, and if not why (ours: `GET /api/v1/user/canicomment`). A backend
 * without it (MOREDOC's) fails the query, and the box is shown: the comment's answer tells then.
 */
export const commentRightQuery = (userId: number) => rightQuery(commentKeys.right(userId), '/api/v1/user/canicomment');

const stale = [commentKeys.all];

/** Answers the new comment with its review status (0 pending, 1 approved). */
export const createComment = (request: CreateCommentRequest, context: WriteContext) =>
  invalidateAfter(api.post<Comment>('/api/v1/comment', request), context, stale);
/** The caller's own comments (any with the DeleteComment permission), with their replies. */
export const deleteComments = (ids: readonly number[], context: WriteContext) =>
  invalidateAfter(api.delete<Empty>('/api/v1/comment', { id: ids }), context, stale);
export const checkComments = (ids: readonly number[], status: number, context: WriteContext) =>
  invalidateAfter(api.post<Empty>('/api/v1/comment/check', { id: ids, status }), context, stale);
