// Wire types of report (docs/moredoc.md §12; conventions in ./common.ts).

import type { Wire } from '../wire';
import type * as commonMessages from '../messages/common';
import type * as reportMessages from '../messages/report';

/**
 * `document_id`: The document id (type 0) or the article id (type 1).
 * `reason`: See constants `reportReasonOptions`.
 * `status`: True = processed.
 * `document_title`: The target's title when the report was made.
 * `remark`: The admin's note when processing. CreateReport takes the reporter's words here (kept as `description`).
 * `username`: The reporter's username.
 * `type`: Ours: 0 document (MOREDOC's only kind), 1 article.
 * `description`: Ours: the reporter's own words (what CreateReport received as `remark`).
 * `document_uuid`: Ours: the document's uuid or the article's identifier, for links.
 */
export type Report = Wire<typeof reportMessages.Report>;

export type ListReportReply = Wire<typeof reportMessages.ListReportReply>;

/**
 * `type`: Ours: 0 documents, 1 articles.
 */
export type ListReportRequest = Wire<typeof reportMessages.ListReportRequest>;

export type DeleteReportRequest = Wire<ReturnType<typeof commonMessages.IdsRequest>>;
