import type { Database } from '../../db';
import { databaseNow, lockRows } from '../../db/dialect';
import { ReviewStatus, TargetType } from '../../../shared/constants';
import { COMMENT_MAX_LENGTH, replyPrefix, textProblems } from '../../../shared/validation';
import { badRequest, forbidden, notFound } from '../../wire/errors';
import { IdRequest, IdsRequest } from '../../../shared/messages/common';
import { assertValid, checkText, positiveIds, requireIds } from '../../wire/request';
import { grpcPermissionPath } from '../../../shared/permissions';
import type { BackendContext } from '../../platform/context';
import type { ConfigSnapshot } from '../../platform/config-store';
import { startOfServerDay } from '../../db/schema';
import { defineService, rpc, type RpcContext } from '../../platform/rpc';
import { groupAllows, groupsOfUser } from '../group/service';
import { PunishmentType, barReason } from '../punishment/service';
import {
  DynamicType,
  addCredit,
  addDynamic,
  dynamicCredits,
  dynamicTitle,
  checkCaptcha,
  publicProfilesOf,
  setCommentCounts,
  usernamesOf,
} from '../user/service';
import { commentAnswered, commentReviewed, tell } from '../message/service';
import {
  CheckCommentRequest,
  Comment,
  CreateCommentRequest,
  ListCommentReply,
  ListCommentRequest,
} from '../../../shared/messages/comment';
import {
  approvedCountsBy,
  approvedRepliesTo,
  claimReplyNotices,
  claimReviewNotices,
  commentOr404,
  commentsByIds,
  countApprovedOn,
  countCommentsOnDocumentsOf,
  deleteCommentsWithReplies,
  findComment,
  insertComment,
  lastCommentAt,
  listComments,
  placesOf,
  recountReplies,
  setCommentStatus,
  threadOf,
  updateComment,
  type CommentPlace,
  type CommentRow,
} from './store';
import { followPurges } from './purges';
import { commentTarget } from './targets';

// CommentAPI: comments and replies on documents and articles. The public sees approved
// comments; authors see their own in every state; admins (the permission rows) see and
// review all. A target's `comment_count`, a comment's reply count and its author's
// `comment_count` are the approved ones. Another member's comment on a document earns its
// uploader score.document_commented credits, at most score.document_commented_limit times a day.

const REVIEW_STATUSES: readonly number[] = Object.values(ReviewStatus);
const ALL_ON_TARGET = 1000;
const MAX_PAGE_SIZE = 100;
const CHECK_COMMENT = grpcPermissionPath('CommentAPI', 'CheckComment');

function checkContent(content: string): string {
  const text = content.trim();
  assertValid(textProblems(text, '评论内容', COMMENT_MAX_LENGTH, true));
  return checkText(text, '评论内容', { multiline: true });
}

function checkType(type: number): number {
  if (type !== TargetType.Document && type !== TargetType.Article)
    throw badRequest('评论类型必须是 0（文档）或 1（文章）');
  return type;
}

/**
 * Credits a document's uploader earns for another member's comment on it: score.document_commented,
 * while fewer than score.document_commented_limit such comments came today (as MOREDOC, at the
 * comment, whatever its review; never for one's own document). Runs in the transaction: the config
 * is read before it.
 */
async function documentCommentAward(
  db: Database,
  cfg: ConfigSnapshot,
  ownerId: number,
  commenterId: number,
  at: Date,
): Promise<number> {
  if (ownerId <= 0 || ownerId === commenterId) return 0;
  const credits = cfg.int('score', 'document_commented');
  const limit = cfg.int('score', 'document_commented_limit');
  if (credits <= 0 || limit <= 0) return 0;
  return (await countCommentsOnDocumentsOf(db, ownerId, startOfServerDay(at))) < limit ? credits : 0;
}

/** 403 with the reason when a punishment or the caller's groups forbid commenting. */
async function assertMayComment(db: Database, userId: number): Promise<void> {
  const reason = await barReason(db, userId, PunishmentType.NoComment);
  if (reason !== null) throw forbidden(reason ? `您已被禁止评论，原因：${reason}` : '您已被禁止评论');
  if (!(await groupAllows(db, userId, 'enable_comment'))) throw forbidden('您所在用户组不允许评论');
}

/** A member's comment is approved at once when a group that allows comments does not review them. */
async function approvedAtOnce(ctx: RpcContext, userId: number): Promise<boolean> {
  if (await ctx.can(CHECK_COMMENT)) return true;
  const groups = await groupsOfUser(ctx.db, userId);
  return groups.some((g) => g.enable_comment === 1 && g.enable_comment_approval === 0);
}

