import { loginLocation } from '../../../shared/access';
import type { UnauthorizedCall } from '../api/client';
import { loginReasonOfCall, loginReasonState } from '../features/auth/login-reason';
import { clearSession, session, sessionEnded } from '../features/session/session-store';

interface Navigator {
  navigate(to: string, opts?: { replace?: boolean; state?: unknown }): Promise<void>;
  readonly state: { location: { pathname: string; search: string } };
}

/**
 * docs/product.md §4/§8: any 401 means the session is gone (the gateway dropped the cookie) → login
 * page. A member who was signed in stays on the screen instead, with what they typed in it, and is
 * asked to sign in again over it (docs/decisions/059): answers true then, and the failure needs no
 * toast of its own. The login page comes after the screen when the call wrote (a visitor's 下载:
 * the browser's back returns to the document), and in its place when it read (back would ask
 * again and come back to the login page). The login page says why when the call was an action it knows (下载:
 * features/auth/login-reason.ts).
 */
export function handleUnauthorized(router: Navigator, call: UnauthorizedCall = { write: false }): boolean {
  const { pathname, search } = router.state.location;
  const onAuthScreen = pathname === '/auth' || pathname.startsWith('/auth/');
  if (!onAuthScreen && session.peek().loggedIn) {
    // The first refusal says why (decision 079): the gateway drops the cookie with it. A call that
    // carried no token lost it to its time running out (the cookie's Max-Age is the token's exp).
    if (sessionEnded.peek() === null) sessionEnded.value = call.ended ?? 'expired';
    return true;
  }
  clearSession();
  if (!onAuthScreen) {
    const reason = loginReasonOfCall(call);
    void router.navigate(loginLocation(pathname + search), {
      replace: !call.write,
      state: reason && loginReasonState(reason),
    });
  }
  return false;
}
