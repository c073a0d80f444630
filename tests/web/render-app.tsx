// Renders the real route tree in memory with start data seeded and a scripted backend.
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { vi } from 'vitest';
import type { Permission } from '../../shared/types/permission';
import type { StartData } from '../../shared/types/start-data';
import type { User } from '../../shared/types/user';
import { api } from '../../web/src/api/client';
import { createQueryClient } from '../../web/src/api/query-client';
import { AppProviders } from '../../web/src/app/AppProviders';
import { applyStartData } from '../../web/src/app/boot';
import { appRoutes } from '../../web/src/app/router';
import { handleUnauthorized } from '../../web/src/app/unauthorized';
import { initSession, sessionEnded } from '../../web/src/features/session/session-store';
import { followOtherTabsSession } from '../../web/src/features/session/session-actions';
import { showRouter } from './screen-code';

export const settings: StartData['settings'] = {
  system: {
    sitename: '测试文库',
    title: '测试文库 · 首页',
    description: '一个测试站点',
    keywords: '文档,测试',
    domain: 'https://docs.example.com',
  },
  footer: { about: '/article/about', feedback: '/article/feedback' },
  security: { enable_register: true },
  display: { show_document_view_count: true, show_document_download_count: true, show_document_favorite_count: true },
  email: { enable: true },
};

export const member: User = { id: 2, username: 'amy', email: 'amy@example.com' };
export const admin: User = { id: 1, username: 'admin' };
export const adminPermissions: Permission[] = [
  { id: 1, method: 'GRPC', path: '/api.v1.UserAPI/ListUser', title: '查看用户列表' },
  { id: 2, method: 'GRPC', path: '/api.v1.ConfigAPI/ListConfig', title: '获取系统配置列表' },
];

export type Reply = { status: number; body?: unknown; headers?: Record<string, string> };
export type Backend = Record<string, Reply | ((url: URL, init: RequestInit) => Reply)>;

/** `GET /api/v1/group/list` on a new site: the admins' group and the default group of members. */
export const newSiteGroups: Reply = {
  status: 200,
  body: {
    group: [
      { id: 1, title: '超级管理员' },
      { id: 2, title: '普通用户', is_default: true },
    ],
  },
};

/** A fetch that answers `METHOD /path` from `backend`, 404 otherwise; every call is recorded. */
export function scriptedFetch(backend: Backend) {
  return vi.fn(async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    const key = `${init.method ?? 'GET'} ${url.pathname}`;
    const entry = backend[key];
    const reply =
      typeof entry === 'function'
        ? entry(url, init)
        : (entry ?? { status: 404, body: { code: 5, message: 'not found' } });
    return new Response(reply.body === undefined ? '' : JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'Content-Type': 'application/json', ...reply.headers },
    });
  });
}

/**
 * Holds the app's calls through `fetchMock` (renderApp's) that `which` picks, every one by
 * default, until the returned `release()`: a screen's loading state (a lazy screen's calls go
 * out after the render) or a click repeated while the call is out can be looked at meanwhile.
 */
export function holdCalls(
  fetchMock: ReturnType<typeof scriptedFetch>,
  which: (url: URL, init: RequestInit) => boolean = () => true,
): () => void {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const answer = fetchMock.getMockImplementation()!;
  fetchMock.mockImplementation(async (input: string, init: RequestInit = {}) => {
    if (which(new URL(input, 'http://localhost'), init)) await gate;
    return answer(input, init);
  });
  return release;
}

export function renderApp(
  path: string,
  options: {
    user?: User;
    permissions?: Permission[];
    backend?: Backend;
    settings?: StartData['settings'];
    routeData?: StartData['routeData'];
    categories?: StartData['categories'];
  } = {},
) {
  initSession(window.localStorage);
  // A page load starts with no ended session, whatever the previous test left open.
  sessionEnded.value = null;
  const queryClient = createQueryClient();
  applyStartData(queryClient, {
    settings: options.settings ?? settings,
    navigation: [{ id: 1, title: '首页', href: '/', enable: true }],
    categories: options.categories ?? [{ id: 7, title: '教育资料', type: 0, enable: true, parent_id: 0 }],
    user: options.user,
    permissions: options.user ? (options.permissions ?? []) : undefined,
    ...(options.routeData ? { routeData: options.routeData } : {}),
  });
  const fetchMock = scriptedFetch(options.backend ?? {});
  const router = createMemoryRouter(
    appRoutes(() => queryClient),
    { initialEntries: [path] },
  );
  showRouter(router);
  api.configure({
    fetch: fetchMock as unknown as typeof fetch,
    onUnauthorized: (call) => handleUnauthorized(router, call),
  });
  followOtherTabsSession(() => router.revalidate(), queryClient, window.localStorage);
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient, fetchMock };
}
