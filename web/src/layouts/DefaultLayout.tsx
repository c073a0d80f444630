import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { PageLoading } from '../ui/PageLoading';
import { AppFooter } from './AppFooter';
import { AppHeader } from './AppHeader';
import { SiderActions } from './SiderActions';
import './layouts.css';

/** The public layout of SPEC §2: app-header, the screen, app-footer and sider-actions. */
export function DefaultLayout() {
  return (
    <div className="app-default-layout">
      <AppHeader />
      <main className="app-main">
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <AppFooter />
      <SiderActions />
    </div>
  );
}
