import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { act } from 'react';
import { clearToasts } from '../../web/src/features/toasts/toast-store';
import { admin, adminPermissions, member, renderApp } from './render-app';

const location = (router: ReturnType<typeof renderApp>['router']) =>
  router.state.location.pathname + router.state.location.search;

describe('client-side route guards', () => {
  afterEach(() => act(() => clearToasts()));

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

  it('sends a member to / from an admin page outside allowPages', async () => {
    const { router } = renderApp('/admin/user/list', { user: member, permissions: [] });
    await waitFor(() => expect(location(router)).toBe('/'));
    expect(await screen.findByRole('heading', { level: 1, name: '测试文库' })).toBeTruthy();
  });

  it('lets a member open the always-allowed dashboard, showing the figures', async () => {
    const { router } = renderApp('/admin/dashboard', {
      user: member,
      backend: { 'GET /api/v1/stats': { status: 200, body: { user_count: 3, document_count: 0, version: 'v1.0.0' } } },
    });
    expect(await screen.findByRole('heading', { name: '控制面板' })).toBeTruthy();
    expect(location(router)).toBe('/admin/dashboard');
    await screen.findByText('v1.0.0');
  });

  it('lets an admin open a page of allowPages, inside the admin layout with the filtered menu', async () => {
    renderApp('/admin/user/list', { user: admin, permissions: adminPermissions });
    expect(await screen.findByRole('heading', { name: '用户管理' })).toBeTruthy();
    expect(screen.getByText('建设中')).toBeTruthy();
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

  it('renders a content screen of a later release as 建设中 inside the default layout', async () => {
    renderApp('/library');
    expect(await screen.findByRole('heading', { name: '文库资料' })).toBeTruthy();
    expect(screen.getByText('建设中')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: '网站导航' })).toBeTruthy();
  });

  it('goes to the login page with the current path on a 401 answer', async () => {
    const { router } = renderApp('/member/download', {
      user: member,
      backend: { 'GET /api/v1/user/download': { status: 401, body: { code: 16, message: '您未登录或您的登录已过期' } } },
    });
    await waitFor(() => expect(location(router)).toBe('/auth/login?redirect=%2Fmember%2Fdownload'));
  });
});
