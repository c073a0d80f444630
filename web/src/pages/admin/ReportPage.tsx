// /admin/report: handle and delete reports.
import { reportResource } from '../../features/report/report-resource';
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';

export function ReportPage() {
  return <ResourceScreen resource={reportResource} />;
}