/** After comments changed state or went: the counters of their targets, parents and authors. */
async function recount(db: Database, places: readonly CommentPlace[]): Promise<void> {
  const targets = new Map(places.map((p) => [`${p.type}:${p.document_id}`, p]));
  // Counted, then written: the counted rows are locked first (authors, then targets, then the
  // comments replied to), so that two recounts at once count each other's comments.
  await lockRows(
    db,
    'user',
    places.map((p) => p.user_id),
  );
  for (const type of new Set(places.map((p) => p.type))) {
    const target = commentTarget(type);
    if (target)
      await lockRows(
        db,
        target.table,
        places.filter((p) => p.type === type).map((p) => p.document_id),
      );
  }
  await lockRows(
    db,
    'comment',
    places.map((p) => p.parent_id),
  );
  for (const { type, document_id: targetId } of targets.values()) {
    await commentTarget(type)?.setCommentCount(db, targetId, await countApprovedOn(db, type, targetId));
  }
  await recountReplies(db, [...new Set(places.map((p) => p.parent_id).filter((id) => id > 0))]);
  await setCommentCounts(
    db,
    await approvedCountsBy(
      db,
      places.map((p) => p.user_id),
    ),
  );
}

/** Once the counters committed: each target kind updates what derives from them. */
async function afterRecount(app: BackendContext, places: readonly CommentPlace[]): Promise<void> {
  for (const type of new Set(places.map((p) => p.type))) {
    await commentTarget(type)?.afterCommit(app, [
      ...new Set(places.filter((p) => p.type === type).map((p) => p.document_id)),
    ]);
  }
  await app.contentChanges.tell({ content: 'comment', ids: places.map((p) => p.id) });
}

/** The documents and articles the comments are on, by `${type}:${id}` (none for a target gone meanwhile). */
async function targetsOf(db: Database, rows: readonly Pick<CommentRow, 'type' | 'document_id'>[]) {
  const targets = new Map<string, { type: number; id: number; key: string; title: string }>();
  for (const type of new Set(rows.map((r) => r.type))) {
    const found = await commentTarget(type)?.titles(
      db,
      rows.filter((r) => r.type === type).map((r) => r.document_id),
    );
    for (const [id, { title, uuid }] of found ?? []) targets.set(`${type}:${id}`, { type, id, key: uuid, title });
  }
  return targets;
}

/**
 * Once replies are visible (approved), the authors of the comments they answer hear of it in
 * their 消息 centre; nobody hears of answering themself.
 */
async function tellAnswered(
  db: Database,
  pairs: readonly { answered: Pick<CommentRow, 'user_id'>; reply: CommentRow }[],
): Promise<void> {
  const wanted = pairs.filter((p) => p.answered.user_id !== p.reply.user_id);
  if (!wanted.length) return;
  const names = await usernamesOf(
    db,
    wanted.flatMap((p) => [p.reply.user_id, p.answered.user_id]),
  );
  const targets = await targetsOf(
    db,
    wanted.map((p) => p.reply),
  );
  const messages = [];
  for (const { answered, reply } of wanted) {
    const about = targets.get(`${reply.type}:${reply.document_id}`);
    if (!about) continue;
    // 回复 @<their name>： says again what the message says: the excerpt starts after it.
    const prefix = replyPrefix(names.get(answered.user_id) ?? '');
    const text = reply.content.startsWith(prefix) ? reply.content.slice(prefix.length) : reply.content;
    messages.push(commentAnswered(answered.user_id, names.get(reply.user_id) ?? '', about, reply, text));
  }
  await tell(db, messages);
}

/**
 * After a reviewer set `status` on comments (`before`: as they were, with their new content), decision 077: the
 * members that replies approved now answer hear of them, once a reply; the authors hear of an approval or a
 * rejection that changed their comment's status, unless that is what they last heard of it (an approval put back
 * in review and approved again tells nothing more), and not of the reviewer's own comments. 待审核 tells nobody.
 */
async function tellReviewed(
  db: Database,
  before: readonly CommentRow[],
  status: number,
  reviewerId: number,
): Promise<void> {
  const changed = before.filter((c) => c.status !== status);
  if (status === ReviewStatus.Approved) {
    const told = new Set(
      await claimReplyNotices(
        db,
        changed.filter((c) => c.parent_id > 0).map((c) => c.id),
      ),
    );
    await tellAnswered(
      db,
      await answeredBy(
        db,
        changed.filter((c) => told.has(c.id)),
      ),
    );
  }
  if (status === ReviewStatus.Pending) return;
  const authors = changed.filter((c) => c.user_id !== reviewerId);
  const told = new Set(
    await claimReviewNotices(
      db,
      authors.map((c) => c.id),
      status,
    ),
  );
  const reviewed = authors.filter((c) => told.has(c.id));
  const targets = await targetsOf(db, reviewed);
  await tell(
    db,
    reviewed.flatMap((c) => {
      const target = targets.get(`${c.type}:${c.document_id}`);
      return target ? [commentReviewed(c, target, status === ReviewStatus.Approved)] : [];
    }),
  );
}

