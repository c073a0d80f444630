import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { rememberOAuthStart } from '../../web/src/features/oauth/oauth-start';
import { clearSession, session } from '../../web/src/features/session/session-store';
import { clearToasts } from '../../web/src/kit/toasts/toast-store';
import { member, renderApp } from './render-app';

const AUTHORIZE =
  'https://open.weixin.qq.com/connect/qrconnect?appid=wx1&redirect_uri=x&response_type=code&scope=snsapi_login&state=s-123#wechat_redirect';
const loginOk = {
  'POST /api/v1/oauth/login': { status: 200, body: { user: member } },
  'GET /api/v1/user/permission': { status: 200, body: {} },
  // the remembered page (the profile) loads the current user
  'GET /api/v1/user': { status: 200, body: member },
};
const loginCalls = (fetchMock: ReturnType<typeof renderApp>['fetchMock']) =>
  fetchMock.mock.calls.filter(([url]) => String(url).startsWith('/api/v1/oauth/login'));

afterEach(() =>
  act(() => {
    sessionStorage.clear();
    clearSession();
    clearToasts();
  }),
);

describe('/oauth/callback', () => {
  it('completes the sign-in this browser started and goes to the remembered page', async () => {
    rememberOAuthStart(AUTHORIZE, '/member/profile');
    const { router, fetchMock } = renderApp('/oauth/callback?type=wechat&code=c-1&state=s-123', { backend: loginOk });
    await waitFor(() => expect(router.state.location.pathname).toBe('/member/profile'));
    expect(session.value.loggedIn).toBe(true);
    expect(JSON.parse(String(loginCalls(fetchMock)[0]![1]!.body))).toEqual({
      type: 'wechat',
      code: 'c-1',
      state: 's-123',
    });
    // the state is good for one callback only
    expect(sessionStorage.length).toBe(0);
  });

  it('refuses a callback whose state this browser did not start (login CSRF), without asking the server', async () => {
    rememberOAuthStart(AUTHORIZE, '/member');
    const { fetchMock } = renderApp('/oauth/callback?type=wechat&code=attacker-code&state=attacker-state', {
      backend: loginOk,
    });
    expect(await screen.findByText('登录请求无效或已过期，请从登录页重新发起第三方登录')).toBeTruthy();
    expect(loginCalls(fetchMock)).toHaveLength(0);
    expect(session.value.loggedIn).toBe(false);
  });

  it('refuses a callback when no sign-in was started in this browser', async () => {
    const { fetchMock } = renderApp('/oauth/callback?type=qq&code=c-2&state=s-9', { backend: loginOk });
    expect(await screen.findByText('登录请求无效或已过期，请从登录页重新发起第三方登录')).toBeTruthy();
    expect(loginCalls(fetchMock)).toHaveLength(0);
  });

  it('says the user cancelled when the provider reports access_denied', async () => {
    rememberOAuthStart(AUTHORIZE, '/member');
    renderApp('/oauth/callback?type=wechat&error=access_denied&state=s-123');
    expect(await screen.findByText('您已取消授权')).toBeTruthy();
  });

  it('shows the server message when the exchange fails', async () => {
    rememberOAuthStart(AUTHORIZE, '/member');
    renderApp('/oauth/callback?type=wechat&code=c-3&state=s-123', {
      backend: {
        'POST /api/v1/oauth/login': { status: 400, body: { code: 3, message: '登录请求无效或已过期，请重新登录' } },
      },
    });
    expect(await screen.findByText('登录请求无效或已过期，请重新登录')).toBeTruthy();
    expect(screen.getByRole('link', { name: '返回登录' })).toBeTruthy();
  });
});
