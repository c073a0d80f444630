// Wire types of report (docs/moredoc.md §12; conventions in ./common.ts).

import type { PageRequest } from './common';

export interface Report {
  id?: number;
  /** The document id (type 0) or the article id (type 1). */
  document_id?: number;
  user_id?: number;
  /** See constants `reportReasonOptions`. */
  reason?: number;
  /** True = processed. */
  status?: boolean;
  /** The target's title when the report was made. */
  document_title?: string;
  /** The admin's note when processing. CreateReport takes the reporter's words here (kept as `description`). */
  remark?: string;
  /** The reporter's username. */
  username?: string;
  /** Ours: 0 document (MOREDOC's only kind), 1 article. */
  type?: number;
  /** Ours: the reporter's own words (what CreateReport received as `remark`). */
  description?: string;
  /** Ours: the document's uuid or the article's identifier, for links. */
  document_uuid?: string;
  created_at?: string;
  updated_at?: string;
}

export interface ListReportReply { total?: number; report?: Report[] }

export interface ListReportRequest extends PageRequest {
  order?: string;
  status?: boolean[];
  /** Ours: 0 documents, 1 articles. */
  type?: number[];
}

export interface DeleteReportRequest { id: number[] }
