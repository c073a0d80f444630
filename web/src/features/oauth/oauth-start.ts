// What the browser remembers between leaving for WeChat/QQ and coming back to
// /oauth/callback: where to go afterwards, and the `state` the provider must echo. Checking
// the state here binds the sign-in to the browser that started it, so a callback link
// crafted by someone else (with their own code and state) cannot sign this visitor into
// their account (login CSRF).
import { safeRedirect } from '../../../../shared/access';

const REDIRECT_KEY = 'moredoc.oauth.redirect';
const STATE_KEY = 'moredoc.oauth.state';

/** Remembers the sign-in about to start at the provider's `authorizeUrl`. */
export function rememberOAuthStart(authorizeUrl: string, redirect: string): void {
  const state = new URL(authorizeUrl).searchParams.get('state') ?? '';
  sessionStorage.setItem(STATE_KEY, state);
  sessionStorage.setItem(REDIRECT_KEY, safeRedirect(redirect));
}

/** The `state` of the sign-in this browser started, or null. */
export function pendingOAuthState(): string | null {
  return sessionStorage.getItem(STATE_KEY) || null;
}

/** The remembered sign-in, forgotten as it is read: a state is good for one callback. */
export function takeOAuthStart(): { state: string | null; redirect: string } {
  const state = sessionStorage.getItem(STATE_KEY);
  const redirect = safeRedirect(sessionStorage.getItem(REDIRECT_KEY));
  sessionStorage.removeItem(STATE_KEY);
  sessionStorage.removeItem(REDIRECT_KEY);
  return { state: state || null, redirect };
}
