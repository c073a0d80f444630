import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { act } from 'react';
import type { Settings } from '../../shared/types/config';
import { routesWithoutScreen } from '../../web/src/app/router';
import { settingsQuery } from '../../web/src/features/settings/api';
import { SESSION_STORAGE_KEY, session } from '../../web/src/features/session/session-store';
import { clearToasts, toasts } from '../../web/src/kit/toasts/toast-store';
import { admin, adminPermissions, member, renderApp, settings } from './render-app';

const location = (router: ReturnType<typeof renderApp>['router']) =>
  router.state.location.pathname + router.state.location.search;

describe('client-side route guards', () => {
  afterEach(() => act(() => clearToasts()));

  it('has a screen for every route of the shared table, so that none shows a placeholder', () => {
    expect(routesWithoutScreen.map((r) => r.name)).toEqual([]);
  });

  it('sends a token-less visitor of /member to login with the original path', async () => {
    const { router } = renderApp('/member/profile?tab=password');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(location(router)).toBe('/auth/login?redirect=%2Fmember%2Fprofile%3Ftab%3Dpassword');
    expect(await screen.findByRole('heading', { name: '登录' })).toBeTruthy();
  });

  it('guards /vip/checkout like the member area', async () => {
    const { router } = renderApp('/vip/checkout');
    await waitFor(() => expect(location(router)).toBe('/auth/login?redirect=%2Fvip%2Fcheckout'));
  });

  it('sends a member to / from an admin page outside allowPages, saying 无权限 and which page', async () => {
    const { router } = renderApp('/admin/user/list', { user: member, permissions: [] });
    await waitFor(() => expect(location(router)).toBe('/'));
    expect(await screen.findByRole('heading', { level: 1, name: '测试文库' })).toBeTruthy();
    expect(toasts.value.map(({ title, color }) => ({ title, color }))).toEqual([
      { title: '无权限访问“用户管理”', color: 'warning' },
    ]);
    // The address naming the page refused is replaced by home's, so that Back does not say it again.
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('says 无权限 on the home page the gateway sent a page load to, and takes the page out of the address', async () => {
    const { router } = renderApp('/?denied=%2Fadmin%2Forder', { user: member, permissions: [] });
    expect(await screen.findByRole('heading', { level: 1, name: '测试文库' })).toBeTruthy();
    expect(location(router)).toBe('/');
    expect(toasts.value.map((t) => t.title)).toEqual(['无权限访问“订单管理”']);
  });

  it('says nothing for a home address naming no admin screen', async () => {
    const { router } = renderApp('/?denied=%2Flibrary', { user: member, permissions: [] });
    expect(await screen.findByRole('heading', { level: 1, name: '测试文库' })).toBeTruthy();
    expect(location(router)).toBe('/?denied=%2Flibrary');
    expect(toasts.value).toEqual([]);
  });

  it('lets a member open the always-allowed dashboard, with a plain welcome and no figures', async () => {
    const { router, fetchMock } = renderApp('/admin/dashboard', {
      user: member,
      backend: { 'GET /api/v1/stats': { status: 200, body: { user_count: 3, document_count: 0, version: 'v1.0.0' } } },
    });
    expect(await screen.findByRole('heading', { level: 1, name: '欢迎，amy' })).toBeTruthy();
    expect(location(router)).toBe('/admin/dashboard');
    expect(screen.getByRole('link', { name: '返回首页' }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('link', { name: '个人中心' }).getAttribute('href')).toBe('/member');
    expect(screen.queryByText('v1.0.0')).toBeNull();
    expect(screen.queryByText('网站数据')).toBeNull();
    expect(fetchMock.mock.calls.map(([url]) => String(url))).not.toContain('/api/v1/stats');
  });

  it('lets an admin open a page of allowPages, inside the admin layout with the filtered menu', async () => {
    // /admin/user/sms: a page of the user group, unlocked by the user-list permission.
    renderApp('/admin/user/sms', { user: admin, permissions: adminPermissions });
    expect(await screen.findByRole('heading', { name: '短信管理', level: 1 })).toBeTruthy();
    const menu = screen.getByLabelText('管理菜单');
    expect(menu.textContent).toContain('用户管理');
    expect(menu.textContent).toContain('系统设置');
    expect(menu.textContent).not.toContain('文档管理');
  });

  it('shows the 404 error screen when a route parameter fails its check', async () => {
    renderApp('/library/abc');
    expect(await screen.findByRole('heading', { name: '出错啦！' })).toBeTruthy();
    expect(screen.getByText('Page Not Found: /library/abc')).toBeTruthy();
    expect(document.querySelector('[data-status="404"]')).toBeTruthy();
  });

  it('shows the 404 error screen for a path no route matches', async () => {
    renderApp('/no/such/page');
    expect(await screen.findByText('Page Not Found: /no/such/page')).toBeTruthy();
    expect(screen.getByRole('link', { name: '返回首页' }).getAttribute('href')).toBe('/');
  });

  it('shows the 404 error screen, not a trip home, for a path under /admin that is no admin screen', async () => {
    for (const [path, user] of [
      ['/admin/order/notification', admin],
      ['/admin/nothing', member],
    ] as const) {
      const { router, unmount } = renderApp(path, { user, permissions: user === admin ? adminPermissions : [] });
      expect(await screen.findByText(`Page Not Found: ${path}`)).toBeTruthy();
      expect(location(router)).toBe(path);
      unmount();
    }
  });

  it('renders a public screen inside the default layout (every public route has its screen now)', async () => {
    renderApp('/article', { backend: { 'GET /api/v1/article/list': { status: 200, body: {} } } });
    expect(await screen.findByRole('heading', { name: '文章资讯', level: 1 })).toBeTruthy();
    expect(screen.queryByText('建设中')).toBeNull();
    expect(screen.getByRole('navigation', { name: '网站导航' })).toBeTruthy();
  });

  it('logs an admin out from a list to /, not to the login page: the list is not asked for again without the session', async () => {
    let loggedOut = false;
    const { router, fetchMock } = renderApp('/admin/user/list', {
      user: admin,
      permissions: adminPermissions,
      backend: {
        'GET /api/v1/user/list': () =>
          loggedOut
            ? { status: 401, body: { code: 16, message: '您未登录或您的登录已过期' } }
            : { status: 200, body: { user: [{ ...member, id: 9, username: 'reader9' }], total: 1 } },
        'DELETE /api/v1/user/logout': () => {
          loggedOut = true;
          return { status: 200, body: {} };
        },
      },
    });
    expect(await screen.findByText('reader9')).toBeTruthy();
    fireEvent.click(screen.getByTestId('user-menu'));
    fireEvent.click(await screen.findByRole('menuitem', { name: '退出登录' }));
    await waitFor(() => expect(location(router)).toBe('/'));
    expect(await screen.findByRole('link', { name: '登录' })).toBeTruthy();
    const calls = fetchMock.mock.calls.map(
      ([url, init]) => `${init?.method ?? 'GET'} ${new URL(String(url), 'http://x').pathname}`,
    );
    const afterLogout = calls.slice(calls.indexOf('DELETE /api/v1/user/logout') + 1);
    expect(afterLogout).not.toContain('GET /api/v1/user/list');
    expect(location(router)).toBe('/');
  });

  it('leaves a member screen for the login page when another tab signs out', async () => {
    const { router } = renderApp('/member/download', {
      user: member,
      backend: { 'GET /api/v1/user/download': { status: 200, body: { download: [], total: 0 } } },
    });
    await screen.findByRole('heading', { name: '我的下载' });
    // What the other tab's sign-out writes, and the event this tab gets for it.
    const signedOut = JSON.stringify({ loggedIn: false, user: null, permissions: [], allowPages: [] });
    act(() => {
      window.localStorage.setItem(SESSION_STORAGE_KEY, signedOut);
      window.dispatchEvent(
        new StorageEvent('storage', {
          key: SESSION_STORAGE_KEY,
          newValue: signedOut,
          storageArea: window.localStorage,
        }),
      );
    });
    await waitFor(() => expect(location(router)).toBe('/auth/login?redirect=%2Fmember%2Fdownload'));
    expect(session.value.loggedIn).toBe(false);
  });

  it("shows the next member who signs in through another tab none of the last one's kept favourites", async () => {
    let signedOut = false;
    const { router } = renderApp('/member/favorite', {
      user: member,
      backend: {
        'GET /api/v1/favorite/list': () =>
          signedOut
            ? { status: 200, body: { total: 0, favorite: [] } }
            : {
                status: 200,
                body: { total: 1, favorite: [{ id: 9, document_id: 4, title: '上一位的收藏', ext: '.pdf' }] },
              },
      },
    });
    await screen.findByRole('link', { name: '上一位的收藏' });
    // The other tab signs out, then another member signs in there: the two writes and their events.
    const store = (value: object) =>
      act(() => {
        const text = JSON.stringify(value);
        window.localStorage.setItem(SESSION_STORAGE_KEY, text);
        window.dispatchEvent(
          new StorageEvent('storage', { key: SESSION_STORAGE_KEY, newValue: text, storageArea: window.localStorage }),
        );
      });
    signedOut = true;
    store({ loggedIn: false, user: null, permissions: [], allowPages: [] });
    await waitFor(() => expect(location(router)).toBe('/auth/login?redirect=%2Fmember%2Ffavorite'));
    store({
      loggedIn: true,
      user: { ...member, id: (member.id ?? 0) + 1, username: 'next-member' },
      permissions: [],
      allowPages: [],
    });
    await act(() => router.navigate('/member/favorite'));
    expect(await screen.findByText('暂无收藏的文档')).toBeTruthy();
    expect(screen.queryByRole('link', { name: '上一位的收藏' })).toBeNull();
  });

  it('asks a signed-in member to sign in again on a 401 answer, and goes to the login page with the current path after', async () => {
    const { router } = renderApp('/member/download', {
      user: member,
      backend: {
        'GET /api/v1/user/download': { status: 401, body: { code: 16, message: '您未登录或您的登录已过期' } },
      },
    });
    const dialog = await screen.findByRole('dialog', { name: '登录已失效' });
    expect(location(router)).toBe('/member/download');
    fireEvent.click(within(dialog).getByRole('button', { name: '关闭' }));
    await waitFor(() => expect(location(router)).toBe('/auth/login?redirect=%2Fmember%2Fdownload'));
  });

  it('goes to the login page with the current path on a 401 answer to a visitor', async () => {
    const { router } = renderApp('/library/7/5', {
      backend: {
        'GET /api/v1/document': { status: 401, body: { code: 16, message: '您未登录或您的登录已过期' } },
      },
    });
    await waitFor(() => expect(location(router)).toBe('/auth/login?redirect=%2Flibrary%2F7%2F5'));
  });
});

describe('client-side guards: the site switches', () => {
  afterEach(() => act(() => clearToasts()));

  const STATEMENT =
    '<div>尊敬的用户，您好：</div><div>本站正在升级维护，预计 <span style="color: red;">明天</span> 恢复。</div><img src=x onerror="alert(1)">';
  const closed: Settings = {
    ...settings,
    security: { ...settings.security, is_close: true, close_statement: STATEMENT },
  };
  const loginRequired: Settings = { ...settings, security: { ...settings.security, login_required: true } };

  it('sends an anonymous visitor of a closed site to the login page, with the original path', async () => {
    const { router } = renderApp('/library?wd=%E6%96%87', { settings: closed });
    await waitFor(() => expect(location(router)).toBe('/auth/login?redirect=%2Flibrary%3Fwd%3D%25E6%2596%2587'));
    expect(await screen.findByRole('heading', { name: '登录' })).toBeTruthy();
    // registration is closed too: no link to it
    expect(screen.queryByRole('link', { name: '注册账号' })).toBeNull();
  });

  it('sends an anonymous visitor of / on a closed site to the bare login page, and away from registration', async () => {
    const home = renderApp('/', { settings: closed });
    await waitFor(() => expect(location(home.router)).toBe('/auth/login'));
    home.unmount();
    const register = renderApp('/auth/register', { settings: closed });
    await waitFor(() => expect(location(register.router)).toBe('/auth/login'));
  });

  it('shows a member the 站点已关闭 screen with the statement as text, at the requested address', async () => {
    const { router } = renderApp('/library', { settings: closed, user: member });
    expect(await screen.findByRole('heading', { level: 1, name: '站点已关闭' })).toBeTruthy();
    expect(location(router)).toBe('/library');
    const statement = screen.getByTestId('close-statement');
    expect([...statement.querySelectorAll('p')].map((p) => p.textContent)).toEqual([
      '尊敬的用户，您好：',
      '本站正在升级维护，预计 明天 恢复。',
    ]);
    expect(statement.querySelector('span, img, div')).toBeNull();
    expect(screen.getByText('当前登录账号：amy')).toBeTruthy();
    expect(screen.getByRole('link', { name: '管理员登录' }).getAttribute('href')).toBe('/auth/login');
    expect(screen.getByRole('button', { name: '退出登录' })).toBeTruthy();
    // the title is written in an effect after the screen's commit
    await waitFor(() => expect(document.title).toBe('站点已关闭 - 测试文库'));
  });

  it('shows the closed screen on member and admin pages too, but not on the login page', async () => {
    for (const path of ['/member', '/admin/dashboard', '/admin/user/list', '/auth/register']) {
      const view = renderApp(path, { settings: closed, user: member });
      expect(await screen.findByRole('heading', { name: '站点已关闭' }), path).toBeTruthy();
      view.unmount();
    }
    renderApp('/auth/login', { settings: closed, user: member });
    expect(await screen.findByText('您已登录为 amy')).toBeTruthy();
  });

  it('says a default sentence when the admin left the statement empty', async () => {
    renderApp('/', { settings: { ...settings, security: { is_close: true } }, user: member });
    expect((await screen.findByTestId('close-statement')).textContent).toBe('网站维护中，暂时无法访问，请稍后再来。');
  });

  it('logs the member out from the closed screen and lands on the login page', async () => {
    const { router, fetchMock } = renderApp('/', {
      settings: closed,
      user: member,
      backend: { 'DELETE /api/v1/user/logout': { status: 200, body: {} } },
    });
    fireEvent.click(await screen.findByRole('button', { name: '退出登录' }));
    await waitFor(() => expect(location(router)).toBe('/auth/login'));
    expect(session.value.loggedIn).toBe(false);
    expect(
      fetchMock.mock.calls.some(([url, init]) => String(url) === '/api/v1/user/logout' && init?.method === 'DELETE'),
    ).toBe(true);
    expect(await screen.findByRole('heading', { name: '登录' })).toBeTruthy();
  });

  it('lets an admin through a closed site, with the admin rules still applying', async () => {
    const home = renderApp('/', { settings: closed, user: admin, permissions: adminPermissions });
    expect(await screen.findByRole('heading', { level: 1, name: '测试文库' })).toBeTruthy();
    home.unmount();
    const config = renderApp('/admin/user/list', { settings: closed, user: admin, permissions: adminPermissions });
    expect(await screen.findByRole('heading', { name: '用户管理' })).toBeTruthy();
    config.unmount();
    const outside = renderApp('/admin/document/list', { settings: closed, user: admin, permissions: adminPermissions });
    await waitFor(() => expect(location(outside.router)).toBe('/'));
  });

  it('sends an anonymous visitor to login when login is required, leaving registration open', async () => {
    const library = renderApp('/library', { settings: loginRequired });
    await waitFor(() => expect(location(library.router)).toBe('/auth/login?redirect=%2Flibrary'));
    expect(await screen.findByRole('link', { name: '注册账号' })).toBeTruthy();
    library.unmount();
    const register = renderApp('/auth/register', { settings: loginRequired });
    expect(await screen.findByRole('heading', { name: '注册' })).toBeTruthy();
    expect(location(register.router)).toBe('/auth/register');
  });

  it("opens the footer's article pages to a visitor when login is required: registering agrees to them", async () => {
    const withFooter: Settings = { ...loginRequired, footer: { agreement: '/article/agreement' } };
    const agreement = renderApp('/article/detail/agreement', {
      settings: withFooter,
      backend: {
        'GET /api/v1/article': () => ({
          status: 200,
          body: { id: 3, identifier: 'agreement', title: '文库协议', content: '<p>欢迎使用本文库。</p>', status: 1 },
        }),
      },
    });
    expect(await screen.findByText('欢迎使用本文库。')).toBeTruthy();
    expect(location(agreement.router)).toBe('/article/detail/agreement');
    agreement.unmount();
    const other = renderApp('/article/detail/news', { settings: withFooter });
    await waitFor(() => expect(location(other.router)).toBe('/auth/login?redirect=%2Farticle%2Fdetail%2Fnews'));
  });

  it('lets a member browse when login is required', async () => {
    renderApp('/library', { settings: loginRequired, user: member });
    expect(await screen.findByRole('heading', { name: '文库资料' })).toBeTruthy();
  });

  it('decides client-side navigations with the current settings query, like a page load', async () => {
    const { router, queryClient } = renderApp('/', { user: member });
    expect(await screen.findByRole('heading', { level: 1, name: '测试文库' })).toBeTruthy();
    act(() => queryClient.setQueryData(settingsQuery().queryKey, closed));
    await act(() => router.navigate('/library'));
    expect(await screen.findByRole('heading', { name: '站点已关闭' })).toBeTruthy();
    act(() => queryClient.setQueryData(settingsQuery().queryKey, settings));
    await act(() => router.navigate('/vip'));
    expect(await screen.findByRole('heading', { name: 'VIP 会员' })).toBeTruthy();
  });
});