/**
 * Whom replies approved now answer. A reply to a reply hangs under the thread's first comment and starts with the
 * name of the member it answers (`replyPrefix`): that member, when they wrote in the thread before it (the longest
 * name that fits); any other reply answers the thread's first comment.
 */
async function answeredBy(db: Database, replies: readonly CommentRow[]) {
  const topIds = [...new Set(replies.map((c) => c.parent_id))];
  const tops = new Map((await commentsByIds(db, topIds)).map((c) => [c.id, c]));
  const inThreads = await approvedRepliesTo(db, topIds);
  const names = await usernamesOf(
    db,
    [...tops.values(), ...inThreads].map((c) => c.user_id),
  );
  return replies.flatMap((reply) => {
    const top = tops.get(reply.parent_id);
    if (!top) return [];
    const named = [top, ...inThreads.filter((c) => c.parent_id === top.id && c.id < reply.id)]
      .map((c) => ({ comment: c, name: names.get(c.user_id) ?? '' }))
      .filter(({ name }) => name && reply.content.startsWith(replyPrefix(name)))
      .sort((a, b) => b.name.length - a.name.length)[0];
    return [{ answered: named?.comment ?? top, reply }];
  });
}

/** Rows with their author's public profile and, when asked, the target's title and uuid/identifier. */
/**
 * The rows as the wire shows them. `withTitles`: the titles of what they are about, of every
 * target (`any`: the admins), or of those strangers may see (`open`): a disabled or recycled
 * document's title, or an unpublished article's, is not given away by a comment made on it before.
 */
async function present(db: Database, rows: CommentRow[], withTitles: false | 'any' | 'open') {
  const users = await publicProfilesOf(
    db,
    rows.map((r) => r.user_id),
  );
  const titles = new Map<string, { title: string; uuid: string }>();
  if (withTitles) {
    for (const type of new Set(rows.map((r) => r.type))) {
      const target = commentTarget(type);
      const ids = rows.filter((r) => r.type === type).map((r) => r.document_id);
      const found = withTitles === 'any' ? await target?.titles(db, ids) : await target?.open(db, ids);
      for (const [id, info] of found ?? []) titles.set(`${type}:${id}`, info);
    }
  }
  return rows.map(({ ip: _ip, ...row }) => {
    const target = titles.get(`${row.type}:${row.document_id}`);
    return { ...row, user: users.get(row.user_id), document_title: target?.title, document_uuid: target?.uuid };
  });
}

