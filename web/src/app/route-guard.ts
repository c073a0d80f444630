// Client-side guards: the same `shared/` decisions as the gateway's page guard, so that a
// navigation inside the SPA behaves like a page load.
import { data, redirect, type LoaderFunction } from 'react-router-dom';
import { decideAccess } from '../../../shared/access';
import { matchRoute, notFoundMessage, type RouteDef } from '../../../shared/routes';
import { session } from '../features/session/session-store';

function displayPath(pathname: string): string {
  try {
    return decodeURI(pathname);
  } catch {
    return pathname;
  }
}

/** The fatal 404 of SPEC §2/§8, as a route error. */
export function notFound(pathname: string): never {
  throw data(notFoundMessage(displayPath(pathname)), { status: 404, statusText: 'Not Found' });
}

/** Loader for `route`: login or home redirect per SPEC §2, else the route's validity check. */
export function guardFor(route: RouteDef): LoaderFunction {
  return ({ request }) => {
    const url = new URL(request.url);
    const { loggedIn, allowPages } = session.peek();
    const decision = decideAccess(url.pathname, url.search, { loggedIn, allowPages });
    if (decision.kind === 'login' || decision.kind === 'home') throw redirect(decision.location);
    if (decision.kind === 'refused' || matchRoute(url.pathname)?.route.name !== route.name) notFound(url.pathname);
    return null;
  };
}

export const notFoundLoader: LoaderFunction = ({ request }) => notFound(new URL(request.url).pathname);
