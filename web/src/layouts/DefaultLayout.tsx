import { Suspense, useRef } from 'react';
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
  const main = useRef<HTMLElement>(null);
  return (
    <div className="app-default-layout">
      {/* The header's links (navigation, categories, account) stand before every screen: a keyboard
          skips them. Focused by hand, not followed: a #hash in the address would stay on the screen. */}
      <a
        href="#app-main"
        className="app-skip-link"
        onClick={(event) => {
          event.preventDefault();
          main.current?.focus();
        }}
      >
        跳到正文
      </a>
      <AppHeader />
      <main className="app-main" id="app-main" tabIndex={-1} ref={main}>
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
