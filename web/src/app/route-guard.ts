// Client-side guards: the same `shared/` decisions as the gateway's page guard, with the
// settings the SPA has (start data, then the settings query), so that a navigation inside
// the SPA behaves like a page load.
import type { QueryClient } from '@tanstack/react-query';
import { data, isRouteErrorResponse, redirect, replace, type LoaderFunction } from 'react-router-dom';
import { decideAccess, deniedAdminRoute, siteSwitchesFrom } from '../../../shared/access';
import { matchRoute, notFoundMessage, type RouteDef } from '../../../shared/routes';
import { settingsQuery } from '../features/settings/api';
import { session } from '../features/session/session-store';
import { toast } from '../kit/toasts/toast-store';

const SITE_CLOSED = 'site-closed';

/** The route error of a closed site (the gateway answers such a page load with 503). */
function siteClosed(): never {
  throw data(SITE_CLOSED, { status: 503, statusText: 'Service Unavailable' });
}

export function isSiteClosedError(error: unknown): boolean {
  return isRouteErrorResponse(error) && error.data === SITE_CLOSED;
}

function displayPath(pathname: string): string {
  try {
    return decodeURI(pathname);
  } catch {
    return pathname;
  }
}

/** The fatal 404 of docs/product.md §2/§8, as a route error. */
export function notFound(pathname: string): never {
  throw data(notFoundMessage(displayPath(pathname)), { status: 404, statusText: 'Not Found' });
}

/**
 * The home page a user was sent to from an admin page they may not open (`/?denied=…`, by the gateway
 * or the guard below) says so, and leaves the page's name out of the address in place, so that a
 * reload or Back says it no more.
 */
function sayDenied(url: URL): void {
  if (url.pathname !== '/') return;
  const denied = deniedAdminRoute(url.search);
  if (denied === undefined) return;
  toast.warning(`无权限访问“${denied.title}”`, '您的账号没有这个页面的权限，如需使用，请联系网站管理员。');
  throw replace('/');
}

/**
 * Loader for `route`: login or home redirect per docs/product.md §2 and the site switches (home
 * saying 无权限), the 站点已关闭 screen for a non-admin on a closed site, else the route's validity check.
 */
export function guardFor(route: RouteDef, queryClientOf: () => QueryClient): LoaderFunction {
  return ({ request }) => {
    const url = new URL(request.url);
    const { loggedIn, allowPages } = session.peek();
    const site = siteSwitchesFrom(queryClientOf().getQueryData(settingsQuery().queryKey));
    const decision = decideAccess(url.pathname, url.search, { loggedIn, allowPages, site });
    if (decision.kind === 'login' || decision.kind === 'home') throw redirect(decision.location);
    if (decision.kind === 'closed') siteClosed();
    if (decision.kind === 'refused' || matchRoute(url.pathname)?.route.name !== route.name) notFound(url.pathname);
    sayDenied(url);
    return null;
  };
}

export const notFoundLoader: LoaderFunction = ({ request }) => notFound(new URL(request.url).pathname);
