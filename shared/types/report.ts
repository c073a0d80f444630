// Wire types of report (contract/endpoints.md §4; conventions in ./common.ts).

export interface Report {
  id?: number;
  document_id?: number;
  user_id?: number;
  /** See constants `reportReasonOptions`. */
  reason?: number;
  /** True = processed. */
  status?: boolean;
  document_title?: string;
  remark?: string;
  username?: string;
  created_at?: string;
  updated_at?: string;
}

export interface ListReportReply { total?: number; report?: Report[] }
