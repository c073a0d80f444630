import { QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StartData } from '../../shared/types/start-data';
import { api, ApiError } from '../../web/src/api/client';
import { createQueryClient } from '../../web/src/api/query-client';
import { websiteBannersQuery } from '../../web/src/features/banner/api';
import { documentQuery } from '../../web/src/features/document/api';
import { settingsQuery } from '../../web/src/features/settings/api';
import { applyStartData, boot } from '../../web/src/app/boot';
import { readStartData } from '../../web/src/app/start-data';
import { clearSession, session, signIn } from '../../web/src/features/session/session-store';
import { scriptedFetch, settings } from './render-app';

function inlineStartData(json: string) {
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = 'start-data';
  script.textContent = json;
  document.body.appendChild(script);
  return script;
}

describe('start data', () => {
  afterEach(() => {
    document.getElementById('start-data')?.remove();
    clearSession();
    api.configure({ fetch: undefined });
  });

  it('reads the JSON the gateway inlines, with < escaped as \\u003c', () => {
    inlineStartData(
      '{"settings":{"system":{"sitename":"\\u003cb\\u003e文库"}},"navigation":[],"categories":[{"id":1}]}',
    );
    expect(readStartData()).toEqual({
      settings: { system: { sitename: '<b>文库' } },
      navigation: [],
      categories: [{ id: 1 }],
      routeData: [],
      routeFailures: [],
    });
  });

  it('treats missing or unreadable start data as absent', () => {
    expect(readStartData()).toBeNull();
    inlineStartData('{oops');
    expect(readStartData()).toBeNull();
  });

  it('seeds the query cache and the session, so the first screen needs no request', () => {
    const queryClient = createQueryClient();
    const start: StartData = {
      settings,
      navigation: [],
      categories: [],
      user: { id: 2, username: 'amy' },
      permissions: [],
    };
    applyStartData(queryClient, start);
    expect(queryClient.getQueryData(settingsQuery().queryKey)).toBe(settings);
    expect(session.value).toMatchObject({ loggedIn: true, user: { username: 'amy' } });
  });

  it("seeds the answers of the page's first calls under the keys their screens read", () => {
    inlineStartData(
      JSON.stringify({
        settings,
        navigation: [],
        categories: [],
        routeData: [
          { key: ['banner', 'list', 'website'], data: [{ id: 1, title: '横幅' }] },
          { key: 'not a key', data: 1 },
        ],
      }),
    );
    const start = readStartData()!;
    expect(start.routeData).toHaveLength(1);
    const queryClient = createQueryClient();
    applyStartData(queryClient, start);
    expect(queryClient.getQueryData(websiteBannersQuery().queryKey)).toEqual([{ id: 1, title: '横幅' }]);
  });

  it("keeps the failed read the page carried (its subject's 404), which the screen shows without asking again", async () => {
    inlineStartData(
      JSON.stringify({
        settings,
        navigation: [],
        categories: [],
        routeFailures: [
          {
            key: ['document', 'detail', 99],
            failure: { status: 404, data: { code: 5, message: '文档不存在' } },
          },
          { key: ['document', 'detail', 98], failure: 'not a failure' },
        ],
      }),
    );
    const start = readStartData()!;
    expect(start.routeFailures).toHaveLength(1);
    const fetch = vi.fn(async () => Response.json({ code: 5, message: '文档不存在' }, { status: 404 }));
    api.configure({ fetch });
    const queryClient = createQueryClient();
    applyStartData(queryClient, start);
    const observer = new QueryObserver(queryClient, documentQuery(99));
    const stop = observer.subscribe(() => undefined);
    const result = observer.getCurrentResult();
    expect(result.isError).toBe(true);
    expect(result.error).toBeInstanceOf(ApiError);
    expect(result.error).toMatchObject({ status: 404, message: '文档不存在' });
    expect(fetch).not.toHaveBeenCalled();
    // A failure of the app's own call is asked again when a screen mounts, as before.
    await queryClient.fetchQuery(documentQuery(98)).catch(() => undefined);
    expect(fetch).toHaveBeenCalledTimes(1);
    const again = new QueryObserver(queryClient, documentQuery(98)).subscribe(() => undefined);
    expect(fetch).toHaveBeenCalledTimes(2);
    again();
    stop();
  });

  it('drops a stale stored session when the page says the visitor is not logged in', () => {
    signIn({ id: 2, username: 'amy' });
    applyStartData(createQueryClient(), { settings, navigation: [], categories: [] });
    expect(session.value.loggedIn).toBe(false);
  });

  it('without start data (dev server) loads settings, navigation, categories and the user before rendering', async () => {
    const fetchMock = scriptedFetch({
      'GET /api/v1/settings': { status: 200, body: settings },
      'GET /api/v1/navigation/list': { status: 200, body: { navigation: [{ id: 1, title: '首页', enable: true }] } },
      'GET /api/v1/category/list': { status: 200, body: { category: [{ id: 3, title: '教育' }] } },
      'GET /api/v1/user': { status: 200, body: { id: 2, username: 'amy' } },
      'GET /api/v1/user/permission': { status: 200, body: { permission: [] } },
    });
    api.configure({ fetch: fetchMock as unknown as typeof fetch });
    const queryClient = createQueryClient();
    const start = await boot(queryClient);
    expect(start.navigation).toHaveLength(1);
    expect(start.categories).toEqual([{ id: 3, title: '教育' }]);
    expect(session.value.user?.username).toBe('amy');
    const paths = fetchMock.mock.calls.map(([url]) => String(url));
    expect(paths).toContain('/api/v1/navigation/list?page=1&size=10000');
    expect(paths.some((p) => p.startsWith('/api/v1/category/list?field=id&field=title'))).toBe(true);
  });

  it('a visitor without a session in dev is simply logged out, not sent to the login page', async () => {
    let redirected = false;
    const fetchMock = scriptedFetch({
      'GET /api/v1/settings': { status: 200, body: settings },
      'GET /api/v1/user': { status: 401, body: { code: 16, message: '未登录' } },
    });
    api.configure({ fetch: fetchMock as unknown as typeof fetch, onUnauthorized: () => (redirected = true) });
    await boot(createQueryClient());
    expect(session.value.loggedIn).toBe(false);
    expect(redirected).toBe(false);
  });
});
