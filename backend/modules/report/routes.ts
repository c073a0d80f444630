import type { Database } from '../../db';
import { flag } from '../../db/schema';
import { ReportType, reportReasonOptions } from '../../../shared/constants';
import { REPORT_REMARK_MAX_LENGTH, reportRemarkProblems, textProblems } from '../../../shared/validation';
import { badRequest, forbidden, notFound } from '../../wire/errors';
import { IdsRequest } from '../../../shared/messages/common';
import { assertValid, checkText, clamp, mapUnique, requireIds } from '../../wire/request';
import { defineService, rpc } from '../../platform/rpc';
import { articleTitles, publishedArticles } from '../article/service';
import { approvedComments, commentTitles } from '../comment/service';
import { documentsByIds, isPublic } from '../document/service';
import { PunishmentType, barReason } from '../punishment/service';
import { usernamesOf } from '../user/service';
import { ListReportReply, ListReportRequest, Report } from '../../../shared/messages/report';
import { deleteReports, handleReport, insertReport, listReports, reportOr404 } from './store';

// ReportAPI: readers report a document or an article (docs/product.md §9's six reasons, and ours:
// 侵权（版权）, which must say who holds the rights) with their own words; admins list the reports and mark them handled with
// a note. A reader has at most one
// open report per item. Each kind of item comes through its own module's service.

const REASONS = reportReasonOptions.map((o) => o.value);
const MAX_PAGE_SIZE = 100;

interface ReportTarget {
  noun: string;
  /** The items a reader may report; `author`, when given, may not report their own. */
  open(db: Database, ids: number[]): Promise<Map<number, { title: string; author?: number }>>;
  titles(db: Database, ids: number[]): Promise<Map<number, { title: string; identifier: string }>>;
}

const TARGETS: Readonly<Record<number, ReportTarget>> = {
  [ReportType.Document]: {
    noun: '文档',
    open: async (db, ids) =>
      new Map((await documentsByIds(db, ids)).filter(isPublic).map((d) => [d.id, { title: d.title }])),
    titles: async (db, ids) =>
      new Map((await documentsByIds(db, ids)).map((d) => [d.id, { title: d.title, identifier: d.uuid }])),
  },
  [ReportType.Article]: { noun: '文章', open: publishedArticles, titles: articleTitles },
  // Ours (docs/decisions/072): another reader's approved comment, titled by its text; never one's own.
  [ReportType.Comment]: { noun: '评论', open: approvedComments, titles: commentTitles },
};

function checkRemark(value: string, label: string): string {
  const text = value.trim();
  assertValid(textProblems(text, label, REPORT_REMARK_MAX_LENGTH));
  return checkText(text, label, { multiline: true });
}

export const reportService = defineService('ReportAPI', [
  rpc('CreateReport', {
    http: 'POST /api/v1/report',
    request: Report,
    auth: 'login',
    async handler(req, ctx) {
      const me = ctx.requireUser();
      const target = TARGETS[req.type];
      if (!target) throw badRequest('举报类型必须是 0（文档）、1（文章）或 2（评论）');
      const noun = target.noun;
      if (req.document_id <= 0) throw badRequest(`${noun}参数不正确`);
      if (!REASONS.includes(req.reason)) throw badRequest('请选择举报原因');
      assertValid(reportRemarkProblems(req.remark.trim(), req.reason));
      const description = checkRemark(req.remark, '举报说明');
      const reason = await barReason(ctx.db, me.id, PunishmentType.Disabled);
      if (reason !== null) throw forbidden(reason ? `您的账号已被禁用，原因：${reason}` : '您的账号已被禁用');
      const info = (await target.open(ctx.db, [req.document_id])).get(req.document_id);
      if (!info) throw notFound(`${noun}不存在`);
      if (info.author === me.id) throw forbidden(`不能举报自己的${noun}`);
      const username = (await usernamesOf(ctx.db, [me.id])).get(me.id) ?? '';
      await mapUnique(
        insertReport(ctx.db, {
          document_id: req.document_id,
          type: req.type,
          user_id: me.id,
          username,
          reason: req.reason,
          document_title: info.title,
          description,
        }),
        `您已举报过当前${noun}，请等待处理`,
      );
      return {};
    },
  }),

  rpc('UpdateReport', {
    http: 'PUT /api/v1/report',
    request: Report,
    auth: 'perm',
    permission: '处理举报内容',
    async handler(req, ctx) {
      if (req.id <= 0) throw badRequest('请选择举报（参数 id）');
      const remark = checkRemark(req.remark, '处理备注');
      const current = await reportOr404(ctx.db, req.id);
      await mapUnique(
        handleReport(ctx.db, current.id, { status: flag(req.status), remark }),
        '该用户对同一内容还有未处理的举报',
      );
      return {};
    },
  }),

  rpc('DeleteReport', {
    http: 'DELETE /api/v1/report',
    request: IdsRequest('DeleteReportRequest'),
    auth: 'perm',
    permission: '删除举报内容',
    async handler(req, ctx) {
      await deleteReports(ctx.db, requireIds(req.id, '举报'));
      return {};
    },
  }),

  rpc('ListReport', {
    http: 'GET /api/v1/report/list',
    request: ListReportRequest,
    response: ListReportReply,
    auth: 'perm',
    permission: '查询举报列表',
    async handler(req, ctx) {
      const { rows, total } = await listReports(ctx.db, {
        statuses: [...new Set(req.status.map((s) => flag(s)))],
        types: [...new Set(req.type)],
        wd: req.wd,
        page: Math.max(req.page, 1),
        size: clamp(req.size || 10, 1, MAX_PAGE_SIZE),
      });
      const uuids = new Map<string, string>();
      for (const [type, target] of Object.entries(TARGETS)) {
        const titles = await target.titles(
          ctx.db,
          rows.filter((r) => r.type === Number(type)).map((r) => r.document_id),
        );
        for (const [id, t] of titles) uuids.set(`${type}:${id}`, t.identifier);
      }
      return { report: rows.map((r) => ({ ...r, document_uuid: uuids.get(`${r.type}:${r.document_id}`) })), total };
    },
  }),
]);
