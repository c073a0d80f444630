import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { AdSlot } from '../features/advertisement/AdSlot';
import { PageLoading } from '../ui/PageLoading';
import { AppFooter } from './AppFooter';
import { AppHeader } from './AppHeader';
import { SiderActions } from './SiderActions';
import './layouts.css';

/**
 * The public layout of docs/product.md §2: app-header, the screen, app-footer and sider-actions, and the global ad
 * slots.
 */
export function DefaultLayout() {
  return (
    <div className="app-default-layout">
      <AppHeader />
      <main className="app-main">
        <AdSlot slot="global_top" className="app-container" />
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
        <AdSlot slot="global_bottom" className="app-container" />
      </main>
      <AppFooter />
      <SiderActions />
    </div>
  );
}
