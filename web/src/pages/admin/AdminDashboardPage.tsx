// `/admin` and `/admin/dashboard`: for admins, the site's figures (with the permission) and
// shortcuts to the screens they may open; for everybody else, a plain welcome.
import { isAdmin, SUPER_USER_ID } from '../../../../shared/permissions';
import { DashboardFigures, STATS_PERMISSION } from '../../features/dashboard/DashboardFigures';
import { DashboardShortcuts } from '../../features/dashboard/DashboardShortcuts';
import { MemberWelcome } from '../../features/dashboard/MemberWelcome';
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
      {holds(STATS_PERMISSION) && <DashboardFigures />}
      <DashboardShortcuts hasScreen={hasAdminScreen} />
    </div>
  );
}
