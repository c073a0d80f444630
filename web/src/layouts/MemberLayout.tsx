import { Suspense } from 'react';
import { NavLink, Outlet } from 'react-router-dom';
import { AdSlot } from '../features/advertisement/AdSlot';
import { UserAvatar } from '../features/session/UserMenu';
import { useSession } from '../features/session/use-session';
import { PageLoading } from '../ui/PageLoading';
import './member-layout.css';

const MEMBER_MENU: readonly { to: string; label: string }[] = [
  { to: '/member', label: '个人中心' },
  { to: '/member/profile', label: '个人资料' },
  { to: '/member/document', label: '我的文档' },
  { to: '/member/article', label: '我的文章' },
  { to: '/member/favorite', label: '我的收藏' },
  { to: '/member/reading', label: '最近阅读' },
  { to: '/member/download', label: '我的下载' },
  { to: '/member/order', label: '我的订单' },
  { to: '/member/message', label: '我的消息' },
];

/** The member area inside the default layout: a side menu and the member screen. */
export function MemberLayout() {
  const { user } = useSession();
  return (
    <div className="app-container app-member-layout">
      <aside className="app-member-layout__side app-panel">
        <div className="app-member-layout__who">
          <UserAvatar size="large" />
          <strong>{user?.username}</strong>
        </div>
        <nav aria-label="个人中心菜单" className="app-member-layout__menu">
          {MEMBER_MENU.map((item) => (
            <NavLink key={item.to} to={item.to} end={item.to === '/member'} className="app-member-layout__link">
              {item.label}
            </NavLink>
          ))}
        </nav>
      </aside>
      <div className="app-member-layout__content">
        <AdSlot slot="user_top" />
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </div>
    </div>
  );
}
