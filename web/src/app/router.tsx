// The router, built from the shared route table: every docs/product.md route exists, under its layout
// (default, auth, admin), with the guard loader of app/route-guard (which reads the site
// settings from the query client). The first screen (default layout, home) is in the entry
// chunk; every other screen is a lazy chunk.
import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { createBrowserRouter, type Params, type RouteObject } from 'react-router-dom';
import { routes, toRouterPath, type RouteDef, type RouteName } from '../../../shared/routes';
import { DefaultLayout } from '../layouts/DefaultLayout';
import { HomePage } from '../pages/public/HomePage';
import { guardFor, notFoundLoader } from './route-guard';
import { PageLoading } from '../ui/PageLoading';
import type { RouteHandle } from '../kit/routing/current-route';
import { RootErrorBoundary, RootShell } from './RootShell';
import { adminScreens } from '../pages/admin/screens';
import { prefetchReader } from '../features/reader/prefetch';

/** A route's screen, and the file of its code when it comes apart from the first screen's. */
type Screen = Pick<RouteObject, 'Component' | 'lazy'> & { file?: string };

const adminDashboard: Screen = {
  lazy: async () => ({ Component: (await import('../pages/admin/AdminDashboardPage')).AdminDashboardPage }),
};

/**
 * The public and member screens, whose code comes when one is first shown: by file under
 * web/ (as the build's manifest names it, so the gateway finds a screen's stylesheets when it
 * renders the first screen), each exporting the component named like the file.
 */
const pageFiles = import.meta.glob<Record<string, ComponentType>>([
  '../pages/public/*Page.tsx',
  '../pages/member/*Page.tsx',
  '!../pages/public/HomePage.tsx',
  '!../pages/public/SiteClosedPage.tsx',
]);

function lazyPage(name: string): Screen {
  const path = Object.keys(pageFiles).find((file) => file.endsWith(`/${name}.tsx`));
  const load = path && pageFiles[path];
  if (!path || !load) throw new Error(`No screen file ${name}.tsx under web/src/pages`);
  return { lazy: async () => ({ Component: (await load())[name] }), file: `src/${path.slice('../'.length)}` };
}

const libraryScreen = lazyPage('LibraryPage');

/** The screen of every route of the shared table, by route name (the compiler checks that none is missing). */
const screens: Readonly<Record<RouteName, Screen>> = {
  index: { Component: HomePage },
  'auth-login': lazyPage('LoginPage'),
  'auth-register': lazyPage('RegisterPage'),
  'auth-forgot': lazyPage('ForgotPasswordPage'),
  'oauth-callback': lazyPage('OAuthCallbackPage'),
  member: lazyPage('MemberOverviewPage'),
  'member-profile': lazyPage('MemberProfilePage'),
  'member-download': lazyPage('MemberDownloadPage'),
  'member-order': lazyPage('MemberOrderPage'),
  'member-document': lazyPage('MemberDocumentPage'),
  'member-favorite': lazyPage('MemberFavoritePage'),
  'member-reading': lazyPage('MemberReadingPage'),
  'member-article': lazyPage('MemberArticlePage'),
  'member-article-set': lazyPage('MemberArticleSetPage'),
  'member-message': lazyPage('MemberMessagePage'),
  library: libraryScreen,
  'library-category': libraryScreen,
  'library-category-id': lazyPage('DocumentPage'),
  search: lazyPage('SearchPage'),
  hot: lazyPage('HotPage'),
  upload: lazyPage('UploadPage'),
  'article-category': lazyPage('ArticleIndexPage'),
  'article-category-detail-id': lazyPage('ArticleDetailPage'),
  vip: lazyPage('VipPage'),
  'vip-checkout': lazyPage('VipCheckoutPage'),
  admin: adminDashboard,
  'admin-index': adminDashboard,
  'admin-dashboard': adminDashboard,
  ...adminScreens,
};

/** Routes of the shared table without a screen: none (a test holds it), so no route shows a placeholder. */
export const routesWithoutScreen: readonly RouteDef[] = routes.filter((r) => !screens[r.name]);

/**
 * Data a screen needs first, asked for by its loader once the guard passed, in parallel with
 * the screen's code: the reader's document and first page image.
 */
const prefetchers: Readonly<Partial<Record<RouteName, (params: Params, queryClient: QueryClient) => void>>> = {
  'library-category-id': (params, queryClient) => prefetchReader(queryClient, Number(params.id)),
};

function routeObject(route: RouteDef, queryClientOf: () => QueryClient): RouteObject {
  const screen = screens[route.name];
  if (!screen) throw new Error(`The route ${route.name} (${route.path}) has no screen`);
  const { file, ...parts } = screen;
  const guard = guardFor(route, queryClientOf);
  const prefetch = prefetchers[route.name];
  return {
    id: route.name,
    path: toRouterPath(route.path),
    loader: prefetch
      ? async (args) => {
          const verdict = await guard(args);
          prefetch(args.params, queryClientOf());
          return verdict;
        }
      : guard,
    handle: { route, file } satisfies RouteHandle,
    ...parts,
  };
}

const isMemberArea = (r: RouteDef) => r.path === '/member' || r.path.startsWith('/member/');

/**
 * The routes, their loaders reading the query client `queryClientOf` gives when they run: the
 * browser's one client, or the one of the page being rendered (entry-server.tsx makes the routes
 * once for every page).
 */
export function appRoutes(queryClientOf: () => QueryClient): RouteObject[] {
  const toRoute = (route: RouteDef) => routeObject(route, queryClientOf);
  const inLayout = (layout: RouteDef['layout']) => routes.filter((r) => r.layout === layout);
  const publicRoutes = inLayout('default').filter((r) => !isMemberArea(r));
  const memberRoutes = inLayout('default').filter(isMemberArea);
  return [
    {
      id: 'root',
      Component: RootShell,
      ErrorBoundary: RootErrorBoundary,
      HydrateFallback: PageLoading,
      children: [
        {
          id: 'layout-default',
          Component: DefaultLayout,
          children: [
            ...publicRoutes.map(toRoute),
            {
              id: 'layout-member',
              lazy: async () => ({ Component: (await import('../layouts/MemberLayout')).MemberLayout }),
              children: memberRoutes.map(toRoute),
            },
          ],
        },
        {
          id: 'layout-auth',
          lazy: async () => ({ Component: (await import('../layouts/AuthLayout')).AuthLayout }),
          children: inLayout('auth').map(toRoute),
        },
        {
          id: 'layout-admin',
          lazy: async () => ({ Component: (await import('../layouts/AdminLayout')).AdminLayout }),
          children: inLayout('admin').map(toRoute),
        },
        // Its loader always throws the 404; the component only keeps React Router from warning.
        { id: 'not-found', path: '*', loader: notFoundLoader, Component: () => null },
      ],
    },
  ];
}

export function createAppRouter(queryClient: QueryClient) {
  return createBrowserRouter(appRoutes(() => queryClient));
}

export type AppRouter = ReturnType<typeof createAppRouter>;
