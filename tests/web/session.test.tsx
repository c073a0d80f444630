import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { Permission } from '../../shared/types/permission';
import type { User } from '../../shared/types/user';
import { api } from '../../web/src/api/client';
import { createQueryClient } from '../../web/src/api/query-client';
import { AppProviders } from '../../web/src/app/AppProviders';
import { completeSignIn, fetchCurrentUser, useLogout } from '../../web/src/features/session/session-actions';
import {
  clearSession,
  initSession,
  mergeUser,
  readStoredSession,
  session,
  sessionIsAdmin,
  SESSION_STORAGE_KEY,
  setPermissions,
  signIn,
} from '../../web/src/features/session/session-store';
import { useSession } from '../../web/src/features/session/use-session';
import { clearToasts, toasts } from '../../web/src/kit/toasts/toast-store';
import { scriptedFetch, type Backend } from './render-app';

const amy: User = { id: 2, username: 'amy', email: 'amy@example.com', signature: 'hi' };
const listUser: Permission = { id: 9, method: 'GRPC', path: '/api.v1.UserAPI/ListUser', title: '查看用户列表' };
const deleteUser: Permission = { id: 10, method: 'GRPC', path: '/api.v1.UserAPI/DeleteUser', title: '删除用户' };

function useBackend(backend: Backend) {
  const fetchMock = scriptedFetch(backend);
  api.configure({ fetch: fetchMock as unknown as typeof fetch, onUnauthorized: undefined });
  return fetchMock;
}

function LogoutButton() {
  const logout = useLogout();
  const { user } = useSession();
  return (
    <button type="button" onClick={() => void logout()}>
      退出 {user?.username}
    </button>
  );
}

/** A screen at `path` with a 退出 button, and 首页 at /. */
function renderLogoutAt(path: string) {
  const router = createMemoryRouter(
    [
      { path, Component: LogoutButton },
      { path: '/', Component: () => <p>首页</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

describe('session store (docs/product.md §4)', () => {
  beforeEach(() => initSession(window.localStorage));
  afterEach(() => {
    clearSession();
    clearToasts();
  });

  it('starts logged out with nothing stored', () => {
    expect(session.value).toEqual({ loggedIn: false, user: null, permissions: [], allowPages: [] });
    expect(sessionIsAdmin.value).toBe(false);
  });

  it('derives allowPages from the groups whose list permission is held, and admin from them', () => {
    signIn(amy);
    setPermissions([deleteUser]);
    expect(session.value.allowPages).toEqual([]);
    expect(sessionIsAdmin.value).toBe(false);
    setPermissions([listUser, deleteUser]);
    expect(session.value.allowPages).toContain('/admin/user/list');
    expect(sessionIsAdmin.value).toBe(true);
  });

  it('persists user, permissions, allowPages and the logged-in flag, never a token', () => {
    signIn({ ...amy });
    setPermissions([listUser]);
    const stored = JSON.parse(window.localStorage.getItem(SESSION_STORAGE_KEY) ?? '{}') as Record<string, unknown>;
    expect(Object.keys(stored).sort()).toEqual(['allowPages', 'loggedIn', 'permissions', 'user']);
    expect(stored.loggedIn).toBe(true);
    expect(window.localStorage.getItem(SESSION_STORAGE_KEY)).not.toMatch(/token/i);
    initSession(window.localStorage);
    expect(session.value.user).toEqual(amy);
  });

  it('ignores a stored session it cannot read', () => {
    window.localStorage.setItem(SESSION_STORAGE_KEY, '{not json');
    expect(readStoredSession(window.localStorage).loggedIn).toBe(false);
    window.localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ loggedIn: 'yes' }));
    expect(readStoredSession(window.localStorage).loggedIn).toBe(false);
  });

  it('merges the submitted fields of a profile update into the stored user', () => {
    signIn(amy);
    mergeUser({ signature: '新的签名', realname: '艾米' });
    expect(session.value.user).toEqual({ ...amy, signature: '新的签名', realname: '艾米' });
  });

  it('clears all four on clearSession', () => {
    signIn(amy);
    setPermissions([listUser]);
    clearSession();
    expect(session.value).toEqual({ loggedIn: false, user: null, permissions: [], allowPages: [] });
  });
});

describe('session transitions through the API', () => {
  beforeEach(() => initSession(window.localStorage));
  afterEach(() => {
    act(() => {
      clearSession();
      clearToasts();
    });
    api.configure({ fetch: undefined });
  });

  it('stores the user and then loads the permissions after a login', async () => {
    const fetchMock = useBackend({ 'GET /api/v1/user/permission': { status: 200, body: { permission: [listUser] } } });
    await completeSignIn(amy);
    expect(session.value).toMatchObject({ loggedIn: true, user: amy, permissions: [listUser] });
    expect(session.value.allowPages).toContain('/admin/user/list');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('shows 获取权限失败 when the permissions cannot be loaded', async () => {
    useBackend({ 'GET /api/v1/user/permission': { status: 500, body: { code: 13, message: '数据库错误' } } });
    await completeSignIn(amy);
    expect(session.value.loggedIn).toBe(true);
    expect(toasts.value[0]).toMatchObject({ title: '获取权限失败', description: '数据库错误', color: 'error' });
  });

  it('clears the whole session when the current-user fetch is not a 200', async () => {
    signIn(amy);
    setPermissions([listUser]);
    useBackend({ 'GET /api/v1/user': { status: 400, body: { code: 3, message: 'ID错误' } } });
    await expect(fetchCurrentUser()).rejects.toThrow('ID错误');
    expect(session.value).toEqual({ loggedIn: false, user: null, permissions: [], allowPages: [] });
  });

  it('replaces the stored user with a fresh one on a 200', async () => {
    signIn(amy);
    useBackend({ 'GET /api/v1/user': { status: 200, body: { ...amy, credit_count: 12 } } });
    await fetchCurrentUser();
    expect(session.value.user?.credit_count).toBe(12);
  });

  it('logs out: calls the API, clears everything and goes to /', async () => {
    signIn(amy);
    setPermissions([listUser]);
    const fetchMock = useBackend({ 'DELETE /api/v1/user/logout': { status: 200, body: {} } });
    const router = renderLogoutAt('/member');
    await userEvent.click(screen.getByRole('button', { name: '退出 amy' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(session.value.loggedIn).toBe(false);
    expect(session.value.allowPages).toEqual([]);
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('DELETE');
  });

  it('keeps the member signed in, and says so, when the logout call got no answer (the cookie is still there)', async () => {
    signIn(amy);
    useBackend({
      'DELETE /api/v1/user/logout': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const router = renderLogoutAt('/member');
    await userEvent.click(screen.getByRole('button', { name: '退出 amy' }));
    await waitFor(() =>
      expect(toasts.value[0]).toMatchObject({
        title: '退出登录失败',
        description: '无法连接服务器，请检查网络后重试',
        color: 'error',
      }),
    );
    expect(session.value.loggedIn).toBe(true);
    expect(router.state.location.pathname).toBe('/member');
  });

  it('re-renders components that read the session when it changes', async () => {
    function Who() {
      const { user, isAdmin } = useSession();
      return <p>{user ? `${user.username}${isAdmin ? '（管理员）' : ''}` : '游客'}</p>;
    }
    render(<Who />);
    expect(screen.getByText('游客')).toBeTruthy();
    act(() => signIn(amy));
    expect(screen.getByText('amy')).toBeTruthy();
    act(() => setPermissions([listUser]));
    expect(screen.getByText('amy（管理员）')).toBeTruthy();
  });
});
