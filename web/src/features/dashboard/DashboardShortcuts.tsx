// The dashboard's shortcuts: every admin screen this release has that the user may open
// (their allowPages, as the menu offers them: shared/permissions offeredAdminPages), in the admin menu's groups (shared/routes), including screens the menu
// does not list; the menu's single entries come last, as 站点运营.
import { Link } from 'react-router-dom';
import { offeredAdminPages } from '../../../../shared/permissions';
import { adminMenuGroups, adminRoutes, type RouteDef, type RouteName } from '../../../../shared/routes';
import { Panel } from '../../ui/Panel';
import { usePermissionCheck, useSession } from '../session/use-session';
import './dashboard-shortcuts.css';

const SINGLE_ENTRIES = '站点运营';

const normalize = (page: string) => (page.length > 1 && page.endsWith('/') ? page.slice(0, -1) : page).toLowerCase();

/** The menu group of a screen: its menu entry's, else the group its path lies under (`/admin/<group>/…`). */
function groupOf(route: RouteDef): string | undefined {
  if (route.menu) return route.menu.group ?? undefined;
  const segment = route.path.split('/')[2];
  return adminMenuGroups.some((g) => g.key === segment) ? segment : undefined;
}

/**
 * The screens of `allowPages` the shortcuts offer (`hasScreen`: every admin screen but the dashboard), by menu group,
 * in
 * route-table order.
 */
export function shortcutSections(
  allowPages: readonly string[],
  hasScreen: (routeName: RouteName) => boolean,
): { label: string; routes: RouteDef[] }[] {
  const allowed = new Set(allowPages.map(normalize));
  const open = adminRoutes.filter((r) => hasScreen(r.name) && allowed.has(normalize(r.path)));
  const sections = [
    ...adminMenuGroups.map((group) => ({ label: group.label, routes: open.filter((r) => groupOf(r) === group.key) })),
    { label: SINGLE_ENTRIES, routes: open.filter((r) => groupOf(r) === undefined) },
  ];
  return sections.filter((section) => section.routes.length > 0);
}

/** `hasScreen` says which admin routes have a screen in this release (the pages know). */
export function DashboardShortcuts({ hasScreen }: { hasScreen: (routeName: RouteName) => boolean }) {
  const { allowPages } = useSession();
  const sections = shortcutSections(offeredAdminPages(allowPages, usePermissionCheck()), hasScreen);
  if (sections.length === 0) return null;
  return (
    <Panel title="快捷入口" titleId="dashboard-shortcuts">
      {sections.map((section) => (
        <div key={section.label} className="app-shortcuts__section">
          <h3 className="app-shortcuts__heading">{section.label}</h3>
          <ul className="app-shortcuts__list">
            {section.routes.map((route) => (
              <li key={route.name}>
                <Link className="app-shortcuts__link" to={route.path}>
                  {route.title}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </Panel>
  );
}
