import { useSignals } from '@preact/signals-react/runtime';
import { useQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import { isRouteErrorResponse, Outlet, useNavigation, useRouteError } from 'react-router-dom';
import { ERROR_SCREEN } from '../../../shared/constants';
import { ApiError } from '../api/client';
import { useSessionUserOnReturn } from '../features/session/session-actions';
import { sessionEnded } from '../features/session/session-store';
import { settingsQuery } from '../features/settings/api';
import { BrowserCheck } from '../kit/browser-check/BrowserCheck';
import { ErrorScreen } from '../kit/error-screen/ErrorScreen';
import { siteName } from '../features/settings/use-settings';
import { ToastViewport } from '../kit/toasts/ToastViewport';
import { SITE_CLOSED_TITLE } from '../../../shared/page-head';
import { lazy } from '../ui/lazy';
import { PageLoading } from '../ui/PageLoading';
import { PageHeadManager, useDocumentTitle } from './document-head';
import { RouteChange } from './route-change';
import { AppScrollRestoration } from './scroll-restoration';
import { isSiteClosedError } from './route-guard';
import './app.css';

/**
 * While the next screen's code or data loads: a bar across the top, and 页面加载中 in a live region (a
 * status, which needs no landmark) that stays in the page so that screen readers announce what appears in it.
 */
function NavigationProgress() {
  const navigation = useNavigation();
  return (
    <div role="status">
      {navigation.state !== 'idle' && (
        <>
          <div className="app-navigation-progress" aria-hidden="true" />
          <span className="app-visually-hidden">页面加载中</span>
        </>
      )}
    </div>
  );
}

/** Asks for its code only when a session expires under a member. */
const SignInAgainDialog = lazy(async () => ({
  default: (await import('../features/auth/SignInAgainDialog')).SignInAgainDialog,
}));

/** Around every layout: head, browser check, navigation progress, toasts, signing in again, the member kept fresh. */
export function RootShell() {
  useSignals();
  useSessionUserOnReturn();
  return (
    <>
      <PageHeadManager />
      <BrowserCheck />
      <NavigationProgress />
      <Outlet />
      <ToastViewport />
      {sessionEnded.value !== null && (
        <Suspense fallback={null}>
          <SignInAgainDialog ended={sessionEnded.value} />
        </Suspense>
      )}
      <AppScrollRestoration />
    </>
  );
}

function errorStatus(error: unknown): number {
  if (isRouteErrorResponse(error)) return error.status;
  if (error instanceof ApiError) return error.status;
  return 500;
}

/**
 * What the browsers (Chromium, Firefox, Safari) and Vite's preloading say when a screen's code or
 * stylesheet cannot be fetched: the site went down under the visitor, or a new release replaced it.
 */
const CODE_NOT_LOADED =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/;

/** Said instead of the browser's English when the next screen's code did not come. */
const CODE_NOT_LOADED_DETAIL = '页面没能加载完整，可能是网络中断或网站刚刚更新，请刷新页面重试。';

function errorDetail(error: unknown): string | undefined {
  if (isRouteErrorResponse(error)) return typeof error.data === 'string' ? error.data : error.statusText;
  if (error instanceof Error) return CODE_NOT_LOADED.test(error.message) ? CODE_NOT_LOADED_DETAIL : error.message;
  return undefined;
}

/** Shown only on a closed site, never by the gateway's first render: its code comes when needed. */
const SiteClosedPage = lazy(async () => ({
  default: (await import('../pages/public/SiteClosedPage')).SiteClosedPage,
}));

/** Uncaught errors of any screen (docs/product.md §2/§8), and the 站点已关闭 screen of a closed site. */
export function RootErrorBoundary() {
  const error = useRouteError();
  const settings = useQuery(settingsQuery()).data;
  const status = errorStatus(error);
  const closed = isSiteClosedError(error);
  const title = `${closed ? SITE_CLOSED_TITLE : ERROR_SCREEN.title} - ${settings ? siteName(settings) : ''}`;
  useDocumentTitle(settings ?? {}, title);
  // In place of the shell and its RouteChange: reached by a move, the focus to its <main>, its title said.
  const change = <RouteChange title={title} />;
  if (closed) {
    return (
      <>
        {change}
        <Suspense fallback={<PageLoading />}>
          <SiteClosedPage />
        </Suspense>
        <ToastViewport />
      </>
    );
  }
  return (
    <>
      {change}
      <ErrorScreen status={status} message={errorDetail(error)} />
    </>
  );
}
