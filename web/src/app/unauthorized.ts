import { loginLocation } from '../../../shared/access';
import { clearSession } from '../features/session/session-store';

interface Navigator {
  navigate(to: string, opts?: { replace?: boolean }): Promise<void>;
  readonly state: { location: { pathname: string; search: string } };
}

/** docs/product.md §4/§8: any 401 means the session is gone (the gateway dropped the cookie) → login page. */
export function handleUnauthorized(router: Navigator): void {
  clearSession();
  const { pathname, search } = router.state.location;
  if (pathname === '/auth' || pathname.startsWith('/auth/')) return;
  void router.navigate(loginLocation(pathname + search), { replace: true });
}
