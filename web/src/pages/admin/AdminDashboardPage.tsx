// `/admin` and `/admin/dashboard`: for admins, a word that the site is closed while it is, the
// conversion queue's backlog (or no worker) when there is one, the
// checklist of what a new site still lacks, what waits for review or handling, the site's figures
// and the document converters of this install (each with its permission) and shortcuts to the
// screens they may open; for everybody else, a plain welcome.
// When most of its calls fail for one reason (an outage), it says so once (DashboardCalls).
import { isAdmin, SUPER_USER_ID } from '../../../../shared/permissions';
import { ConversionBacklogNotice } from '../../features/dashboard/ConversionBacklogNotice';
import { ConverterStatus, ENVS_PERMISSION } from '../../features/dashboard/ConverterStatus';
import { DashboardCalls } from '../../features/dashboard/dashboard-outage';
import { DashboardFigures, STATS_PERMISSION } from '../../features/dashboard/DashboardFigures';
import { DashboardShortcuts } from '../../features/dashboard/DashboardShortcuts';
import { MemberWelcome } from '../../features/dashboard/MemberWelcome';
import { PendingWork } from '../../features/dashboard/PendingWork';
import { SETUP_CHECKLIST_PERMISSION, SetupChecklist } from '../../features/dashboard/SetupChecklist';
import { SiteClosedNotice } from '../../features/dashboard/SiteClosedNotice';
import { usePermissionCheck, useSession } from '../../features/session/use-session';
import { hasAdminScreen } from './screens';

export function AdminDashboardPage() {
  const { user, allowPages } = useSession();
  const holds = usePermissionCheck();
  if (!isAdmin(allowPages) && user?.id !== SUPER_USER_ID) return <MemberWelcome username={user?.username} />;
  return (
    <div className="app-admin-dashboard">
      <h1 className="app-admin-page__title">控制面板</h1>
      <p className="app-admin-dashboard__welcome">欢迎回来，{user?.username}。</p>
      <SiteClosedNotice />
      <DashboardCalls>
        {holds(SETUP_CHECKLIST_PERMISSION) && <SetupChecklist />}
        {holds(STATS_PERMISSION) && <ConversionBacklogNotice />}
        <PendingWork />
        {holds(STATS_PERMISSION) && <DashboardFigures />}
        {holds(ENVS_PERMISSION) && <ConverterStatus />}
      </DashboardCalls>
      <DashboardShortcuts hasScreen={hasAdminScreen} />
    </div>
  );
}
