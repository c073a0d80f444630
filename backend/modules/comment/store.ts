import { sql, type Selectable } from 'kysely';
import type { Database } from '../../db';
import { like } from '../../db/dialect';
import { now, type CommentTable } from '../../db/schema';
import { ReviewStatus, TargetType } from '../../../shared/constants';
import { applyPaging, countOf, likePattern, parseOrder, rowOr404 } from '../../wire/request';

// The `comment` table: comments on documents (type 0) and articles (type 1), `document_id`
// naming the target; replies point to a top-level comment through `parent_id`.

export type CommentRow = Selectable<CommentTable>;
type NewComment = Pick<
  CommentRow,
  'parent_id' | 'content' | 'document_id' | 'type' | 'status' | 'user_id' | 'ip' | 'reply_told' | 'review_told'
>;
/** Where a comment sits: its target and its parent, what the counters are kept for. */
export type CommentPlace = Pick<CommentRow, 'id' | 'type' | 'document_id' | 'parent_id' | 'user_id'>;

const ORDER_COLUMNS = ['id', 'created_at', 'comment_count'];

export const commentOr404 = (db: Database, id: number) => rowOr404(db, 'comment', id, '评论不存在');

/** `at`: the database's now, which the next comment's interval is counted from (on any machine). */
export async function insertComment(db: Database, comment: NewComment, at: Date): Promise<CommentRow> {
  const ts = at.toISOString();
  return db
    .insertInto('comment')
    .values({ ...comment, created_at: ts, updated_at: ts })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Other members' comments on the owner's documents since `since`: the day's rewards of
 * score.document_commented are counted by them (each comment earned one while fewer than the
 * limit had come that day).
 */
export async function countCommentsOnDocumentsOf(db: Database, ownerId: number, since: string): Promise<number> {
  return countOf(
    db
      .selectFrom('comment')
      .innerJoin('document', 'document.id', 'comment.document_id')
      .where('comment.type', '=', TargetType.Document)
      .where('document.user_id', '=', ownerId)
      .where('comment.user_id', '!=', ownerId)
      .where('comment.created_at', '>=', since),
  );
}

/** When the user last commented (the rate limit of `security.comment_interval`). */
export async function lastCommentAt(db: Database, userId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('comment')
    .select('created_at')
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.created_at;
}

export async function findComment(db: Database, id: number): Promise<CommentRow | undefined> {
  return db.selectFrom('comment').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function commentsByIds(db: Database, ids: readonly number[]): Promise<CommentRow[]> {
  if (!ids.length) return [];
  return db
    .selectFrom('comment')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

/** The approved replies under these comments (the threads' second level). */
export async function approvedRepliesTo(db: Database, parentIds: readonly number[]): Promise<CommentRow[]> {
  if (!parentIds.length) return [];
  return db
    .selectFrom('comment')
    .selectAll()
    .where('parent_id', 'in', [...parentIds])
    .where('status', '=', ReviewStatus.Approved)
    .execute();
}

/**
 * The thread of comment `top` (a top-level one): it and its replies, oldest first, those approved
 * and, where `ownerId` names the caller, the caller's own `ownId` in any review state.
 */
export async function threadOf(db: Database, top: number, ownerId: number, ownId: number): Promise<CommentRow[]> {
  return db
    .selectFrom('comment')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', top), eb('parent_id', '=', top)]))
    .where((eb) =>
      eb.or([
        eb('status', '=', ReviewStatus.Approved),
        eb.and([eb('id', '=', ownId), eb('user_id', '=', ownerId), eb('user_id', '>', 0)]),
      ]),
    )
    .orderBy('id', 'asc')
    .execute();
}

export async function placesOf(db: Database, ids: readonly number[]): Promise<CommentPlace[]> {
  if (!ids.length) return [];
  return db
    .selectFrom('comment')
    .select(['id', 'type', 'document_id', 'parent_id', 'user_id'])
    .where('id', 'in', [...ids])
    .execute();
}

export async function updateComment(
  db: Database,
  id: number,
  columns: { content: string; status: number },
): Promise<void> {
  await db
    .updateTable('comment')
    .set({ ...columns, updated_at: now() })
    .where('id', '=', id)
    .execute();
}

export async function setCommentStatus(db: Database, ids: readonly number[], status: number): Promise<void> {
  await db
    .updateTable('comment')
    .set({ status, updated_at: now() })
    .where('id', 'in', [...ids])
    .execute();
}

/**
 * Marks the replies' answered members told; answers the ids of those not told before. One statement, so that of two
 * reviews at once only one tells (PostgreSQL re-reads `reply_told` once the other's update committed).
 */
export async function claimReplyNotices(db: Database, ids: readonly number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await db
    .updateTable('comment')
    .set({ reply_told: 1 })
    .where('id', 'in', [...ids])
    .where('reply_told', '=', 0)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Records `status` as the review status the authors last heard of; answers the ids whose author had not heard it. */
export async function claimReviewNotices(db: Database, ids: readonly number[], status: number): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await db
    .updateTable('comment')
    .set({ review_told: status })
    .where('id', 'in', [...ids])
    .where('review_told', '<>', status)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Deletes the comments and the replies to them; answers what went, for the counters. */
export async function deleteCommentsWithReplies(db: Database, ids: readonly number[]): Promise<CommentPlace[]> {
  if (!ids.length) return [];
  const doomed = await db
    .selectFrom('comment')
    .select(['id', 'type', 'document_id', 'parent_id', 'user_id'])
    .where((eb) => eb.or([eb('id', 'in', [...ids]), eb('parent_id', 'in', [...ids])]))
    .execute();
  if (doomed.length)
    await db
      .deleteFrom('comment')
      .where(
        'id',
        'in',
        doomed.map((c) => c.id),
      )
      .execute();
  return doomed;
}

/** Every comment on these targets (an article purged from the recycle bin); returns their authors. */
export async function deleteAllOn(db: Database, type: number, targetIds: readonly number[]): Promise<number[]> {
  if (!targetIds.length) return [];
  const authors = await db
    .deleteFrom('comment')
    .where('type', '=', type)
    .where('document_id', 'in', [...targetIds])
    .returning('user_id')
    .execute();
  return [...new Set(authors.map((a) => a.user_id))];
}

/** Each user's approved comments (replies included): their public `comment_count`. */
export async function approvedCountsBy(db: Database, userIds: readonly number[]): Promise<Map<number, number>> {
  const ids = [...new Set(userIds.filter((id) => id > 0))];
  const counts = new Map(ids.map((id) => [id, 0]));
  if (!ids.length) return counts;
  const rows = await db
    .selectFrom('comment')
    .select(['user_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('user_id', 'in', ids)
    .where('status', '=', ReviewStatus.Approved)
    .groupBy('user_id')
    .execute();
  for (const row of rows) counts.set(row.user_id, Number(row.n));
  return counts;
}

/** Approved comments (replies included) on one target: its public `comment_count`. */
export async function countApprovedOn(db: Database, type: number, targetId: number): Promise<number> {
  return countOf(
    db
      .selectFrom('comment')
      .where('type', '=', type)
      .where('document_id', '=', targetId)
      .where('status', '=', ReviewStatus.Approved),
  );
}

/** Sets `comment_count` of the comments to their approved replies. */
export async function recountReplies(db: Database, parentIds: readonly number[]): Promise<void> {
  if (!parentIds.length) return;
  await sql`UPDATE comment SET comment_count = (
      SELECT count(*) FROM comment r WHERE r.parent_id = comment.id AND r.status = ${ReviewStatus.Approved})
    WHERE id IN (${sql.join([...parentIds])})`.execute(db);
}

export interface CommentFilter {
  statuses: number[];
  types: number[];
  targetId: number;
  userId: number;
  parentIds: number[];
  wd: string;
  order: string;
  page: number;
  size: number;
}

export async function listComments(
  db: Database,
  filter: CommentFilter,
): Promise<{ rows: CommentRow[]; total: number }> {
  let query = db.selectFrom('comment');
  if (filter.statuses.length) query = query.where('status', 'in', filter.statuses);
  if (filter.types.length) query = query.where('type', 'in', filter.types);
  if (filter.targetId > 0) query = query.where('document_id', '=', filter.targetId);
  if (filter.userId > 0) query = query.where('user_id', '=', filter.userId);
  if (filter.parentIds.length) query = query.where('parent_id', 'in', filter.parentIds);
  if (filter.wd.trim()) query = query.where(like(db, 'content', likePattern(filter.wd)));
  let rowsQuery = query.selectAll();
  for (const o of parseOrder(filter.order, ORDER_COLUMNS, { multiple: false }))
    rowsQuery = rowsQuery.orderBy(o.column, o.direction);
  rowsQuery = rowsQuery.orderBy('id', 'desc');
  const rows = await applyPaging(rowsQuery, filter.page, filter.size).execute();
  return { rows, total: await countOf(query) };
}

export const countComments = (db: Database) => countOf(db.selectFrom('comment'));
