import { Suspense, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { offeredAdminPages } from '../../../shared/permissions';
import { buildAdminMenu, type AdminMenuEntry } from '../../../shared/routes';
import { UserMenu } from '../features/session/UserMenu';
import { usePermissionCheck, useSession } from '../features/session/use-session';
import { PermissionCheck } from '../kit/admin-resource/permission-check';
import { scrollWithin } from '../kit/visibility/scroll-within';
import { siteName, useSettings } from '../features/settings/use-settings';
import { Layout, Nav, NavCollapseButton } from '../ui/semi-admin';
import {
  IconComment,
  IconFile,
  IconHistogram,
  IconHome,
  IconMenu,
  IconOrderedList,
  IconSetting,
  IconUserGroup,
} from '../ui/icons';
import { PageLoading } from '../ui/PageLoading';
import './admin-layout.css';

const DASHBOARD_PATH = '/admin/dashboard';

const ICONS: Readonly<Record<string, ReactNode>> = {
  dashboard: <IconHistogram />,
  document: <IconFile />,
  article: <IconOrderedList />,
  user: <IconUserGroup />,
  config: <IconSetting />,
  'admin-comment': <IconComment />,
};

interface NavItem {
  itemKey: string;
  text: string;
  icon?: ReactNode;
  items?: NavItem[];
}

function toNavItem(entry: AdminMenuEntry, top: boolean): NavItem {
  return {
    itemKey: entry.path ?? entry.key,
    text: entry.label,
    icon: top ? (ICONS[entry.key] ?? <IconOrderedList />) : undefined,
    items: entry.children?.map((child) => toNavItem(child, false)),
  };
}

/** The sider menu: 控制面板, then the admin menu (docs/product.md §2) filtered by the user's allowPages. */
export function adminNavItems(allowPages: readonly string[]): NavItem[] {
  return [
    { itemKey: DASHBOARD_PATH, text: '控制面板', icon: ICONS.dashboard },
    ...buildAdminMenu(allowPages).map((entry) => toNavItem(entry, true)),
  ];
}

function openKeyFor(items: readonly NavItem[], pathname: string): string[] {
  const group = items.find((item) => item.items?.some((child) => child.itemKey === pathname));
  return group ? [group.itemKey] : [];
}

export function AdminLayout() {
  const settings = useSettings();
  const { allowPages } = useSession();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const permissionCheck = usePermissionCheck();
  const items = useMemo(
    () => adminNavItems(offeredAdminPages(allowPages, permissionCheck)),
    [allowPages, permissionCheck],
  );
  const selected = pathname === '/admin' || pathname === '/admin/' ? DASHBOARD_PATH : pathname.replace(/\/$/, '');
  // Below 1024 px the menu is a drawer over the screen (admin-layout.css), opened from the header
  // and closed by a choice (it is open on the path it was opened on), the backdrop or Escape.
  const [menuOpenOn, setMenuOpenOn] = useState<string>();
  // Wide screens: the menu folded to a rail of icons (its footer's button).
  const [collapsed, setCollapsed] = useState(false);
  const menuOpen = menuOpenOn === pathname;
  const setMenuOpen = (open: boolean) => setMenuOpenOn(open ? pathname : undefined);
  const menuButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!menuOpen) return undefined;
    // The keyboard goes into the menu (it comes before the header in the page), and back to
    // the button when Escape closes it.
    document.querySelector<HTMLElement>('.app-admin-layout__sider [role="menuitem"]')?.focus();
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpenOn(undefined);
      menuButton.current?.focus();
    };
    window.addEventListener('keydown', closeOnEscape);
    return () => window.removeEventListener('keydown', closeOnEscape);
  }, [menuOpen]);

  useEffect(() => {
    // The current screen's entry in view: a group opened low in the menu (系统设置's twelve
    // screens) would otherwise end below the menu's edge, the screen shown nowhere in it. Semi
    // marks the entry selected after its own render: looked for at the next frame.
    const frame = requestAnimationFrame(() => {
      const item = document.querySelector<HTMLElement>('.app-admin-layout__sider .semi-navigation-item-selected');
      const list = item?.closest<HTMLElement>('.semi-navigation-list-wrapper');
      if (item && list) scrollWithin(list, item);
    });
    return () => cancelAnimationFrame(frame);
  }, [selected, menuOpen]);

  return (
    <Layout className={menuOpen ? 'app-admin-layout app-admin-layout--menu-open' : 'app-admin-layout'}>
      {menuOpen && <div className="app-admin-layout__backdrop" aria-hidden="true" onClick={() => setMenuOpen(false)} />}
      <Layout.Sider className="app-admin-layout__sider" aria-label="管理菜单">
        <Nav
          className="app-admin-layout__nav"
          items={items}
          selectedKeys={[selected]}
          defaultOpenKeys={openKeyFor(items, selected)}
          onSelect={({ itemKey }) => {
            setMenuOpen(false);
            void navigate(String(itemKey));
          }}
          header={{ text: `${siteName(settings)} 管理后台` }}
          isCollapsed={collapsed}
          onCollapseChange={setCollapsed}
          footer={{ collapseButton: <NavCollapseButton collapsed={collapsed} onChange={setCollapsed} /> }}
        />
      </Layout.Sider>
      <Layout className="app-admin-layout__main">
        <Layout.Header className="app-admin-layout__header">
          {/* A header inside Semi's <section> is no banner landmark: the bar is a navigation one. */}
          <nav className="app-admin-layout__bar" aria-label="后台顶栏">
            <button
              ref={menuButton}
              type="button"
              className="app-admin-layout__menu-button"
              aria-label="菜单"
              aria-expanded={menuOpen}
              onClick={() => setMenuOpen(!menuOpen)}
            >
              <IconMenu /> 菜单
            </button>
            <Link to="/" className="app-admin-layout__home">
              <IconHome /> 返回前台
            </Link>
            <UserMenu
              entries={[
                { label: '控制面板', to: DASHBOARD_PATH },
                { label: '个人中心', to: '/member' },
              ]}
            />
          </nav>
        </Layout.Header>
        {/* Semi's Layout.Content (a <main>) takes no tabIndex: the screen's <main> is ours, with its class. */}
        <main className="semi-layout-content app-admin-layout__content" tabIndex={-1}>
          <PermissionCheck.Provider value={permissionCheck}>
            <Suspense fallback={<PageLoading />}>
              <Outlet />
            </Suspense>
          </PermissionCheck.Provider>
        </main>
      </Layout>
    </Layout>
  );
}
