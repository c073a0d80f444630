// `/admin` and `/admin/dashboard`: the site's figures, the document converters of this install,
// and shortcuts to the screens the user may open.
import { ConverterStatus } from '../../features/dashboard/ConverterStatus';
import { DashboardFigures } from '../../features/dashboard/DashboardFigures';
import { DashboardShortcuts } from '../../features/dashboard/DashboardShortcuts';
import { useSession } from '../../features/session/use-session';
import { hasAdminScreen } from './screens';

export function AdminDashboardPage() {
  const { user } = useSession();
  return (
    <div className="app-admin-dashboard">
      <h1 className="app-admin-page__title">控制面板</h1>
      <p className="app-admin-dashboard__welcome">欢迎回来，{user?.username}。</p>
      <DashboardFigures />
      <ConverterStatus />
      <DashboardShortcuts hasScreen={hasAdminScreen} />
    </div>
  );
}