export const commentService = defineService(
  'CommentAPI',
  [
    rpc('CreateComment', {
      // MOREDOC answers `{}`; the new comment (with its review status) is returned here.
      http: 'POST /api/v1/comment',
      request: CreateCommentRequest,
      response: Comment,
      auth: 'login',
      async handler(req, ctx) {
        const me = ctx.requireUser();
        const type = checkType(req.type);
        const content = checkContent(req.content);
        if (req.document_id <= 0)
          throw badRequest(type === TargetType.Article ? '请指定要评论的文章' : '请指定要评论的文档');
        await assertMayComment(ctx.db, me.id);
        const target = commentTarget(type);
        const info = (await target?.open(ctx.db, [req.document_id]))?.get(req.document_id);
        if (!target || !info) throw notFound(target?.missing ?? '文档不存在');
        let parentId = 0;
        let parent: CommentRow | undefined;
        if (req.parent_id > 0) {
          parent = await findComment(ctx.db, req.parent_id);
          if (
            !parent ||
            parent.type !== type ||
            parent.document_id !== req.document_id ||
            parent.status !== ReviewStatus.Approved
          ) {
            throw badRequest('回复的评论不存在');
          }
          // Replies hang under the top-level comment, so a thread is two levels deep.
          parentId = parent.parent_id > 0 ? parent.parent_id : parent.id;
        }
        const status = (await approvedAtOnce(ctx, me.id)) ? ReviewStatus.Approved : ReviewStatus.Pending;
        const cfg = await ctx.app.settings.snapshot();
        const interval = cfg.int('security', 'comment_interval');
        await checkCaptcha(ctx, 'comment', req.captcha_id, req.captcha, true);
        const created = await ctx.db.transaction().execute(async (trx) => {
          // Checked inside the transaction, where a member's comments take turns (the member's
          // row is locked), so two comments sent at once cannot both pass.
          // The uploader's row too: their rewards of the day are counted, then one more paid.
          await lockRows(trx, 'user', [me.id, info.userId]);
          const last = await lastCommentAt(trx, me.id);
          // The database's clock: the last comment may have come through a machine whose clock is off.
          const at = await databaseNow(trx);
          const wait = last && interval > 0 ? Math.ceil(interval - (at.getTime() - Date.parse(last)) / 1000) : 0;
          if (wait > 0) throw forbidden(`您的评论太快了，请等待 ${wait} 秒后再试`);
          const award = type === TargetType.Document ? await documentCommentAward(trx, cfg, info.userId, me.id, at) : 0;
          const row = await insertComment(
            trx,
            {
              parent_id: parentId,
              content,
              document_id: req.document_id,
              type,
              status,
              user_id: me.id,
              ip: ctx.ip,
              // Approved at once: no review to tell of, and the member answered is told now (or needs not be).
              reply_told: status === ReviewStatus.Approved ? 1 : 0,
              review_told: status,
            },
            at,
          );
          await addDynamic(
            trx,
            me.id,
            DynamicType.Comment,
            `评论了${type === TargetType.Article ? '文章' : '文档'}《${dynamicTitle(info.title)}》`,
          );
          // The uploader reads where the credits came from, as for a favourite: their 最近动态 is their credit history.
          if (award > 0) {
            await addCredit(trx, info.userId, award);
            await addDynamic(
              trx,
              info.userId,
              DynamicType.DocumentCommented,
              `文档《${dynamicTitle(info.title)}》被评论，获得 ${dynamicCredits(award, cfg.creditName())}`,
            );
          }
          if (status === ReviewStatus.Approved) await recount(trx, [row]);
          if (status === ReviewStatus.Approved && parent) await tellAnswered(trx, [{ answered: parent, reply: row }]);
          return row;
        });
        if (status === ReviewStatus.Approved) await afterRecount(ctx.app, [created]);
        return (await present(ctx.db, [created], false))[0]!;
      },
    }),

    rpc('CanIComment', {
      // Ours, as CanIPublishArticle: the comment box says why before the member types, not after.
      http: 'GET /api/v1/user/canicomment',
      auth: 'login',
      input: 'none',
      async handler(_req, ctx) {
        await assertMayComment(ctx.db, ctx.requireUser().id);
        return {};
      },
    }),

    rpc('UpdateComment', {
      http: 'PUT /api/v1/comment',
      request: Comment,
      auth: 'perm',
      permission: '更新评论',
      async handler(req, ctx) {
        if (req.id <= 0) throw badRequest('请选择评论（参数 id）');
        if (!REVIEW_STATUSES.includes(req.status))
          throw badRequest('审核状态必须是 0（待审核）、1（审核通过）或 2（审核拒绝）');
        const content = checkContent(req.content);
        const current = await commentOr404(ctx.db, req.id);
        await ctx.db.transaction().execute(async (trx) => {
          await updateComment(trx, current.id, { content, status: req.status });
          await recount(trx, [current]);
          await tellReviewed(trx, [{ ...current, content }], req.status, ctx.requireUser().id);
        });
        await afterRecount(ctx.app, [current]);
        return {};
      },
    }),

    rpc('DeleteComment', {
      http: 'DELETE /api/v1/comment',
      request: IdsRequest('DeleteCommentRequest'),
      auth: 'login',
      permission: '删除评论',
      async handler(req, ctx) {
        const me = ctx.requireUser();
        const places = await placesOf(ctx.db, requireIds(req.id, '评论'));
        // Without the permission only the caller's own comments go, the others are left; when
        // none is theirs (or none exists) the call is refused, as DeleteDocument refuses.
        const mine = places.filter((p) => ctx.permitted || p.user_id === me.id).map((p) => p.id);
        if (!mine.length) throw forbidden('评论不存在或没有删除权限');
        const gone = await ctx.db.transaction().execute(async (trx) => {
          const deleted = await deleteCommentsWithReplies(trx, mine);
          await recount(trx, deleted);
          return deleted;
        });
        await afterRecount(ctx.app, gone);
        return {};
      },
    }),

    rpc('GetComment', {
      http: 'GET /api/v1/comment',
      request: IdRequest('GetCommentRequest'),
      response: Comment,
      auth: 'perm',
      permission: '获取单个评论',
      async handler(req, ctx) {
        return (await present(ctx.db, [await commentOr404(ctx.db, req.id)], 'any'))[0]!;
      },
    }),

    rpc('GetCommentThread', {
      // Ours (docs/api.md §13.7): a message's link to a comment older than the 1,000 newest that
      // the list gives on its page finds it there all the same (decision 108).
      http: 'GET /api/v1/comment/thread',
      request: IdRequest('GetCommentThreadRequest'),
      response: ListCommentReply,
      auth: 'public',
      async handler(req, ctx) {
        if (req.id <= 0) throw badRequest('请指定评论（参数 id）');
        const me = ctx.user?.id ?? 0;
        const asked = await findComment(ctx.db, req.id);
        const visible = asked && (asked.status === ReviewStatus.Approved || (me > 0 && asked.user_id === me));
        const target = asked && commentTarget(asked.type);
        // A comment gone since, or not shown to the caller, is a normal answer (`{}`), not an error status: the link
        // then leads to the comments (decisions 088, 099).
        if (!asked || !visible || !target || !(await target.seenBy(ctx.db, asked.document_id, ctx.user?.id ?? null)))
          return {};
        const rows = await threadOf(ctx.db, asked.parent_id > 0 ? asked.parent_id : asked.id, me, asked.id);
        // A reply whose thread's first comment is no longer shown (rejected since) has no thread to be in.
        if (!rows.some((row) => row.parent_id === 0)) return {};
        const comment = await present(ctx.db, rows, false);
        // As the list: a visitor of a site open to members only reads who said something and when (decision 097).
        if (!(await ctx.app.settings.snapshot()).withholdsText(ctx.user?.id ?? null))
          return { comment, total: rows.length };
        return { comment: comment.map((c) => ({ ...c, content: '' })), total: rows.length };
      },
    }),

    rpc('ListComment', {
      http: 'GET /api/v1/comment/list',
      request: ListCommentRequest,
      response: ListCommentReply,
      auth: 'public',
      permission: '获取评论列表',
      async handler(req, ctx) {
        const own = ctx.user !== null && req.user_id === ctx.user.id;
        const statuses = ctx.permitted || own ? [...new Set(req.status)] : [ReviewStatus.Approved];
        const limit = req.document_id > 0 ? ALL_ON_TARGET : MAX_PAGE_SIZE;
        let types = [...new Set(req.type)];
        // The comments on one item: only of those items the caller may see (a document disabled or recycled
        // since, an article withdrawn, keeps its comments from strangers as it keeps itself).
        if (req.document_id > 0 && !ctx.permitted) {
          const asked = types.length ? types : Object.values(TargetType);
          const seen = await Promise.all(
            asked.map(async (type) => {
              const target = commentTarget(type);
              return !target || (await target.seenBy(ctx.db, req.document_id, ctx.user?.id ?? null));
            }),
          );
          types = asked.filter((_, i) => seen[i]);
          if (!types.length) return {};
        }
        const { rows, total } = await listComments(ctx.db, {
          statuses,
          types,
          targetId: req.document_id,
          userId: req.user_id,
          parentIds: positiveIds(req.parent_id),
          wd: ctx.permitted ? req.wd : '',
          order: req.order,
          page: req.document_id > 0 && req.size <= 0 ? 1 : Math.max(req.page, 1),
          size: Math.min(req.size > 0 ? req.size : req.document_id > 0 ? ALL_ON_TARGET : 10, limit),
        });
        const comment = await present(ctx.db, rows, req.with_document_title && (ctx.permitted ? 'any' : 'open'));
        // A visitor of a site open to members only reads who said something and when, not what (decision 097).
        if (!(await ctx.app.settings.snapshot()).withholdsText(ctx.user?.id ?? null)) return { comment, total };
        return { comment: comment.map((c) => ({ ...c, content: '' })), total };
      },
    }),

    rpc('CheckComment', {
      http: 'POST /api/v1/comment/check',
      request: CheckCommentRequest,
      auth: 'perm',
      permission: '批量审核评论',
      async handler(req, ctx) {
        const ids = requireIds(req.id, '评论');
        if (!REVIEW_STATUSES.includes(req.status))
          throw badRequest('审核状态必须是 0（待审核）、1（审核通过）或 2（审核拒绝）');
        const places = await ctx.db.transaction().execute(async (trx) => {
          const before = await commentsByIds(trx, ids);
          await setCommentStatus(trx, ids, req.status);
          const changed = await placesOf(trx, ids);
          await recount(trx, changed);
          await tellReviewed(trx, before, req.status, ctx.requireUser().id);
          return changed;
        });
        await afterRecount(ctx.app, places);
        return {};
      },
    }),
  ],
  { routes: (_app, ctx) => followPurges(ctx) },
);
