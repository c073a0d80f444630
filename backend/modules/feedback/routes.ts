import { addressKey } from '../../../shared/address-key';
import { FeedbackStatus } from '../../../shared/constants';
import { FEEDBACK_LIMITS, textProblems } from '../../../shared/validation';
import { lockKeys } from '../../db/dialect';
import { now } from '../../db/schema';
import { badRequest, tooManyRequests } from '../../wire/errors';
import { IdsRequest } from '../../../shared/messages/common';
import { assertValid, checkText, clamp, requireIds } from '../../wire/request';
import { defineService, rpc } from '../../platform/rpc';
import { checkCaptcha, withUsernames } from '../user/service';
import {
  CreateFeedbackRequest,
  ListFeedbackReply,
  ListFeedbackRequest,
  UpdateFeedbackRequest,
} from '../../../shared/messages/feedback';
import {
  countRecentFeedback,
  deleteFeedback,
  feedbackOr404,
  handleFeedback,
  insertFeedback,
  listFeedback,
} from './store';

// FeedbackAPI (ours, docs/api.md): anybody may tell the site something, with a way to be
// reached and a screenshot uploaded through `POST /api/v1/upload/feedback`; visitors solve a
// captcha when `security.enable_captcha_feedback` is on, and everybody is limited per hour.
// Admins list it, mark it handled with a reply, and delete it.

/** Per address (and per member), in one hour. */
const FEEDBACK_PER_HOUR = 5;
const HOUR_MS = 60 * 60 * 1000;
const MAX_PAGE_SIZE = 100;
const STATUSES: readonly number[] = Object.values(FeedbackStatus);
/** Our own uploads only: `/uploads/<h0>/…/<md5>.<ext>`. */
const UPLOADED_IMAGE = /^\/uploads\/([A-Za-z0-9_-]+\/)*[A-Za-z0-9_-]+\.[A-Za-z0-9]+$/;
/** A path of this site the sender wrote from. */
const SITE_PATH = /^\/(?!\/)[^\s\\]*$/;

export const feedbackService = defineService('FeedbackAPI', [
  rpc('CreateFeedback', {
    http: 'POST /api/v1/feedback',
    request: CreateFeedbackRequest,
    auth: 'public',
    async handler(req, ctx) {
      const content = req.content.trim();
      const contact = req.contact.trim();
      assertValid([
        ...textProblems(content, '反馈内容', FEEDBACK_LIMITS.content, true),
        ...textProblems(contact, '联系方式', FEEDBACK_LIMITS.contact),
      ]);
      checkText(content, '反馈内容', { multiline: true });
      checkText(contact, '联系方式');
      if (req.image && !UPLOADED_IMAGE.test(req.image)) throw badRequest('截图必须是上传后的图片地址');
      const page = req.page.length <= 255 && SITE_PATH.test(req.page) ? req.page : '';
      const userId = ctx.user?.id ?? 0;
      const assertWithinLimit = async (db: typeof ctx.db) => {
        const recent = await countRecentFeedback(db, HOUR_MS, { ip: ctx.ip, ipv6Prefix: ctx.app.ipv6Prefix }, userId);
        if (recent >= FEEDBACK_PER_HOUR)
          throw tooManyRequests(`提交太频繁了，每小时最多提交 ${FEEDBACK_PER_HOUR} 条反馈，请稍后再试`);
      };
      await assertWithinLimit(ctx.db);
      if (!ctx.user) await checkCaptcha(ctx, 'feedback', req.captcha_id, req.captcha, true);
      // Counted again and recorded under locks on the address and the member, so that of
      // requests at once (through any process) no more than the limit are kept.
      await ctx.db.transaction().execute(async (trx) => {
        await lockKeys(trx, [
          `feedback.client.${addressKey(ctx.ip, ctx.app.ipv6Prefix)}`,
          ...(userId > 0 ? [`feedback.user.${userId}`] : []),
        ]);
        await assertWithinLimit(trx);
        await insertFeedback(trx, { user_id: userId, content, contact, image: req.image, page, ip: ctx.ip });
      });
      return {};
    },
  }),

  rpc('UpdateFeedback', {
    http: 'PUT /api/v1/feedback',
    request: UpdateFeedbackRequest,
    auth: 'perm',
    permission: '处理意见反馈',
    async handler(req, ctx) {
      if (req.id <= 0) throw badRequest('请选择反馈（参数 id）');
      if (!STATUSES.includes(req.status)) throw badRequest('处理状态必须是 0（待处理）或 1（已处理）');
      const reply = req.reply.trim();
      assertValid(textProblems(reply, '回复内容', FEEDBACK_LIMITS.reply));
      checkText(reply, '回复内容', { multiline: true });
      await feedbackOr404(ctx.db, req.id);
      await handleFeedback(ctx.db, req.id, {
        status: req.status,
        reply,
        handled_at: req.status === FeedbackStatus.Handled ? now() : null,
      });
      return {};
    },
  }),

  rpc('DeleteFeedback', {
    http: 'DELETE /api/v1/feedback',
    request: IdsRequest('DeleteFeedbackRequest'),
    auth: 'perm',
    permission: '删除意见反馈',
    async handler(req, ctx) {
      await deleteFeedback(ctx.db, requireIds(req.id, '反馈'));
      return {};
    },
  }),

  rpc('ListFeedback', {
    http: 'GET /api/v1/feedback/list',
    request: ListFeedbackRequest,
    response: ListFeedbackReply,
    auth: 'perm',
    permission: '查看意见反馈列表',
    async handler(req, ctx) {
      const { rows, total } = await listFeedback(ctx.db, {
        statuses: [...new Set(req.status)],
        wd: req.wd,
        page: Math.max(req.page, 1),
        size: clamp(req.size || 10, 1, MAX_PAGE_SIZE),
      });
      return { feedback: await withUsernames(ctx.db, rows), total };
    },
  }),
]);
