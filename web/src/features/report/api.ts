// ReportAPI (contract: endpoints.md): a member reports a document (one report per document).
import type { Empty } from '../../../../shared/types/common';
import type { Report } from '../../../../shared/types/report';
import { api } from '../../api/client';

export const reportDocument = (report: Pick<Report, 'document_id' | 'reason' | 'document_title' | 'remark'>) =>
  api.post<Empty>('/api/v1/report', report);
