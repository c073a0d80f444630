// ReportAPI (docs/moredoc.md, ReportAPI; reports on articles and the reporter's words
// are ours, docs/api.md §13.3): readers report, admins list, handle and delete. Every write
// marks every report query stale.
import type { Empty } from '../../../../shared/types/common';
import type { ListReportReply, ListReportRequest, Report } from '../../../../shared/types/report';
import { api } from '../../api/client';
import { invalidateAfter, writeEach, type WriteContext } from '../../api/query-client';

export const reportKeys = { all: ['report'] as const, admin: ['report', 'admin'] as const };

export const listReports = (query: ListReportRequest) => api.get<ListReportReply>('/api/v1/report/list', { ...query });

const stale = [reportKeys.all];

/** A member reports a document from the reader (`type` omitted: 0, MOREDOC's only kind). */
export const reportDocument = (report: Pick<Report, 'document_id' | 'reason' | 'document_title' | 'remark'>) =>
  api.post<Empty>('/api/v1/report', report);

/** `remark` carries the reporter's words. */
export const createReport = (
  report: Pick<Report, 'type' | 'document_id' | 'reason' | 'remark'>,
  context: WriteContext,
) => invalidateAfter(api.post<Empty>('/api/v1/report', report), context, stale);
/** Marks the report handled (or open again) with the admin's note. */
export const handleReport = (id: number, handled: boolean, remark: string, context: WriteContext) =>
  invalidateAfter(api.put<Empty>('/api/v1/report', { id, status: handled, remark }), context, stale);
/** Marks each report handled with the same note: UpdateReport takes one id, so one call each (`writeEach`). */
export const handleReports = (ids: readonly number[], remark: string, context: WriteContext) =>
  writeEach(ids, (id) => api.put<Empty>('/api/v1/report', { id, status: true, remark }), context, stale);
export const deleteReports = (ids: readonly number[], context: WriteContext) =>
  invalidateAfter(api.delete<Empty>('/api/v1/report', { id: ids }), context, stale);
