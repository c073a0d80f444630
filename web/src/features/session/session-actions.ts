// The transitions of docs/product.md §4 that talk to the API: sign-in completion (permissions load),
// the current-user fetch, logout.
import { focusManager, queryOptions, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import type { User } from '../../../../shared/types/user';
import { nothingAnswered } from '../../../../shared/api-failure';
import { ApiError } from '../../api/client';
import { userApi, userKeys } from '../user/api';
import { FAILURE_TITLE, toastFailure } from '../../kit/toasts/failure-toast';
import { clearSession, followOtherTabs, session, sessionEnded, setPermissions, setUser, signIn } from './session-store';

/** Loads the permission list and allowPages; a failure shows 获取权限失败. */
export async function loadPermissions(): Promise<boolean> {
  const result = await userApi.permissions();
  if (!result.ok) {
    toastFailure(FAILURE_TITLE.permissionLoad, result);
    return false;
  }
  setPermissions(result.data.permission ?? []);
  return true;
}

/** After a login, register or OAuth success: store the user, then load the permissions. */
export async function completeSignIn(user: User): Promise<void> {
  signIn(user);
  await loadPermissions();
}

/**
 * Fetches the current user. Non-200 clears the whole session (docs/product.md §4), unless the
 * member is asked to sign in again over the screen (app/unauthorized.ts), which clears it if they
 * leave; `probe` is the start-up check, which must not send a visitor to the login page.
 */
export async function fetchCurrentUser(options?: { probe?: boolean }): Promise<User> {
  const result = await userApi.current(options);
  if (!result.ok) {
    if (sessionEnded.peek() === null) clearSession();
    throw new ApiError(result);
  }
  setUser(result.data);
  return result.data;
}

/**
 * The session's user as the server has it now (credits, VIP period), or undefined when it could
 * not be read: unlike `fetchCurrentUser`, a failure keeps the session as it is.
 */
export async function refreshSessionUser(): Promise<User | undefined> {
  const current = await userApi.current();
  if (!current.ok) return undefined;
  setUser(current.data);
  return current.data;
}

/**
 * The member is read again when they come back to the tab, as the check-in and the unread count
 * are: the header's VIP 会员 mark (and the credits) would otherwise outlive a VIP that ran out or
 * that an admin ended meanwhile, until 个人中心 or a reload.
 */
export function useSessionUserOnReturn(): void {
  useEffect(
    () =>
      focusManager.subscribe((focused) => {
        if (focused && session.peek().loggedIn && sessionEnded.peek() === null) void refreshSessionUser();
      }),
    [],
  );
}

export const currentUserQuery = () =>
  queryOptions({
    queryKey: userKeys.current,
    queryFn: () => fetchCurrentUser(),
    staleTime: 0,
  });

/**
 * Logout: tell the server (the gateway clears the cookie whatever it answers), forget the
 * session, go to / (whose guard decides as for a visitor), and only then drop the session's
 * data: dropped while the screen left behind (an admin list, the member's downloads) was still
 * shown, it was asked for again without the session, and the 401 sent the visitor to the
 * login page instead of home. When nothing answered, the cookie is still there: the member
 * stays signed in and is told, rather than seeing a signed-out screen on a shared computer
 * that the next page load signs in again.
 */
export function useLogout(): () => Promise<void> {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    const result = await userApi.logout();
    if (!result.ok && nothingAnswered(result)) {
      toastFailure('退出登录失败', result);
      return;
    }
    clearSession();
    await navigate('/');
    queryClient.removeQueries({ queryKey: userKeys.all });
  }, [navigate, queryClient]);
}

/**
 * This tab follows the session another tab stores (followOtherTabs): its route guards run again
 * (`revalidate`), and once a sign-out there (or another member's sign-in) has taken this tab off
 * the member's screens, the member's data leaves the cache as a logout here drops it: the next
 * member on this browser is not shown the last one's downloads, favourites or orders.
 */
export function followOtherTabsSession(
  revalidate: () => Promise<void>,
  queryClient: QueryClient,
  storage?: Storage,
): void {
  followOtherTabs((previous) => {
    void revalidate().then(() => {
      const now = session.peek();
      if (previous.loggedIn && (!now.loggedIn || now.user?.id !== previous.user?.id))
        queryClient.removeQueries({ queryKey: userKeys.all });
    });
  }, storage);
}
