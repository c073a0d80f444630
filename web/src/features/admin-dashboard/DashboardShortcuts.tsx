// The dashboard's shortcuts: every admin screen this release has that the user may open
// (their allowPages), grouped like the admin menu, including screens the menu does not list.
import { Link } from 'react-router-dom';
import { adminRoutes, type RouteDef } from '../../../../shared/routes';
import { adminScreens } from '../../app/admin-screens';
import { Panel } from '../../ui/Panel';
import { useSession } from '../session/use-session';
import './dashboard-shortcuts.css';

const SECTIONS: readonly { prefix: string; label: string }[] = [
  { prefix: '/admin/document/', label: '文档管理' },
  { prefix: '/admin/article/', label: '文章管理' },
  { prefix: '/admin/user/', label: '用户管理' },
  { prefix: '/admin/config/', label: '系统设置' },
  { prefix: '/admin/', label: '站点运营' },
];

const normalize = (page: string) => (page.length > 1 && page.endsWith('/') ? page.slice(0, -1) : page).toLowerCase();

/** The screens of `allowPages` that exist (not 建设中), by section, in route-table order. */
export function shortcutSections(allowPages: readonly string[]): { label: string; routes: RouteDef[] }[] {
  const allowed = new Set(allowPages.map(normalize));
  const open = adminRoutes.filter((r) => adminScreens[r.name] && allowed.has(normalize(r.path)));
  const taken = new Set<string>();
  return SECTIONS.map(({ prefix, label }) => {
    const routes = open.filter((r) => r.path.startsWith(prefix) && !taken.has(r.name));
    routes.forEach((r) => taken.add(r.name));
    return { label, routes };
  }).filter((section) => section.routes.length > 0);
}

export function DashboardShortcuts() {
  const { allowPages } = useSession();
  const sections = shortcutSections(allowPages);
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
